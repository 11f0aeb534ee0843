/* lab2.h: reduction. The lab's C API: what every variant computes, its launcher
 * signature, the variant table, the CPU reference and the "problem" (data +
 * reference + device buffers) shared by the driver and the GPU tests. */
#ifndef LAB2_H
#define LAB2_H

#include "kit.h"
#include "lab2_shape.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What is reduced (the "type" column of the table and the CSV):
 *   LAB2_I64: int32 values summed into an int64 (exact: no overflow up to 2^32 values);
 *   LAB2_F32: float values summed into a float (values on a power-of-two grid chosen so
 *             that the float sum is exact: see lab2_f32_grid);
 *   LAB2_MAX: the maximum of int32 values (a second operator with another identity). */
typedef enum { LAB2_I64 = 0, LAB2_F32 = 1, LAB2_MAX = 2 } lab2_type;
#define LAB2_TYPE_COUNT 3
#define LAB2_TYPE_BIT(t) (1u << (t))
#define LAB2_ALL_TYPES (LAB2_TYPE_BIT(LAB2_I64) | LAB2_TYPE_BIT(LAB2_F32) | LAB2_TYPE_BIT(LAB2_MAX))

/* The largest n the lab takes: 16 GiB of input, and an int64 sum of up to 2^32 values
 * of magnitude <= 2^30 cannot overflow. */
#define LAB2_MAX_N ((size_t)1 << 32)

/* "i64", "f32", "max". */
const char *lab2_type_name(lab2_type t);
/* 0 and *t set for a known name, -1 otherwise. */
int lab2_type_parse(const char *name, lab2_type *t);
/* Bytes of the result (and of every block partial): 8 for i64, 4 otherwise. */
size_t lab2_result_bytes(lab2_type t);

/* Scratch memory, allocated with the problem (never inside a timed launcher). */
typedef struct {
    void *partials[2];     /* ping-pong buffers of block partials, `capacity` results each;
                              a result is an Op::acc (int64 for i64, float for f32, int32
                              for max): cast to (Op::acc *). Single-pass uses partials[0]
                              and, like lab2_multipass, must refuse (cudaErrorInvalidValue)
                              a grid of more than `capacity` blocks */
    size_t capacity;       /* lab2_partials_capacity(n) */
    unsigned int *ticket;  /* single-pass: blocks finished so far; 0 between runs */
    void *cub_temp;        /* temporary storage of the cub row */
    size_t cub_temp_bytes;
} lab2_workspace;

typedef struct {
    lab2_type type;
    const void *in;    /* n values: int32 for i64 and max, float for f32; 16-byte aligned */
    size_t n;
    void *out;         /* one result: int64 for i64, float for f32, int32 for max */
    size_t max_blocks; /* grid-stride variants: blocks per launch (default: resident blocks
                          per SM x SMs, from the occupancy API); ignored by the others */
    lab2_workspace ws;
} lab2_io;

/* Launchers take device pointers and return 0, a CUDA error or KIT_TODO. Empty
 * input (n == 0): they store the identity (0, 0.0f, INT_MIN) in out. */
typedef int (*lab2_fn)(const lab2_io *io, cudaStream_t stream);
/* Blocks of a grid-stride variant that fill the GPU for this type: resident
 * blocks per SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor) x SMs; 0 on error. */
typedef size_t (*lab2_grid_fn)(lab2_type type);

typedef struct {
    kit_variant_info info;
    unsigned types;    /* LAB2_TYPE_BIT of every type this variant supports */
    lab2_fn run;
    lab2_grid_fn grid; /* NULL when the grid simply follows n */
} lab2_variant;

extern const lab2_variant lab2_variants[];
extern const int lab2_variant_count;

/* Launchers (one file each), then the library reference row (cub_ref.cu). */
int lab2_interleaved(const lab2_io *io, cudaStream_t stream);
int lab2_strided_index(const lab2_io *io, cudaStream_t stream);
int lab2_sequential(const lab2_io *io, cudaStream_t stream);
int lab2_first_add(const lab2_io *io, cudaStream_t stream);
int lab2_warp_shuffle(const lab2_io *io, cudaStream_t stream);
int lab2_register_blocked(const lab2_io *io, cudaStream_t stream);
size_t lab2_register_blocked_grid(lab2_type type);
int lab2_single_pass(const lab2_io *io, cudaStream_t stream);
size_t lab2_single_pass_grid(lab2_type type);
int lab2_cub(const lab2_io *io, cudaStream_t stream);
/* Temporary bytes cub needs for n values of this type; 0 with a message on error. */
size_t lab2_cub_temp_bytes(lab2_type type, size_t n);

