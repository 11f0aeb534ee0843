/* criterion.h for the worker (tools/grade/worker_main.c): the part of Criterion's
 * interface the GPU suites use, without Criterion's runner. The worker runs the
 * suites only to make the submission's calls in the judge's order; what decides is
 * the judge's real Criterion run. A fatal assertion ends the case, as it does there.
 * A worker's process then has no descriptor but its log, so that nothing a
 * submission writes to "every descriptor it can find" reaches a runner or its
 * shared memory (it would only hurt its own record, never help it). */
#ifndef GRADE_WORKER_CRITERION_H
#define GRADE_WORKER_CRITERION_H

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct criterion_test {
    const char *name;
    const char *category; /* the suite */
};
struct criterion_suite {
    const char *name;
};
extern const struct criterion_test *criterion_current_test;
extern const struct criterion_suite *criterion_current_suite;

struct criterion_test_params {
    size_t size;
    void *params;
    size_t length;
    void (*cleanup)(struct criterion_test_params *);
};

typedef struct worker_test {
    struct criterion_test test;
    void (*body)(void *param);                       /* param: NULL for a Test */
    struct criterion_test_params (*params)(void);    /* NULL for a Test */
    struct worker_test *next;
} worker_test;
void worker_register(worker_test *t);
void worker_failed(int fatal, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void worker_skipped(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

#define WORKER_REGISTER_(suite, name, body_, params_)                                                   \
    static worker_test worker_test_##suite##_##name = { { #name, #suite }, body_, params_, NULL };       \
    __attribute__((constructor)) static void worker_register_##suite##_##name(void)                     \
    {                                                                                                   \
        worker_register(&worker_test_##suite##_##name);                                                 \
    }

#define Test(suite, name, ...)                                                                          \
    static void worker_body_##suite##_##name(void);                                                     \
    static void worker_thunk_##suite##_##name(void *param)                                              \
    {                                                                                                   \
        (void)param;                                                                                    \
        worker_body_##suite##_##name();                                                                 \
    }                                                                                                   \
    WORKER_REGISTER_(suite, name, worker_thunk_##suite##_##name, NULL)                                  \
    static void worker_body_##suite##_##name(void)

#define cr_assert(cond, ...)                                                                            \
    do {                                                                                                \
        if (!(cond))                                                                                    \
            worker_failed(1, "at: " __VA_ARGS__);                                                         \
    } while (0)
#define cr_expect(cond, ...)                                                                            \
    do {                                                                                                \
        if (!(cond))                                                                                    \
            worker_failed(0, "at: " __VA_ARGS__);                                                         \
    } while (0)
#define cr_fail(...) worker_failed(0, "at: " __VA_ARGS__)
#define cr_assert_fail(...) worker_failed(1, "at: " __VA_ARGS__)
#define cr_skip_test(...) worker_skipped("at: " __VA_ARGS__)

#define cr_malloc malloc
#define cr_free free

#endif
