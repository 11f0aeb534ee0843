/* lab3.h: prefix sum (scan), from a block-level scan to a single-pass scan with
 * decoupled look-back, plus stream compaction built on it. The lab's C API: what
 * every variant computes, the launcher signature, the variant table, the CPU
 * reference and the "problem" (data + reference + device buffers + workspace)
 * shared by the driver and the GPU tests. */
#ifndef LAB3_H
#define LAB3_H

#include "kit.h"
#include "lab3_shapes.h" /* every tile shape and tuning choice */
#include "lab3_tile.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest n: select-if's counts are 32-bit. Past 2^31 values any index kept
 * in an int wraps: the GPU suite runs there. */
#define LAB3_MAX_N (((size_t)1 << 32) - 1)

/* Element types: 32-bit sums wrap modulo 2^32, 64-bit sums modulo 2^64, the same
 * on CPU and GPU (both compute in unsigned arithmetic). */
typedef enum { LAB3_I32 = 0, LAB3_I64 = 1 } lab3_type;
static inline size_t lab3_type_bytes(lab3_type t) { return t == LAB3_I32 ? 4 : 8; }

/* Scratch every launcher draws from, allocated once per problem (never inside a
 * timed launch). The single-pass variants of Steps 3.3-3.6 reset the part they use
 * at the start of every launch (cudaMemsetAsync, counted in their time: it is part
 * of the method); the pipelines (Steps 3.7-3.8) tag their statuses with a new
 * epoch instead (lab3_tile.h) and zero the array only when `epoch` is 0 (a reset
 * variant ran last, or none yet) or has reached LAB3_EPOCH_MAX. */
typedef struct {
    void *status;              /* ticket counter + padded tile status array (lab3_tile.h) */
    size_t status_bytes;
    uint32_t epoch;            /* the last pipeline launch's epoch; 0: zero the array first */
    void *spine;               /* tile totals of the multi-pass scans, every level */
    size_t spine_bytes;
    unsigned long long *stats; /* look-back counters (LAB3_STAT_*) or NULL: NULL on timed runs */
    void *cub_temp;            /* CUB's temporary storage */
    size_t cub_temp_bytes;
} lab3_workspace;

/* The status block of a workspace for n items, enough for every variant: packed
 * entries for the smallest tile (LAB3_MIN_TILE values), or entries
 * LAB3_PIPE_STATUS_SPACING apart for the smallest tile of a pipeline
 * (LAB3_PIPE_MIN_NV values), whichever is larger: for small n the padding's
 * entries decide, and they are spaced too. */
static inline size_t lab3_workspace_status_bytes(size_t n)
{
    size_t packed = lab3_status_bytes(n, LAB3_MIN_TILE, LAB3_STATUS_ENTRY_MAX);
    size_t spaced = lab3_status_bytes(n, LAB3_PIPE_MIN_NV, LAB3_PIPE_STATUS_SPACING);
    return packed > spaced ? packed : spaced;
}

/* Look-back statistics, collected only when ws->stats is not NULL. */
enum {
    LAB3_STAT_TILES,       /* tiles that looked back */
    LAB3_STAT_DEPTH_SUM,   /* predecessors inspected, summed over tiles */
    LAB3_STAT_DEPTH_MAX,   /* most predecessors one tile inspected */
    LAB3_STAT_WAITS,       /* status reads that found X and had to be repeated */
    LAB3_STAT_COUNT
};

/* One scan: out[i] = in[0] + ... + in[i] (inclusive) or in[0] + ... + in[i-1]
 * (exclusive, out[0] = 0). in and out hold n values of `type`. */
typedef struct {
    const void *in;
    void *out;
    size_t n;
    lab3_type type;
    int exclusive;
    lab3_workspace *ws;
} lab3_scan_io;

typedef int (*lab3_scan_fn)(const lab3_scan_io *io, cudaStream_t stream);

typedef struct {
    kit_variant_info info;
    lab3_scan_fn run;
    int lookback; /* 1: fills ws->stats when asked (--stats) */
} lab3_variant;

extern const lab3_variant lab3_variants[];
extern const int lab3_variant_count;

