/* Step 2.6: the whole reduction in one launch.
 *
 * Every block runs the register-blocked loop of Step 2.5
 * (lab2_thread_reduce_tiles) and reduces its threads' values, exactly as before.
 * Then, instead of leaving its partial for a second launch, thread 0:
 *   1. stores the block partial in partials[blockIdx.x];
 *   2. __threadfence(): the store must be visible to the whole GPU before
 *      anything that follows (without it, another SM could see the ticket below
 *      before the partial, and add a stale value);
 *   3. takes a ticket: atomicAdd(ticket, 1u) returns how many blocks finished
 *      before it. The block that draws gridDim.x - 1 is the last one: every other
 *      partial is already stored and fenced.
 * Only thread 0 knows its ticket, but the whole last block must run the final
 * reduction (reduce_partials calls lab2_block_reduce, whose barriers and full-mask
 * shuffles every thread must reach). So thread 0 writes the test into a __shared__
 * bool and, after a __syncthreads(), every thread branches on it. (A local `bool
 * last` would be set in thread 0 only: undefined behaviour, a wrong sum or a hang.)
 * The last block (and only it) __threadfence()s again, reads all gridDim.x partials
 * with __ldcg (from L2, never a stale L1 line), reduces them, writes the result and
 * puts the ticket back to 0 for the next run. No block ever waits for another, so
 * this is safe whatever order or number of blocks the GPU runs at once. This is lab
 * 1's last-block pattern (lecture 1, "Memory ordering of the last-block pattern"),
 * but here only thread 0 writes to global memory, and a fence orders its caller's
 * own writes: thread 0's fence alone suffices, with no barrier before the ticket.
 * What it fixes: the second launch of `register-blocked` and the gap between
 * the two kernels; only the last block's short final step is added.
 * Expect: as fast as `register-blocked` at large n, faster from 2^20 to 2^24 where a
 * launch is a noticeable part of the time, and ahead of the cub row (two launches)
 * (lecture 2, Step 2.6's table).
 * Types: i64, f32, max. Tunables: LAB2_BLOCKED_NT, LAB2_BLOCKED_VT (edit them in lab2_shape.h). */
#include "lab2.h"
#include "lab2_ops.cuh"

/* VT counts 16-byte vectors here, not values (unlike Steps 2.0-2.4, hence no NV): a tile
 * is TILE_VECTORS vectors, i.e. lab2_tile_items(NT, VT, sizeof(In)) values. */
enum { NT = LAB2_BLOCKED_NT, VT = LAB2_BLOCKED_VT, TILE_VECTORS = NT * VT };

/* The last block: reduce the `blocks` block partials (read from L2 with __ldcg,
 * never from a stale L1 line), four loads in flight per thread: each trip of the
 * loop loads partials i, i + NT, i + 2*NT and i + 3*NT (the identity for an index
 * >= blocks) before combining any, then i += 4*NT. Then lab2_block_reduce. Every
 * thread of the block must call it; the result is valid in thread 0. */
template <class Op>
__device__ __forceinline__ typename Op::acc reduce_partials(const typename Op::acc *partials, unsigned blocks)
{
    // BEGIN SOLUTION (Step 2.6): from i = threadIdx.x in steps of 4*NT: four __ldcg loads (i, i+NT, i+2NT, i+3NT; identity past blocks), then combine them into x; finally lab2_block_reduce<Op, NT>(x)
    typedef typename Op::acc acc;
    acc x = Op::identity();
    for (unsigned i = threadIdx.x; i < blocks; i += 4 * NT) {
        acc a = __ldcg(&partials[i]);
        acc b = i + NT < blocks ? __ldcg(&partials[i + NT]) : Op::identity();
        acc c = i + 2 * NT < blocks ? __ldcg(&partials[i + 2 * NT]) : Op::identity();
        acc d = i + 3 * NT < blocks ? __ldcg(&partials[i + 3 * NT]) : Op::identity();
        x = Op::combine(x, Op::combine(Op::combine(a, b), Op::combine(c, d)));
    }
    return lab2_block_reduce<Op, NT>(x);
    // STUB: (void)partials;
    // STUB: (void)blocks;
    // STUB: return Op::identity();
    // END SOLUTION
}

