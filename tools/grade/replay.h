/* replay.h: how a submission's work reaches a judge that holds none of its code.
 *
 * Grading runs a lab's GPU suite twice, as two programs built from the same test
 * code. The worker links the submission's files; every function of theirs that the
 * rest of the lab calls (tools/grade/labN.calls) is wrapped: after the call the
 * wrapper writes a record of what it changed. The judge links none of the
 * submission's files: each of those functions is a stand-in that reads the record
 * and applies it. Both programs make the same buffers in the same order (the tests
 * and the problems are deterministic), so "buffer 7" means the same buffer in both.
 *
 * What a call may change, and so what a record holds: the device and pinned host
 * buffers the tests allocated (those that differ after the call, whole), the CUDA
 * events of the tests it recorded, the out-parameters its calls table names, and its
 * return value. The judge then checks the outputs against its own CPU reference: a
 * forged record can only make the judge see outputs, and wrong outputs fail.
 */
#ifndef GRADE_REPLAY_H
#define GRADE_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A buffer the tests allocated: device memory (pinned = 0) or pinned host memory. */
typedef struct {
    void *ptr;
    size_t bytes;
    int device; /* the device it lives on (device memory) */
    int pinned; /* host memory the device can reach */
    int live;
    uint64_t hash[2]; /* before the call being recorded */
} grade_buffer;

/* An out-parameter of a call: host memory the caller reads after it. */
typedef struct {
    void *ptr;
    size_t bytes;
} grade_out;

/* ---- what the memory backend provides (replay_cuda.cu; a host stand-in in the tests) */
int grade_backend_sync(void); /* wait for all work; the first error, or 0 */
int grade_backend_hash(const grade_buffer *b, uint64_t out[2]);
int grade_backend_read(const grade_buffer *b, void *host);
int grade_backend_write(const grade_buffer *b, const void *host);
int grade_backend_record_event(void *event, int device); /* on that device's default stream */

/* ---- what the backend calls when the tests (not the submission) allocate ---------- */
/* Nonzero while a call into the submission runs: what it allocates is its own. */
int grade_inside(void);
void grade_buffer_added(void *ptr, size_t bytes, int device, int pinned);
void grade_buffer_removed(void *ptr);
void grade_event_added(void *event, int device); /* the device current when it was made */
void grade_event_removed(void *event);
/* An event of the tests was recorded by the submission's code (worker). */
void grade_event_recorded(void *event);

/* ---- the worker: around every call into the submission ------------------------------ */
void grade_call_enter(void);
/* Returns what the caller gets: ret, or the CUDA error the call left behind. */
int64_t grade_call_leave(const char *name, int64_t ret, const grade_out *outs, int out_count);

/* ---- the judge: a stand-in for a function of the submission ------------------------- */
int64_t grade_call_replay(const char *name, const grade_out *outs, int out_count);

/* ---- the case (case.c) ------------------------------------------------------------ */
/* KIT_CASE (tests/kit_test.h) names the running case; its id is suite/test/name. */
void kit_test_case_name(const char *name);
const char *grade_case_id(void);

#ifdef __cplusplus
}
#endif
#endif