/* Launchers (one file each). */
int lab3_block_hillis_steele(const lab3_scan_io *io, cudaStream_t stream);
int lab3_warp_shuffle(const lab3_scan_io *io, cudaStream_t stream);
int lab3_reduce_then_scan(const lab3_scan_io *io, cudaStream_t stream);
int lab3_chained(const lab3_scan_io *io, cudaStream_t stream);
int lab3_decoupled_lookback(const lab3_scan_io *io, cudaStream_t stream);
int lab3_lookback_tuned(const lab3_scan_io *io, cudaStream_t stream);
int lab3_pipeline_scan(const lab3_scan_io *io, cudaStream_t stream);
/* cub_ref.cu: cub::DeviceScan::ExclusiveSum / InclusiveSum. */
int lab3_cub_scan(const lab3_scan_io *io, cudaStream_t stream);

/* Compaction (select-if): copy the items x with lab3_keep(bits of x, keep_pct)
 * to out[0..count), in order, and store count in *d_count. */
typedef struct {
    const void *in;
    void *out;       /* may equal in: select-if and select-pipeline compact in place */
    size_t n;
    lab3_type type;
    uint32_t keep_pct;
    unsigned long long *d_count;
    lab3_workspace *ws;
} lab3_select_io;

int lab3_select_if(const lab3_select_io *io, cudaStream_t stream);       /* v6_select_if.cu (Step 3.6) */
int lab3_select_pipeline(const lab3_select_io *io, cudaStream_t stream); /* v8_select_pipeline.cu (Step 3.8) */
int lab3_cub_select(const lab3_select_io *io, cudaStream_t stream);      /* cub_ref.cu */

/* CUB's temporary storage for a scan and a select of n items of type t (max of both). */
size_t lab3_cub_temp_bytes(size_t n, lab3_type t);

/* ---- CPU reference (lab3_ref.c) ---------------------------------------------- */
/* in and out may be the same array. Arithmetic is unsigned, so overflow wraps. */
void lab3_ref_scan_i32(const int32_t *in, int32_t *out, size_t n, int exclusive);
void lab3_ref_scan_i64(const int64_t *in, int64_t *out, size_t n, int exclusive);
/* Returns the number of items kept; out must hold n items (may equal in). */
size_t lab3_ref_select(const void *in, void *out, size_t n, lab3_type type, uint32_t keep_pct);

/* ---- the problem: data, device buffers, reference, one kit_case per row -------- */
typedef struct lab3_problem lab3_problem;
/* Random data of both signs: int32 in [-2^30, 2^30] (sums wrap), int64 in
 * [-2^40, 2^40] (sums overflow int32). keep_pct is used by the compaction rows. */
lab3_problem *lab3_problem_create(size_t n, lab3_type type, uint64_t seed, uint32_t keep_pct);
void lab3_problem_destroy(lab3_problem *p);
/* Move the device input and output 0 or 1 values past the start of their
 * allocations (the input is uploaded again there): with 1, they are no longer
 * 16-byte aligned, which vector loads and bulk copies must handle. */
void lab3_problem_shift(lab3_problem *p, int in_values, int out_values);
/* Device bytes a problem needs. */
size_t lab3_device_bytes(size_t n, lab3_type type);
/* Turn look-back statistics on or off for the next runs (allocates the counters). */
void lab3_problem_enable_stats(lab3_problem *p, int on);
/* Read the counters of the last run (LAB3_STAT_COUNT values); 0 on success. */
int lab3_problem_read_stats(lab3_problem *p, unsigned long long *out);
/* For the tests: set the workspace's epoch count (lab3_workspace.epoch), e.g. to
 * LAB3_EPOCH_MAX - 1, so that the next pipeline launches cross the last epoch. */
void lab3_problem_set_epoch(lab3_problem *p, uint32_t epoch);

/* The case of scan variant v (index into lab3_variants), or of CUB's scan when
 * v == LAB3_CUB. prepare poisons the output, check compares with the reference. */
#define LAB3_CUB (-1)
kit_case lab3_problem_scan_case(lab3_problem *p, int v, int exclusive);
/* The compaction rows (--op compact), in the order the driver runs them:
 * select-if and select-pipeline (in place), cub-select. */
typedef enum { LAB3_SELECT_IF, LAB3_SELECT_PIPELINE, LAB3_SELECT_CUB, LAB3_SELECT_ROWS } lab3_select_row;
kit_case lab3_problem_select_case(lab3_problem *p, lab3_select_row row);
/* The memcpy row: copy the n input values, device to device. */
void lab3_problem_copy_limit(lab3_problem *p, kit_config *cfg);

#ifdef __cplusplus
}
#endif
#endif