template <class Op, class In>
__global__ __launch_bounds__(NT) void reduce_single_pass(const In *__restrict__ in, size_t count,
                                                         typename Op::acc *partials, unsigned int *ticket,
                                                         typename Op::acc *__restrict__ out)
{
    // BEGIN SOLUTION (Step 2.6): this block's value x: lab2_thread_reduce_tiles<Op, NT, VT> then lab2_block_reduce<Op, NT>, as in register-blocked
    typename Op::acc x = lab2_thread_reduce_tiles<Op, NT, VT>(in, count);
    x = lab2_block_reduce<Op, NT>(x);
    // END SOLUTION

    // BEGIN SOLUTION (Step 2.6): a __shared__ bool flag; thread 0 stores x in partials[blockIdx.x], __threadfence(), sets the flag to atomicAdd(ticket, 1u) == gridDim.x - 1; then __syncthreads() so every thread sees the flag (a local bool would be set in thread 0 only)
    __shared__ bool last_block;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = x;
        __threadfence(); /* release: the partial is visible GPU-wide before the ticket */
        last_block = atomicAdd(ticket, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    // END SOLUTION

    // BEGIN SOLUTION (Step 2.6): every block but the last returns (the flag is the same in all its threads); the last: __threadfence(), reduce_partials<Op>(partials, gridDim.x) in every thread, then thread 0 writes *out and sets *ticket = 0
    if (!last_block)
        return; /* uniform over the block: the barriers below see every thread */
    __threadfence(); /* acquire: read the partials only after seeing the ticket */
    x = reduce_partials<Op>(partials, gridDim.x);
    if (threadIdx.x == 0) {
        *out = x;
        *ticket = 0; /* every block has drawn its ticket: ready for the next launch */
    }
    // END SOLUTION
}

template <class Op, class In>
static int run_single_pass(const lab2_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 2.6): one launch of reduce_single_pass<Op, In>: blocks = lab2_pass_blocks(io->n, lab2_tile_items(NT, VT, sizeof(In)), io->max_blocks); refuse more than io->ws.capacity (or 0x7fffffff) blocks with KIT_CHECK(cudaErrorInvalidValue), as lab2_multipass does; partials (Op::acc *)io->ws.partials[0], ticket io->ws.ticket; return KIT_LAUNCH_CHECK()
    typedef typename Op::acc acc;
    size_t blocks = lab2_pass_blocks(io->n, lab2_tile_items(NT, VT, sizeof(In)), io->max_blocks);
    if (blocks > io->ws.capacity || blocks > 0x7fffffffu)
        return KIT_CHECK(cudaErrorInvalidValue); /* more partials than the workspace holds */
    reduce_single_pass<Op, In><<<(unsigned)blocks, NT, 0, stream>>>(
        (const In *)io->in, io->n, (acc *)io->ws.partials[0], io->ws.ticket, (acc *)io->out);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io;
    // STUB: (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab2_single_pass(const lab2_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return lab2_write_identity(io, stream);
    if ((uintptr_t)io->in % 16)
        return KIT_CHECK(cudaErrorMisalignedAddress); /* int4 loads need 16-byte alignment */
    switch (io->type) {
    case LAB2_I64: return run_single_pass<lab2_sum_i64, int>(io, stream);
    case LAB2_F32: return run_single_pass<lab2_sum_f32, float>(io, stream);
    case LAB2_MAX: return run_single_pass<lab2_max_i32, int>(io, stream);
    }
    return KIT_CHECK(cudaErrorInvalidValue);
}

/* Called once per problem, outside timing: the grid that fills the GPU. */
extern "C" size_t lab2_single_pass_grid(lab2_type type)
{
    switch (type) {
    case LAB2_I64: return lab2_occupancy_grid((const void *)reduce_single_pass<lab2_sum_i64, int>, NT);
    case LAB2_F32: return lab2_occupancy_grid((const void *)reduce_single_pass<lab2_sum_f32, float>, NT);
    case LAB2_MAX: return lab2_occupancy_grid((const void *)reduce_single_pass<lab2_max_i32, int>, NT);
    }
    return 0;
}
