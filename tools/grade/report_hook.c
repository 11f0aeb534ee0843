/* report_hook.c: a grading program's verdicts, one line per test case appended to
 * $GRADE_RESULTS by its Criterion runner (the judge's, or make grade's own suite):
 *     suite <TAB> test <TAB> case <TAB> pass|fail|notrun <TAB> message
 * The case's name comes from KIT_CASE in the test's own process, through
 * $GRADE_CASE_FILE: the program runs its tests one at a time (-j1). */
#include <criterion/criterion.h>
#include <criterion/hooks.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

ReportHook(PRE_TEST)(struct criterion_test *test)
{
    (void)test;
    const char *file = getenv("GRADE_CASE_FILE");
    if (file)
        unlink(file);
}

/* Tabs and line breaks of a message become spaces: one case, one line. */
static void put_field(FILE *out, const char *text)
{
    for (; text && *text; text++)
        fputc(*text == '\t' || *text == '\n' || *text == '\r' ? ' ' : *text, out);
}

static void report(const struct criterion_test_stats *st)
{
    const char *path = getenv("GRADE_RESULTS");
    FILE *out = path ? fopen(path, "a") : NULL;
    if (!out)
        return;
    char name[512] = "";
    const char *file = getenv("GRADE_CASE_FILE");
    FILE *f = file ? fopen(file, "r") : NULL;
    if (f) {
        if (!fgets(name, sizeof name, f))
            name[0] = '\0';
        fclose(f);
    }
    fprintf(out, "%s\t%s\t", st->test->category, st->test->name);
    put_field(out, name[0] ? name : st->test->name);
    if (st->test_status == CR_STATUS_SKIPPED) {
        fputs("\tnotrun\t", out);
        put_field(out, st->message);
    } else if (st->crashed || st->test_status != CR_STATUS_PASSED) {
        fputs("\tfail\t", out);
        if (st->crashed)
            fprintf(out, "crashed (signal %d) ", st->signal);
        else if (st->exit_code)
            fprintf(out, "exited with status %d ", st->exit_code);
        /* Criterion keeps the assertions newest first: print them in order. */
        const struct criterion_assert_stats *failed[64];
        int count = 0;
        for (const struct criterion_assert_stats *a = st->asserts; a && count < 64; a = a->next)
            if (!a->passed)
                failed[count++] = a;
        for (int i = count - 1; i >= 0; i--) {
            put_field(out, failed[i]->message);
            fputs(i ? " / " : "", out);
        }
    } else {
        fputs("\tpass\t", out);
    }
    fputc('\n', out);
    fclose(out);
}

ReportHook(POST_TEST)(struct criterion_test_stats *st) { report(st); }
ReportHook(TEST_CRASH)(struct criterion_test_stats *st) { report(st); }
