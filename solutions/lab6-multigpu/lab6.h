/* lab6.h: beyond one GPU. An all-reduce written four ways (through the host, through
 * GPU 0, as a ring over peer-to-peer reads, and NCCL's), then three applications
 * that split their input across GPUs: histogram, scan and sort. The lab's C API:
 * the GPUs ("team"), what every variant computes, the launcher signatures, the
 * variant table, the CPU reference and the "problems" shared by the driver and the
 * GPU tests. The arithmetic (shards, the ring schedule, bandwidth, the sort's split)
 * is in lab6_plan.h, which needs neither NCCL nor a GPU. */
#ifndef LAB6_H
#define LAB6_H

#include "kit.h"
#include "lab6_plan.h"

#include <nccl.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LAB6_MAX_LOCAL 16  /* GPUs one process drives */
#define LAB6_LANES 2       /* streams per GPU: the ring's chunks alternate between them */
#define LAB6_MAX_CHUNKS 16 /* chunks per ring segment (--chunks) */
/* Launch shapes, the one place to change them: the sum kernel of the all-reduces
 * (lab6_sum.cuh: threads per block, and blocks per SM it is capped at) and the
 * sort's small kernels (v5_sort.cu). */
#define LAB6_SUM_NT 256
#define LAB6_SUM_BLOCKS_PER_SM 8
#define LAB6_SORT_NT 256

/* Launcher errors that are not CUDA errors; a message says more where they arise. */
enum {
    LAB6_ERR_NCCL = 100100,   /* an NCCL call failed */
    LAB6_ERR_ONE_PROCESS,     /* the variant reads other GPUs' memory: every GPU must be in this process */
};

/* Report a failed NCCL call with its text and file:line; evaluates to 0 or LAB6_ERR_NCCL. */
#define LAB6_NCCL(call) lab6_nccl_check_((call), #call, __FILE__, __LINE__)
int lab6_nccl_check_(ncclResult_t r, const char *what, const char *file, int line);

/* ---- the GPUs of the ring (lab6_team.c) ---------------------------------------------
 * Either one process drives all G GPUs (ncclCommInitAll), or each process drives one
 * (ncclCommInitRank: the form that carries over to several hosts). Local GPU l is
 * ring position rank0 + l. Every launcher works on the local GPUs only, on their
 * lanes; the caller's stream is joined to them with lab6_fork / lab6_join, so events
 * on that stream time the work of every GPU. */
typedef struct {
    int gpus;  /* G: GPUs in the ring, every process together */
    int local; /* GPUs this process drives: G, or 1 with one process per GPU */
    int rank0; /* ring position of local GPU 0 */
    int device[LAB6_MAX_LOCAL];
    int sms[LAB6_MAX_LOCAL];
    cudaStream_t lane[LAB6_MAX_LOCAL][LAB6_LANES]; /* lane 0 carries every NCCL call */
    ncclComm_t comm[LAB6_MAX_LOCAL];
    int peer_access; /* this process drives every GPU, and each reads every other's memory */
    cudaEvent_t fork;
    cudaEvent_t joined[LAB6_MAX_LOCAL][LAB6_LANES];
    /* Per local GPU: the ring's "step q of chunk k done" events (lab6_step_event), also
     * the events gather-reduce-broadcast needs. */
    cudaEvent_t *step_done[LAB6_MAX_LOCAL];
    char names[512]; /* "NVIDIA H200, NVIDIA H200": for the CSV header */
} lab6_team;

/* One process, G GPUs: devices first_device .. first_device + G - 1. */
int lab6_team_open(lab6_team *t, int first_device, int G, char *why, size_t len);
/* One process per GPU: this one is `rank` of `ranks` and drives `device`. Rank 0
 * makes NCCL's unique id and writes it to id_file; the others wait for that file. */
int lab6_team_open_rank(lab6_team *t, int rank, int ranks, int device, const char *id_file, char *why,
                        size_t len);
