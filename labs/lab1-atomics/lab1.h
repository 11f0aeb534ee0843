/* lab1.h: histograms and scatter-add with atomics, from one atomic per element to
 * warp-aggregated atomics (vote + shuffle). The lab's C API: what every variant
 * computes, the launcher signature, the variant table, the CPU reference, the data
 * generators, the trace of one warp and the "problem" shared by the driver and the
 * GPU tests. */
#ifndef LAB1_H
#define LAB1_H

#include "kit.h"
#include "lab1_peers.h"
#include "lab1_shapes.h" /* every launch shape and tuning choice */

#ifdef __cplusplus
extern "C" {
#endif

#define LAB1_MAX_BINS ((size_t)1 << 20)
#define LAB1_DEFAULT_BINS 256
/* Keys one run may have: past 2^31, so a kernel with 32-bit indices fails. */
#define LAB1_MAX_N ((size_t)1 << 32)

/* The two operations on n keys in [0, bins):
 *   histogram:   counts[b] = number of keys equal to b          (int32, type "count")
 *   scatter-add: sums[b]   = sum of values[i] over keys[i] == b (double, type "f64") */
typedef enum { LAB1_HISTOGRAM = 0, LAB1_SCATTER_ADD = 1, LAB1_OPS = 2 } lab1_op;

typedef struct {
    size_t n;
    int bins;
    const int *keys;      /* n keys, 16-byte aligned (cudaMalloc) */
    const double *values; /* n values (scatter-add only; NULL otherwise) */
    int *counts;          /* bins counters (histogram output) */
    double *sums;         /* bins sums (scatter-add output) */
    int sms;              /* multiprocessors of the device, to size grid-stride launches */
    size_t smem_block;    /* shared memory a block may have without opting in (device) */
    size_t smem_optin;    /* ... and after opting in (device); both count static bytes too */
    size_t l2_bytes;      /* the device's L2 cache (smem-warp's read-once hint stops at 8 of it) */
    int *work;            /* scratch of LAB1_WORK_INTS(bins) ints, all zero between launches
                             (smem-warp's histogram: its block sums and their ticket) */
} lab1_io;

/* The scratch ints of lab1_io.work for `bins` bins: one per bin, and a ticket. */
#define LAB1_WORK_INTS(bins) ((size_t)(bins) + 1)

/* A launcher computes the whole result: it zeroes its output bins (cudaMemsetAsync)
 * and adds every key into them, or writes every bin from its kernel; for n == 0 it
 * only zeroes. */
typedef int (*lab1_fn)(const lab1_io *io, cudaStream_t stream);

/* ---- shared memory of the variants that privatize (smem-private, smem-warp) ----
 * A block's shared memory is its kernel's static __shared__ variables plus the
 * dynamic bytes of the launch. Without opting in, both together may use
 * smem_block bytes (48 KB); after cudaFuncSetAttribute(kernel,
 * cudaFuncAttributeMaxDynamicSharedMemorySize, bytes), smem_optin (99 KB on sm_86,
 * 227 KB on sm_90). The bins get what the static variables leave: a launch that
 * forgets them fails exactly when the bins fill the limit (e.g. 8 copies of 1536
 * counts = 48 KB). */
typedef struct {
    size_t elem;         /* bytes per bin: 4 (counts) or 8 (sums) */
    int max_copies;      /* private copies of the bins the kernel can use (a power of two) */
    size_t static_bytes; /* the kernel's own __shared__ bytes (cudaFuncGetAttributes) */
    size_t block_limit;  /* lab1_io.smem_block */
    size_t optin_limit;  /* lab1_io.smem_optin */
} lab1_smem_budget;

typedef struct {
    int copies;   /* private copies of the bins per block; 0: they do not fit (global atomics) */
    size_t bytes; /* dynamic shared memory of the launch: copies * bins * elem */
    int opt_in;   /* 1: bytes + static bytes pass block_limit: cudaFuncSetAttribute first */
} lab1_smem_plan;

/* The most copies (a power of two, at most max_copies) that fit without opting in;
 * if not even one does, one copy after opting in; if that does not fit, none. */
static inline lab1_smem_plan lab1_plan_smem(size_t bins, const lab1_smem_budget *b)
{
    lab1_smem_plan plan = { 0, 0, 0 };
    size_t one = bins * b->elem;
    size_t plain = b->block_limit > b->static_bytes ? b->block_limit - b->static_bytes : 0;
    size_t opted = b->optin_limit > b->static_bytes ? b->optin_limit - b->static_bytes : 0;
    if (one <= plain) {
        plan.copies = 1;
        while (plan.copies * 2 <= b->max_copies && (size_t)plan.copies * 2 * one <= plain)
            plan.copies *= 2;
    } else if (one <= opted) {
        plan.copies = 1;
        plan.opt_in = 1;
    }
    plan.bytes = (size_t)plan.copies * one;
    return plan;
}

/* A privatizing variant's budget for op: its kernel's static bytes and the
 * device's limits. Returns 0 or a CUDA error. */
typedef int (*lab1_budget_fn)(const lab1_io *io, lab1_op op, lab1_smem_budget *out);

typedef struct {
    kit_variant_info info;
    lab1_fn histogram;         /* NULL: the variant has no histogram row */
    lab1_fn scatter_add;       /* NULL: the variant has no scatter-add row */
    lab1_budget_fn smem_budget; /* NULL: the variant does not privatize in shared memory */
} lab1_variant;

extern const lab1_variant lab1_variants[];
extern const int lab1_variant_count;

/* Launchers (one file each). */
int lab1_global_atomic_histogram(const lab1_io *io, cudaStream_t stream);
int lab1_global_atomic_scatter_add(const lab1_io *io, cudaStream_t stream);
int lab1_cas_loop_scatter_add(const lab1_io *io, cudaStream_t stream);
int lab1_smem_private_histogram(const lab1_io *io, cudaStream_t stream);
int lab1_smem_private_scatter_add(const lab1_io *io, cudaStream_t stream);
int lab1_smem_private_budget(const lab1_io *io, lab1_op op, lab1_smem_budget *out);
int lab1_warp_ballot_histogram(const lab1_io *io, cudaStream_t stream);
int lab1_warp_ballot_scatter_add(const lab1_io *io, cudaStream_t stream);
int lab1_warp_match_histogram(const lab1_io *io, cudaStream_t stream);
int lab1_warp_match_scatter_add(const lab1_io *io, cudaStream_t stream);
int lab1_smem_warp_histogram(const lab1_io *io, cudaStream_t stream);
int lab1_smem_warp_scatter_add(const lab1_io *io, cudaStream_t stream);
int lab1_smem_warp_budget(const lab1_io *io, lab1_op op, lab1_smem_budget *out);

/* The library row: cub::DeviceHistogram::HistogramEven (counts only). Temporary
 * storage is sized once, at problem creation (cub_ref.cu). */
size_t lab1_cub_temp_bytes(size_t n, int bins);
int lab1_cub_histogram(const lab1_io *io, void *temp, size_t temp_bytes, cudaStream_t stream);

/* ---- the trace of one warp of `warp-ballot` (scatter-add) --------------------
 * Written on the GPU by the trace instantiation of the kernel (the timed kernels
 * are compiled without it), printed by `--trace`. Indexed, not appended, so the
 * record is the same whatever order the lanes run in. */
typedef struct {
    int written;
    int src;      /* the lane whose value was added */
    double added; /* its value */
    double total; /* my value after the addition */
} lab1_trace_add;

typedef struct {
    int written;  /* 1: this lane is its group's leader and did the atomic */
    int key;      /* the bin it added into */
    double total; /* what it added: its group's sum (Stage 2's result) */
} lab1_trace_atomic;

typedef struct {
    int iterations;                                  /* Stage 1 iterations seen */
    lab1_stage1_step stage1[LAB1_WARP];              /* by iteration */
    uint32_t peers[LAB1_WARP];                       /* Stage 1 result, by lane */
    lab1_trace_add stage2[LAB1_MAX_ROUNDS][LAB1_WARP]; /* by round, then lane */
    lab1_trace_atomic atomic[LAB1_WARP];             /* by lane: the leaders' atomics */
} lab1_trace;

/* One warp (n <= 32) of the warp-ballot scatter-add kernel with tracing on; the
 * trace buffer must be zeroed. Returns 0, a CUDA error or KIT_TODO. */
int lab1_warp_ballot_trace(const lab1_io *io, lab1_trace *d_trace, cudaStream_t stream);

/* ---- data -------------------------------------------------------------------- */

typedef enum { LAB1_UNIFORM, LAB1_KWARP, LAB1_ZIPF, LAB1_SORTED, LAB1_SINGLE } lab1_dist_kind;

typedef struct {
    lab1_dist_kind kind;
    int k; /* kwarp:K */
} lab1_dist;

/* Parse "uniform", "kwarp:K", "zipf", "sorted", "single". Returns 0, or -1 with a
 * reason in err (K outside 1..32 or larger than bins, unknown name). */
int lab1_parse_dist(const char *text, size_t bins, lab1_dist *out, char *err, size_t err_len);
/* The name as the table prints it ("kwarp:4"). */
void lab1_dist_name(lab1_dist d, char *out, size_t len);

/* Fill keys[0..n) in [0, bins). kwarp:K: every aligned group of 32 keys (a warp's
 * worth) holds exactly K distinct keys in a random pattern; the last, partial group
 * of m < 32 keys holds exactly min(K, m). zipf: P(key = r - 1) ~ 1 / r (s = 1).
 * sorted: non-decreasing, about n / bins of each key. single: one random key. */
void lab1_generate_keys(int *keys, size_t n, size_t bins, lab1_dist d, uint64_t seed);
/* Values of the scatter-add: non-zero multiples of 2^-20 in [-1, 1], uniform. On
 * this grid every partial sum of up to 2^33 values is a multiple of 2^-20 below
 * 2^33 in magnitude: it fits in a double's 53 bits, so sums are exact in any order
 * and the check can be exact; non-zero, so a dropped element always shows. */
#define LAB1_VALUE_GRID 0x1p-20
void lab1_generate_values(double *values, size_t n, uint64_t seed);
/* Parse "k0,k1,..." (1..32 keys) for --trace --keys. Returns the count, or -1 with
 * a reason in err (not a list of integers, a key outside [0, bins), too many). */
int lab1_parse_keys(const char *text, size_t bins, int keys[LAB1_WARP], char *err, size_t err_len);

/* ---- CPU reference (lab1_ref.c) ----------------------------------------------- */

/* Counts per bin. Returns 0, or -1 when a bin would count more than INT32_MAX keys
 * (the int32 counters of the GPU would wrap; counts is then not valid). */
int lab1_ref_histogram(const int *keys, size_t n, int bins, int *counts);
/* Plain double sums per bin: exact for values on the grid of lab1_generate_values. */
void lab1_ref_scatter_add(const int *keys, const double *values, size_t n, int bins, double *sums);
/* Exact comparison of the sums (no tolerance: the data makes every order exact).
 * 0, or 1 with the first wrong bin in msg. */
int lab1_compare_sums(const double *got, const double *expected, int bins, char *msg, size_t len);

/* ---- the problem ------------------------------------------------------------- */

typedef struct lab1_problem lab1_problem;
/* Data for n keys of distribution d over bins; values only when with_values. */
lab1_problem *lab1_problem_create(size_t n, size_t bins, lab1_dist d, uint64_t seed,
                                  int with_values);
void lab1_problem_destroy(lab1_problem *p);
/* The case of variant v for op (the variant must support op: check the table).
 * prepare poisons the output, check compares with the CPU reference. */
kit_case lab1_problem_case(lab1_problem *p, int v, lab1_op op);
/* The CUB row (histogram). */
kit_case lab1_problem_cub_case(lab1_problem *p);
/* The memcpy row of op: the input bytes (keys, plus values for scatter-add); the
 * first call allocates the copy's destination. */
void lab1_problem_copy_limit(lab1_problem *p, lab1_op op, kit_config *cfg);
/* Copies of the bins a block of variant v keeps in shared memory for op, by the
 * same plan as its launcher: 0 when they do not fit (it falls back to global
 * atomics), -1 when v does not privatize. Exits 2 on a CUDA error. */
int lab1_problem_smem_copies(const lab1_problem *p, int v, lab1_op op);
/* The device-side inputs (for tests that call launchers directly). */
const lab1_io *lab1_problem_io(const lab1_problem *p);
/* Device bytes the problem needs (the memcpy row adds a copy of the input). */
size_t lab1_device_bytes(size_t n, size_t bins, int with_values);

/* --trace: run one warp of warp-ballot's scatter-add on keys[0..n) (n <= 32; value
 * of lane L = L + 1), print Stage 1, Stage 2 and the atomics as the GPU recorded
 * them, and compare with the host model of lab1_peers.h. Returns an exit status:
 * 0 the GPU agrees with the model, 1 it does not, 2 a CUDA error, 3 TODO. */
int lab1_trace_run(const int *keys, int n, int bins, FILE *out);

#ifdef __cplusplus
}
#endif
#endif
