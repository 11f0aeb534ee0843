/* parameterized.h for the worker: see criterion.h beside it. */
#ifndef GRADE_WORKER_PARAMETERIZED_H
#define GRADE_WORKER_PARAMETERIZED_H

#include "criterion.h"

#define ParameterizedTestParameters(suite, name) \
    static struct criterion_test_params worker_params_##suite##_##name(void)

#define ParameterizedTest(param, suite, name, ...)                                                      \
    static struct criterion_test_params worker_params_##suite##_##name(void);                           \
    static void worker_body_##suite##_##name(param);                                                    \
    static void worker_thunk_##suite##_##name(void *p) { worker_body_##suite##_##name(p); }             \
    WORKER_REGISTER_(suite, name, worker_thunk_##suite##_##name, worker_params_##suite##_##name)         \
    static void worker_body_##suite##_##name(param)

#endif