void lab6_team_close(lab6_team *t);

/* Where a launcher (mpirun, srun, mpiexec) says this process stands: returns 1 and
 * fills rank, ranks, local rank and a job id (for a default id file), or 0. */
int lab6_launcher_env(int *rank, int *ranks, int *local_rank, char *job, size_t job_len);

static inline int lab6_rank(const lab6_team *t, int l) { return t->rank0 + l; }
/* Make local GPU l the current device (launches and allocations go there). */
int lab6_use(const lab6_team *t, int l);
/* Every lane of every local GPU waits for the work so far on `stream`... */
int lab6_fork(const lab6_team *t, cudaStream_t stream);
/* ...and `stream` waits for all their work; the current device is local GPU 0 again. */
int lab6_join(const lab6_team *t, cudaStream_t stream);
/* The event local GPU l records when step q of chunk k of the ring is done. */
static inline cudaEvent_t lab6_step_event(const lab6_team *t, int l, int q, int chunks, int k)
{
    return t->step_done[l][q * chunks + k];
}
/* A launcher that needs every GPU in this process says so and returns LAB6_ERR_ONE_PROCESS. */
int lab6_needs_one_process(const lab6_team *t, const char *variant);

/* ---- the all-reduce ------------------------------------------------------------------
 * Every GPU holds n values; afterwards every GPU holds their element-wise sum over
 * all G GPUs. int32 sums in unsigned arithmetic (wrap-around defined); float data sit
 * on a power-of-two grid so every sum is exact in any order (lab6_ref.c). */
typedef enum { LAB6_I32 = 0, LAB6_F32 = 1 } lab6_type;
static inline size_t lab6_type_bytes(lab6_type t) { return t == LAB6_I32 ? sizeof(int32_t) : sizeof(float); }
static inline ncclDataType_t lab6_nccl_type(lab6_type t) { return t == LAB6_I32 ? ncclInt32 : ncclFloat32; }

/* Scratch, allocated once per problem (never inside a timed run). */
typedef struct {
    void *host[LAB6_MAX_LOCAL + 1]; /* host-staged: pinned copies of every input, then the sum */
    void *stage;                    /* gather-reduce-broadcast: G-1 inputs gathered on GPU 0 */
} lab6_reduce_ws;

typedef struct {
    const lab6_team *team;
    const void *in[LAB6_MAX_LOCAL]; /* n values on each local GPU */
    void *out[LAB6_MAX_LOCAL];      /* n values: the sum */
    size_t n;
    lab6_type type;
    int chunks; /* ring: chunks per segment, 1..LAB6_MAX_CHUNKS */
    lab6_reduce_ws *ws;
} lab6_reduce_io;

typedef int (*lab6_reduce_fn)(const lab6_reduce_io *io);

int lab6_host_staged(const lab6_reduce_io *io);            /* v0_host_staged.c */
int lab6_gather_reduce_broadcast(const lab6_reduce_io *io); /* v1_gather_reduce_broadcast.cu */
int lab6_ring(const lab6_reduce_io *io);                    /* v2_ring.cu */
int lab6_nccl_allreduce(const lab6_reduce_io *io);          /* nccl_ref.c: the library */

/* ---- the applications -------------------------------------------------------------
 * `total` keys split in G shards (lab6_split, granule 1), shard g on GPU g. */
typedef enum { LAB6_ALLREDUCE, LAB6_HISTOGRAM, LAB6_SCAN, LAB6_SORT, LAB6_OPS } lab6_op;

