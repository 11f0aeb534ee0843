/* worker_main.c: the worker's runner. The worker is a lab's GPU suite built against
 * tools/grade/worker_criterion (Criterion's interface without its runner), the
 * lab's files with the submission's in place, and the recording wrappers
 * (worker.c, replay.c). It runs each case of the chosen suites in a process of its
 * own, GRADE_CASE_JOBS (default 1) at a time, and kills a case that runs past its
 * time limit; the records are all that counts, the judge decides
 * (tools/grade/replay.h). It prints one line per case for the log, with its time.
 *
 *   worker --suite NAME... [--limit SECONDS]     (default: GRADE_CASE_LIMIT, else 120)
 */
#include <criterion/criterion.h>

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

const struct criterion_test *criterion_current_test;
const struct criterion_suite *criterion_current_suite;

static worker_test *first, **last = &first;
static int failures;

void worker_register(worker_test *t)
{
    *last = t;
    last = &t->next;
}

void worker_failed(int fatal, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("    failed ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    failures++;
    if (fatal)
        _exit(1);
}

void worker_skipped(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("    skipped ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    fflush(stdout);
    _exit(failures ? 1 : 0);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void *grow(void *array, size_t count, size_t size)
{
    array = realloc(array, (count ? count : 1) * size);
    if (!array) {
        fprintf(stderr, "worker: out of memory\n");
        exit(2);
    }
    return array;
}

/* A case: a test and its parameter (NULL for a plain test), and its process. */
typedef struct {
    worker_test *test;
    void *param;
    size_t number; /* 1.. within a parameterised test, 0 for a plain one */
    pid_t pid;
    double start;
} worker_case;

/* The case's process: the test's body, its exit status what it found. */
static pid_t start_case(worker_case *c)
{
    fflush(stdout);
    c->start = now();
    pid_t pid = fork();
    if (pid == 0) {
        static struct criterion_suite suite;
        suite.name = c->test->test.category;
        criterion_current_suite = &suite;
        criterion_current_test = &c->test->test;
        c->test->body(c->param);
        _exit(failures ? 1 : 0);
    }
    return c->pid = pid;
}

/* One line for the log: which case, how it ended, how long it took. */
static void report_case(const worker_case *c, const char *how)
{
    char number[32] = "";
    if (c->number)
        snprintf(number, sizeof number, " #%zu", c->number);
    printf("%s::%s%s: %s (%.1f s)\n", c->test->test.category, c->test->test.name, number, how, now() - c->start);
    fflush(stdout);
}

static const char *how_it_ended(int status)
{
    static char crashed[96];
    if (!WIFSIGNALED(status))
        return WEXITSTATUS(status) ? "failed here (the judge decides)" : "done";
    snprintf(crashed, sizeof crashed, "crashed (signal %d: %s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
    return crashed;
}

/* Run the cases, at most `at_once` processes at a time (the cases are independent:
 * each writes its own record); a case past its time limit is killed. */
static void run_cases(worker_case *cases, size_t count, int at_once, double limit)
{
    size_t next = 0, running = 0;
    while (next < count || running) {
        for (; running < (size_t)at_once && next < count; next++) {
            if (start_case(&cases[next]) < 0)
                report_case(&cases[next], "cannot fork");
            else
                running++;
        }
        for (size_t i = 0; i < next; i++) {
            worker_case *c = &cases[i];
            int status;
            if (c->pid <= 0)
                continue;
            if (waitpid(c->pid, &status, WNOHANG) == c->pid) {
                report_case(c, how_it_ended(status));
            } else if (now() > c->start + limit) {
                kill(c->pid, SIGKILL);
                waitpid(c->pid, &status, 0);
                report_case(c, "killed at the time limit");
            } else {
                continue;
            }
            c->pid = 0;
            running--;
        }
        usleep(2000);
    }
}

int main(int argc, char **argv)
{
    const char *limit_env = getenv("GRADE_CASE_LIMIT"), *jobs_env = getenv("GRADE_CASE_JOBS");
    double limit = limit_env ? atof(limit_env) : 120;
    int at_once = jobs_env && atoi(jobs_env) > 0 ? atoi(jobs_env) : 1;
    const char *suites[64];
    int suite_count = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--suite") && suite_count < 64)
            suites[suite_count++] = argv[i + 1];
        else if (!strcmp(argv[i], "--limit"))
            limit = atof(argv[i + 1]);
        else {
            fprintf(stderr, "usage: worker --suite NAME... [--limit SECONDS]\n");
            return 2;
        }
    }
    /* every chosen case first (the parameter arrays stay until the end) */
    worker_case *cases = NULL;
    struct criterion_test_params *arrays = NULL;
    size_t count = 0, array_count = 0;
    for (worker_test *t = first; t; t = t->next) {
        int chosen = 0;
        for (int s = 0; s < suite_count; s++)
            chosen |= !strcmp(suites[s], t->test.category);
        if (!chosen)
            continue;
        struct criterion_test_params params = { .length = 1 };
        if (t->params) {
            params = t->params();
            arrays = grow(arrays, array_count + 1, sizeof *arrays);
            arrays[array_count++] = params;
        }
        cases = grow(cases, count + params.length, sizeof *cases);
        for (size_t k = 0; k < params.length; k++)
            cases[count++] = (worker_case){ t, t->params ? (char *)params.params + k * params.size : NULL,
                                            t->params ? k + 1 : 0, 0, 0 };
    }
    run_cases(cases, count, at_once, limit);
    for (size_t k = 0; k < array_count; k++)
        if (arrays[k].cleanup)
            arrays[k].cleanup(&arrays[k]);
    free(arrays);
    free(cases);
    return 0;
}