/* Shared host helpers of the variants (lab2_finish.cu). */
/* Store the identity of io->type in io->out (the result of an empty input). */
int lab2_write_identity(const lab2_io *io, cudaStream_t stream);
/* lab2_multipass, the recursive multi-launch scheme, is a template: lab2_ops.cuh. */
/* The blocks of `kernel` at `threads` threads (no dynamic shared memory) that the
 * current device holds at once (kit_resident_blocks) as a grid size; 0 on error. */
size_t lab2_occupancy_grid(const void *kernel, int threads);

/* CPU reference (lab2_ref.c), written independently of the kernels. */
int64_t lab2_ref_sum_i64(const int32_t *in, size_t n);
/* Compensated (Kahan-Babuska-Neumaier) sum in double: exact for the lab's f32 data. */
double lab2_ref_sum_f32(const float *in, size_t n);
int32_t lab2_ref_max_i32(const int32_t *in, size_t n); /* INT32_MIN for n = 0 */

/* The f32 data: x = m / M, m a random NONZERO integer in [-M, M], M = lab2_f32_grid(n)
 * a power of two (so every x is a float in [-1, 1]). A sum of such values is a
 * multiple of 1/M, and a float holds every multiple of 1/M up to 2^24/M exactly: as
 * long as no partial sum leaves that range, every addition is exact and the GPU must
 * return the exact sum, bit for bit, in whatever order it adds. M is chosen so that
 *   - for n <= 256: n * M <= 2^24, so no partial sum of ANY order can leave the range;
 *   - for larger n: n * M^2 <= 2^40. A reduction adds in an order fixed without looking
 *     at the values; each of its n - 1 partial sums then sums values of random sign,
 *     and by Hoeffding's inequality leaves +-2^24/M with probability at most
 *     2 exp(-2^47 / (n M^2)) <= 2 e^-128: all of them stay inside with probability
 *     above 1 - 2^-150 for every n up to LAB2_MAX_N.
 * So the f32 check is exact (no tolerance), and one lost value, never 0, always shows.
 * M is at most 2^20 (n = 1) and at least 2^4 (n = 2^32). */
uint32_t lab2_f32_grid(size_t n);
void lab2_fill_f32(float *a, size_t n, uint64_t seed);
/* 0 when the GPU's float sum equals the exact sum; otherwise 1 and a message. */
int lab2_check_f32(float got, double exact, size_t n, char *msg, size_t len);

/* The problem: host data, device buffers and workspace, one kit_case per variant. */
typedef struct lab2_problem lab2_problem;
/* Data: int32 uniform in [-2^30, 2^30] (i64, max) or lab2_fill_f32 (f32). */
#define LAB2_INT_RANGE (1 << 30)
lab2_problem *lab2_problem_create(size_t n, lab2_type type, uint64_t seed);
void lab2_problem_destroy(lab2_problem *p);
int lab2_variant_supports(int v, lab2_type type);
/* The case for variant v (0 .. lab2_variant_count - 1) with `blocks` as the
 * grid cap of grid-stride variants (0: the occupancy default; a cap above the
 * number of tiles gives one block per tile). prepare poisons the
 * result and the partials (not the ticket); check compares with the reference;
 * bytes counts the 4n input bytes read. The case stays valid until the next
 * lab2_problem_case call for the same v, or destroy. */
kit_case lab2_problem_case(lab2_problem *p, int v, size_t blocks);
/* The cub row, judged the same way. */
kit_case lab2_problem_cub_case(lab2_problem *p);
/* The default grid of variant v on this problem (0 for variants sized to n). */
size_t lab2_problem_grid(const lab2_problem *p, int v);
/* The memcpy row: a device-to-device copy of the 4n input bytes (allocates the
 * destination on first use). */
void lab2_problem_copy_limit(lab2_problem *p, kit_config *cfg);
/* Device bytes a problem of n values needs (with_copy: plus the memcpy destination). */
size_t lab2_device_bytes(size_t n, int with_copy);

#ifdef __cplusplus
}
#endif
#endif
