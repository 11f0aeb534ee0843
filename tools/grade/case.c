/* case.c: the test case a grading program is running, named by KIT_CASE
 * (tests/kit_test.h). Linked into the worker, the judge and make grade's suite. */
#include "replay.h"

#include <criterion/criterion.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char case_name[512]; /* KIT_CASE's name, else the test's */

const char *grade_case_id(void)
{
    static char id[1024];
    const char *suite = criterion_current_suite ? criterion_current_suite->name : "?";
    const char *test = criterion_current_test ? criterion_current_test->name : "?";
    snprintf(id, sizeof id, "%s/%s/%s", suite, test, case_name[0] ? case_name : test);
    return id;
}

/* Under make grade (Criterion's runner) a named case arms its own time limit,
 * GRADE_CASE_ALARM seconds: a case that hangs is killed alone and the others still
 * run. The worker's runner keeps its own (worker_main.c, GRADE_CASE_LIMIT). */
static void arm_case_limit(void)
{
    const char *limit = getenv("GRADE_CASE_ALARM");
    if (limit)
        alarm((unsigned)atoi(limit));
}

void kit_test_case_name(const char *name)
{
    snprintf(case_name, sizeof case_name, "%s", name);
    arm_case_limit();
    const char *file = getenv("GRADE_CASE_FILE"); /* where the report hook reads it */
    if (file) {
        FILE *f = fopen(file, "w");
        if (f) {
            fputs(name, f);
            fclose(f);
        }
    }
}
