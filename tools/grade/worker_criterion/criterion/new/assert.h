/* new/assert.h for the worker: Criterion's comparison criteria, as plain C
 * expressions (see ../criterion.h). */
#ifndef GRADE_WORKER_NEW_ASSERT_H
#define GRADE_WORKER_NEW_ASSERT_H

#include "../criterion.h"

#include <string.h>

#define WORKER_CMP_(op, type, a, b) WORKER_CMP_##type(op, a, b)
#define WORKER_CMP_int(op, a, b) ((a)op(b))
#define WORKER_CMP_i32 WORKER_CMP_int
#define WORKER_CMP_u32 WORKER_CMP_int
#define WORKER_CMP_i64 WORKER_CMP_int
#define WORKER_CMP_u64 WORKER_CMP_int
#define WORKER_CMP_sz WORKER_CMP_int
#define WORKER_CMP_ptr WORKER_CMP_int
#define WORKER_CMP_dbl WORKER_CMP_int
#define WORKER_CMP_flt WORKER_CMP_int
#define WORKER_CMP_str(op, a, b) (strcmp((a), (b)) op 0)

#define eq(type, a, b) WORKER_CMP_(==, type, a, b)
#define ne(type, a, b) WORKER_CMP_(!=, type, a, b)
#define lt(type, a, b) WORKER_CMP_(<, type, a, b)
#define le(type, a, b) WORKER_CMP_(<=, type, a, b)
#define gt(type, a, b) WORKER_CMP_(>, type, a, b)
#define ge(type, a, b) WORKER_CMP_(>=, type, a, b)
#define not(x) (!(x))

#endif