typedef struct {
    void *cub_temp[LAB6_MAX_LOCAL]; /* CUB's temporary storage on each local GPU */
    size_t cub_temp_bytes[LAB6_MAX_LOCAL];
    /* scan: every GPU's shard total (G values) and this GPU's offset */
    uint32_t *totals[LAB6_MAX_LOCAL], *offset[LAB6_MAX_LOCAL];
    /* sort: the sorted shard, the runs received (capacity total), every shard's first
     * and last key (G), every shard's digit positions (G x (LAB6_DIGITS + 1)), and
     * those positions again on the host (pinned) */
    uint32_t *sorted[LAB6_MAX_LOCAL], *received[LAB6_MAX_LOCAL];
    lab6_key_ends *ends[LAB6_MAX_LOCAL];
    uint64_t *pos[LAB6_MAX_LOCAL];
    uint64_t *host_pos;  /* pinned: G x (LAB6_DIGITS + 1) */
    uint64_t *host_hist; /* LAB6_DIGITS: the global digit histogram */
    int *first_digit;    /* G + 1: the digits each GPU receives (lab6_split_digits) */
    lab6_span *runs[LAB6_MAX_LOCAL]; /* G each: the non-empty runs a GPU receives, to merge */
} lab6_app_ws;

typedef struct {
    const lab6_team *team;
    const void *in[LAB6_MAX_LOCAL]; /* each local GPU's shard */
    size_t count[LAB6_MAX_LOCAL];   /* its size */
    size_t total;                   /* keys on every GPU together */
    int bins;                       /* histogram */
    /* histogram: `bins` int32 counts, the histogram of every key, on every GPU;
     * scan: the shard's part of the exclusive scan of every key (uint32, wrapping);
     * sort: the GPU's part of every key, sorted (capacity total). */
    void *out[LAB6_MAX_LOCAL];
    size_t out_count[LAB6_MAX_LOCAL];  /* sort: set by the launcher, keys that GPU holds */
    size_t out_offset[LAB6_MAX_LOCAL]; /* sort: set by the launcher, where they start in the order */
    lab6_app_ws *ws;
} lab6_app_io;

typedef int (*lab6_app_fn)(lab6_app_io *io);

int lab6_histogram(lab6_app_io *io); /* v3_histogram.cu */
int lab6_scan(lab6_app_io *io);      /* v4_scan.cu */
int lab6_sort(lab6_app_io *io);      /* v5_sort.cu */

/* CUB, on the current device in `stream` (cub_ref.cu): every call of the lab that
 * needs a temporary buffer goes through these, and with temp == NULL each only sets
 * *temp_bytes (the size query and the call cannot disagree). n < 2^31 (int counts);
 * n == 0 launches nothing, except that the histogram is zeroed and the sum set to 0. */
int lab6_cub_histogram(void *temp, size_t *temp_bytes, const uint32_t *keys, size_t n, int bins, int32_t *hist,
                       cudaStream_t stream); /* HistogramEven, bins of width 1 */
int lab6_cub_sum(void *temp, size_t *temp_bytes, const uint32_t *in, size_t n, uint32_t *total,
                 cudaStream_t stream); /* DeviceReduce::Sum */
int lab6_cub_exclusive_sum(void *temp, size_t *temp_bytes, const uint32_t *in, size_t n, uint32_t *out,
                           cudaStream_t stream); /* DeviceScan::ExclusiveSum */
/* DeviceScan::ExclusiveScan seeded with *d_seed, read on the device when the scan runs. */
int lab6_cub_seeded_scan(void *temp, size_t *temp_bytes, const uint32_t *in, size_t n, const uint32_t *d_seed,
                         uint32_t *out, cudaStream_t stream);
int lab6_cub_sort(void *temp, size_t *temp_bytes, const uint32_t *in, size_t n, uint32_t *out,
                  cudaStream_t stream); /* DeviceRadixSort::SortKeys, all 32 bits */
int lab6_cub_merge(void *temp, size_t *temp_bytes, const uint32_t *a, size_t na, const uint32_t *b, size_t nb,
                   uint32_t *out, cudaStream_t stream); /* DeviceMerge::MergeKeys */

/* ---- the variant table ------------------------------------------------------------ */
typedef struct {
    kit_variant_info info;
    lab6_op op;
    lab6_reduce_fn reduce;  /* op == LAB6_ALLREDUCE */
    lab6_app_fn app;        /* otherwise */
    int needs_one_process;  /* reads other GPUs' (or the host's) copies directly */
} lab6_variant;

