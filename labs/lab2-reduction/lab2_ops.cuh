/* lab2_ops.cuh: what the lab2 kernels share.
 *
 * A reduction needs an associative operator with an identity (a value that
 * changes nothing: x + 0 = x, max(x, INT_MIN) = x) and an accumulator type wide
 * enough for the result. Each operator below bundles the three; a kernel written
 * once as a template over the operator serves all of them. Idle threads and
 * out-of-range slots hold the identity, so no tail needs a special case.
 *
 * Also here: the warp and block reductions with shuffles (Step 2.4), and the
 * register-blocked loop over 16-byte vectors (Step 2.5) that register-blocked and
 * single-pass share. */
#ifndef LAB2_OPS_CUH
#define LAB2_OPS_CUH

#include <climits>

#include "kit_cuda.cuh"
#include "lab2.h"

/* int32 values summed in 64 bits: exact, never overflows for n < 2^32. */
struct lab2_sum_i64 {
    typedef long long acc;
    static __device__ __forceinline__ acc identity() { return 0; }
    static __device__ __forceinline__ acc combine(acc a, acc b) { return a + b; }
};

/* float sum: each combine rounds, so the result depends on the order. */
struct lab2_sum_f32 {
    typedef float acc;
    static __device__ __forceinline__ acc identity() { return 0.0f; }
    static __device__ __forceinline__ acc combine(acc a, acc b) { return a + b; }
};

/* int32 maximum. */
struct lab2_max_i32 {
    typedef int acc;
    static __device__ __forceinline__ acc identity() { return INT_MIN; }
    static __device__ __forceinline__ acc combine(acc a, acc b) { return max(a, b); }
};

/* One 16-byte load seen as the values it holds (4 int/float or 2 long long). */
template <class T>
union lab2_vec {
    int4 raw;
    T item[16 / sizeof(T)];
};

/* Sum (or max...) of x over the 32 lanes of a warp, valid in lane 0.
 * Every lane of the warp must call it (full mask): callers keep idle lanes
 * active with the identity instead of branching around the call. */
template <class Op>
__device__ __forceinline__ typename Op::acc lab2_warp_reduce(typename Op::acc x)
{
    // TODO(Step 2.4): five __shfl_down_sync steps (offsets 16, 8, 4, 2, 1), combining with Op::combine (about 4 lines)
    return x;
}

/* Reduction of x over the NT threads of a block, valid in thread 0 only (the other
 * threads get partial values). Every thread of the block must call it: never inside
 * a branch that only some threads of the block take. Safe to call several times in a
 * row in one kernel. */
template <class Op, int NT>
__device__ __forceinline__ typename Op::acc lab2_block_reduce(typename Op::acc x)
{
    static_assert(NT % 32 == 0 && NT <= 1024, "whole warps, at most 32 of them");
    // TODO(Step 2.4): barrier first; reduce each warp, lane 0 stores its warp total in shared memory, barrier; warp 0 reduces the NT/32 totals (lanes past the last warp take Op::identity(), not warp_total[lane]: the array has only NT/32 entries) (about 12 lines)
    return x;
}

/* Step 2.5: this thread's share of in[0, count), combined into one value. The
 * input is read as 16-byte vectors in tiles of NT threads x VT vectors, dealt to
 * the blocks round-robin (tile blockIdx.x, then + gridDim.x, ...: a grid-stride
 * loop). In each tile a thread issues its VT loads back to back into registers and
 * only then combines them, so VT independent 16-byte loads per thread are in flight
 * at once. The vectors after the last whole tile, then the count % per_vector
 * values after the last whole vector, are spread over every thread of the grid
 * (thread blockIdx.x * NT + threadIdx.x of gridDim.x * NT). lab2_shape.h has the
 * index math: lab2_per_vector, lab2_full_tiles, lab2_tile_vector. The CPU suite
 * (lab2_shape.register_blocked_reads_every_value_once) runs its own host copy of
 * this loop, built from those functions, and checks that it reads every value
 * exactly once; it cannot run YOUR loop (device code): only the GPU suite does.
 * The kernel must run NT threads per block; in must be 16-byte aligned. */
template <class Op, int NT, int VT, class In>
__device__ __forceinline__ typename Op::acc lab2_thread_reduce_tiles(const In *__restrict__ in, size_t count)
{
    // TODO(Step 2.5): grid-stride loop over whole tiles (VT int4 loads into a lab2_vec<In> array, then combine every item), then the leftover vectors, then the leftover values (about 28 lines)
    (void)in;
    (void)count;
    return Op::identity();
}

/* The recursive scheme of the lecture: a block can only combine what its own
 * threads hold, and blocks cannot wait for each other inside a kernel, so a launch
 * turns n values into one partial per block, and the next launch reduces those
 * partials, until one block is left. Each pass is a kernel boundary: the partials
 * written by one launch are visible to the next. `first` runs over the n inputs
 * with lab2_pass_blocks(n, items_per_block, max_blocks) blocks of `threads`, then
 * `rest` over the block partials (ping-pong between the two workspace buffers)
 * until a pass has one block; that block writes io->out. out[b] is block b's
 * result. Refuses (cudaErrorInvalidValue) a first pass of more blocks than the
 * workspace holds. */
template <class In, class Acc>
static int lab2_multipass(const lab2_io *io, void (*first)(const In *, size_t, Acc *),
                          void (*rest)(const Acc *, size_t, Acc *), unsigned threads, size_t items_per_block,
                          size_t max_blocks, cudaStream_t stream)
{
    if (io->n == 0)
        return lab2_write_identity(io, stream);
    if (items_per_block < 2)
        return KIT_CHECK(cudaErrorInvalidValue); /* the passes would never shrink */
    size_t count = io->n;
    size_t blocks = lab2_pass_blocks(count, items_per_block, max_blocks);
    if (blocks > io->ws.capacity || blocks > 0x7fffffffu)
        return KIT_CHECK(cudaErrorInvalidValue); /* the workspace is for a smaller problem */
    Acc *dst = blocks == 1 ? (Acc *)io->out : (Acc *)io->ws.partials[0];
    first<<<(unsigned)blocks, threads, 0, stream>>>((const In *)io->in, count, dst);
    if (int err = KIT_LAUNCH_CHECK())
        return err;
    int next = 1;
    while (blocks > 1) {
        const Acc *src = dst;
        count = blocks;
        blocks = lab2_pass_blocks(count, items_per_block, max_blocks);
        dst = blocks == 1 ? (Acc *)io->out : (Acc *)io->ws.partials[next]; /* never the buffer being read */
        next ^= 1;
        rest<<<(unsigned)blocks, threads, 0, stream>>>(src, count, dst);
        if (int err = KIT_LAUNCH_CHECK())
            return err;
    }
    return 0;
}

#endif
