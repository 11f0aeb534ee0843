/* judge.c: the judge's side of tools/grade/replay.h for one lab. Built like
 * worker.c; every function of the calls table is a stand-in that replays the
 * worker's record, so the judge links no file of the submission. Its verdicts go
 * to $GRADE_RESULTS through tools/grade/report_hook.c. */
#include "replay.h"

#define GRADE_STRING_(x) #x
#define GRADE_STRING(x) GRADE_STRING_(x)
#include GRADE_STRING(GRADE_HEADER)

/* A stand-in has the real signature and uses only the out-parameters. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#define GRADE_CALL(R, NAME, PARAMS, ARGS, ...)                                                     \
    R NAME PARAMS                                                                                  \
    {                                                                                              \
        grade_out outs_[] = { { NULL, 0 }, __VA_ARGS__ };                                          \
        return (R)grade_call_replay(#NAME, outs_ + 1, (int)(sizeof outs_ / sizeof outs_[0]) - 1); \
    }
#include GRADE_STRING(GRADE_CALLS)
#pragma GCC diagnostic pop
