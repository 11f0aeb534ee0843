/* worker.c: the worker's side of tools/grade/replay.h for one lab. Built with
 * -DGRADE_HEADER=labN.h -DGRADE_CALLS=labN.calls and linked with
 * -Xlinker --wrap=NAME for every function of the calls table: the rest of the lab
 * calls __wrap_NAME, which runs the submission's NAME and records what it changed. */
#include "replay.h"

#define GRADE_STRING_(x) #x
#define GRADE_STRING(x) GRADE_STRING_(x)
#include GRADE_STRING(GRADE_HEADER)

#define GRADE_CALL(R, NAME, PARAMS, ARGS, ...)                                                     \
    R __real_##NAME PARAMS;                                                                        \
    R __wrap_##NAME PARAMS;                                                                        \
    R __wrap_##NAME PARAMS                                                                         \
    {                                                                                              \
        grade_out outs_[] = { { NULL, 0 }, __VA_ARGS__ };                                          \
        grade_call_enter();                                                                        \
        R r_ = __real_##NAME ARGS;                                                                 \
        return (R)grade_call_leave(#NAME, (int64_t)r_, outs_ + 1, (int)(sizeof outs_ / sizeof outs_[0]) - 1); \
    }
#include GRADE_STRING(GRADE_CALLS)
