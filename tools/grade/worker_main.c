/* worker_main.c: the worker's runner. The worker is a lab's GPU suite built against
 * tools/grade/worker_criterion (Criterion's interface without its runner), the
 * lab's files with the submission's in place, and the recording wrappers
 * (worker.c, replay.c). It runs each case of the chosen suites in a process of its
 * own, one at a time, and kills a case that runs past its time limit; the records
 * are all that counts, the judge decides (tools/grade/replay.h). It prints one line
 * per case for the log.
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

/* One case in a process of its own; how it ended, for the log. */
static const char *run_case(worker_test *t, void *param, double limit)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return "cannot fork";
    if (pid == 0) {
        static struct criterion_suite suite;
        suite.name = t->test.category;
        criterion_current_suite = &suite;
        criterion_current_test = &t->test;
        t->body(param);
        _exit(failures ? 1 : 0);
    }
    double deadline = now() + limit;
    int status;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        if (now() > deadline) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return "killed at the time limit";
        }
        usleep(2000);
    }
    if (WIFSIGNALED(status)) {
        static char crashed[96];
        snprintf(crashed, sizeof crashed, "crashed (signal %d: %s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
        return crashed;
    }
    return WEXITSTATUS(status) ? "failed here (the judge decides)" : "done";
}

int main(int argc, char **argv)
{
    const char *limit_env = getenv("GRADE_CASE_LIMIT");
    double limit = limit_env ? atof(limit_env) : 120;
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
    for (worker_test *t = first; t; t = t->next) {
        int chosen = 0;
        for (int s = 0; s < suite_count; s++)
            chosen |= !strcmp(suites[s], t->test.category);
        if (!chosen)
            continue;
        if (!t->params) {
            printf("%s::%s: %s\n", t->test.category, t->test.name, run_case(t, NULL, limit));
            continue;
        }
        struct criterion_test_params params = t->params();
        for (size_t k = 0; k < params.length; k++)
            printf("%s::%s #%zu: %s\n", t->test.category, t->test.name, k + 1,
                   run_case(t, (char *)params.params + k * params.size, limit));
        if (params.cleanup)
            params.cleanup(&params);
    }
    return 0;
}