extern const lab6_variant lab6_variants[];
extern const int lab6_variant_count;
const char *lab6_op_name(lab6_op op);
/* The CUB routine an application runs on each GPU (and on one GPU), as the rows name
 * it: "cub-hist" (DeviceHistogram::HistogramEven), "cub-scan" (DeviceReduce::Sum and
 * DeviceScan::ExclusiveScan, or ExclusiveSum on one GPU), "cub-sortkeys"
 * (DeviceRadixSort::SortKeys; DeviceMerge::MergeKeys merges the runs). */
const char *lab6_kernel_name(lab6_op op);

/* ---- CPU reference (lab6_ref.c) ------------------------------------------------------ */
/* The input of ring position `rank`: int32 in [-2^20, 2^20], or floats k / 256 with
 * |k| <= 2^16 (every partial sum of up to 256 GPUs is exact in float). */
void lab6_fill_reduce_input(void *values, size_t n, lab6_type type, uint64_t seed, int rank);
void lab6_ref_allreduce(const void *const *inputs, int G, size_t n, lab6_type type, void *sum);

/* The applications' keys: histogram keys in [0, bins); scan values of both signs
 * (int32 in [-2^30, 2^30], sums wrap); sort keys of the named distribution. */
extern const char *const lab6_sort_dists[]; /* NULL-terminated */
void lab6_fill_keys(uint32_t *keys, size_t n, lab6_op op, const char *dist, int bins, uint64_t seed);
void lab6_ref_histogram(const uint32_t *keys, size_t n, int bins, int32_t *hist);
void lab6_ref_exclusive_scan(const uint32_t *in, size_t n, uint32_t *out);
void lab6_ref_sort(const uint32_t *keys, size_t n, uint32_t *sorted);

/* ---- problems: data, buffers, reference, one kit_case per row (lab6_problem.c) ------ */
typedef struct lab6_reduce_problem lab6_reduce_problem;
lab6_reduce_problem *lab6_reduce_create(const lab6_team *t, size_t n, lab6_type type, int chunks, uint64_t seed);
void lab6_reduce_destroy(lab6_reduce_problem *p);
/* Variant v of the table (an all-reduce). prepare poisons every output, check
 * compares every local GPU's output with the reference. */
kit_case lab6_reduce_case(lab6_reduce_problem *p, int v);
/* The ceiling: cudaMemcpyPeerAsync of the n values from GPU 1 to GPU 0 (a local copy
 * on a ring of one), timed only. */
kit_case lab6_p2p_copy_case(lab6_reduce_problem *p);
/* The memcpy row: a device-to-device copy of the n values on GPU 0. */
void lab6_reduce_copy_limit(lab6_reduce_problem *p, kit_config *cfg);
/* Overwrite one output value of local GPU 0 (the tests' proof that the check can fail). */
int lab6_reduce_corrupt(lab6_reduce_problem *p, size_t i);

typedef struct lab6_app_problem lab6_app_problem;
lab6_app_problem *lab6_app_create(const lab6_team *t, lab6_op op, size_t total, const char *dist, int bins,
                                  uint64_t seed);
void lab6_app_destroy(lab6_app_problem *p);
/* Variant v of the table (an application on every GPU; row "sort@2gpu"), or the same
 * work on one GPU when v == LAB6_ONE_GPU (row "one-gpu:cub-sortkeys"). */
#define LAB6_ONE_GPU (-1)
kit_case lab6_app_case(lab6_app_problem *p, int v);
void lab6_app_copy_limit(lab6_app_problem *p, kit_config *cfg);
/* Keys each ring position received in the last checked sort (for the tests). */
size_t lab6_app_out_count(const lab6_app_problem *p, int l);

#ifdef __cplusplus
}
#endif
#endif
