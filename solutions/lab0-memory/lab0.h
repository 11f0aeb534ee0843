/* lab0.h: memory access patterns and divergence. The lab's C API: what every
 * variant computes, its launcher signature, the variant table, the CPU reference
 * and the "problem" (data + reference + device buffers) shared by the driver and
 * the GPU tests. */
#ifndef LAB0_H
#define LAB0_H

#include "kit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The data: n float3 records, i.e. 3n floats, stored twice:
 *   AoS: in[3i], in[3i+1], in[3i+2] are record i's x, y, z;
 *   SoA: in_soa[i], in_soa[n+i], in_soa[2n+i] are its x, y, z.
 * `in` has LAB0_PAD extra floats at the end so the `offset` variant may start late. */
#define LAB0_PAD 32
#define LAB0_MAX_STRIDE 32
/* Launch shapes, the one place to change them. Steps 0.1-0.5 (the float3 layouts,
 * stride and offset): threads per block, one record or value each. */
#define LAB0_NT 256
/* The divergence variants must run with this many threads per block so that
 * threadIdx.x and the global index agree on parity and on warp parity. */
#define LAB0_BRANCH_NT 256
/* The copy's tile (v0): NT threads x VT int4 each, so NT * VT int4 = 4096 floats per
 * block. The tests cross it. */
#define LAB0_COPY_NT 256
#define LAB0_COPY_VT 4
/* Records a run may have: 3n floats pass 2^32, so 32-bit indices fail. */
#define LAB0_MAX_N ((size_t)1 << 31)
/* Iterations of each branch's integer mixing loop: enough to make the kernel
 * compute-bound, so divergence, not memory, decides its time. */
#define LAB0_BRANCH_ITERS 32

typedef struct {
    size_t n;              /* float3 records */
    const float *in;       /* 3n + LAB0_PAD floats, AoS */
    float *out;            /* 3n floats */
    const float *in_soa;   /* 3n floats, SoA */
    float *out_soa;        /* 3n floats */
    int stride;            /* `stride`: out[j] = in[j * stride] */
    int offset;            /* `offset`: out[j] = in[j + offset] */
} lab0_io;

typedef int (*lab0_fn)(const lab0_io *io, cudaStream_t stream);

/* What a variant computes, so one reference and one byte count serve several. */
typedef enum {
    LAB0_COPY,        /* out = in (3n floats) */
    LAB0_ADD_AOS,     /* out = in + 2, AoS buffers */
    LAB0_ADD_SOA,     /* out_soa = in_soa + 2 */
    LAB0_STRIDED,     /* out[j] = in[j * stride], j < ceil(3n / stride) */
    LAB0_OFFSET,      /* out[j] = in[j + offset], j < 3n */
    LAB0_BRANCH_ODD,  /* out word i = (i % 2 ? mix_a : mix_b)(in word i) */
    LAB0_BRANCH_WARP  /* out word i = ((i / 32) % 2 ? mix_a : mix_b)(in word i) */
} lab0_op;

typedef struct {
    kit_variant_info info;
    lab0_op op;
    lab0_fn run;
} lab0_variant;

extern const lab0_variant lab0_variants[];
extern const int lab0_variant_count;

/* Launchers (one file each). */
int lab0_copy(const lab0_io *io, cudaStream_t stream);
int lab0_float3_aos(const lab0_io *io, cudaStream_t stream);
int lab0_float3_smem(const lab0_io *io, cudaStream_t stream);
int lab0_float3_soa(const lab0_io *io, cudaStream_t stream);
int lab0_stride(const lab0_io *io, cudaStream_t stream);
int lab0_offset(const lab0_io *io, cudaStream_t stream);
int lab0_divergent(const lab0_io *io, cudaStream_t stream);
int lab0_warp_uniform(const lab0_io *io, cudaStream_t stream);

/* CPU reference (lab0_ref.c). */
void lab0_ref_add_two(const float *in, float *out, size_t count);
size_t lab0_strided_count(size_t words, int stride);
void lab0_ref_strided(const float *in, float *out, size_t words, int stride);
uint32_t lab0_ref_mix_a(uint32_t x);
uint32_t lab0_ref_mix_b(uint32_t x);
/* group = 1: branch on i % 2; group = 32: branch on (i / 32) % 2. */
void lab0_ref_branch(const uint32_t *in, uint32_t *out, size_t words, int group);

/* The problem: host data, device buffers, and one kit_case per variant. */
typedef struct lab0_problem lab0_problem;
lab0_problem *lab0_problem_create(size_t n, uint64_t seed, int stride, int offset);
void lab0_problem_destroy(lab0_problem *p);
/* The case for variant v: prepare poisons the outputs, check compares with the
 * CPU reference; bytes counts the useful bytes read and written. */
kit_case lab0_problem_case(lab0_problem *p, int v);
/* The memcpy row: copy the 3n input floats to the output, device to device. */
void lab0_problem_copy_limit(lab0_problem *p, kit_config *cfg);
/* Device bytes a problem of n records needs. */
size_t lab0_device_bytes(size_t n);

#ifdef __cplusplus
}
#endif
#endif
