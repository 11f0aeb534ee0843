/* Step 2.6: the whole reduction in one launch.
 *
 * Every block runs the register-blocked loop of Step 2.5
 * (lab2_thread_reduce_tiles) and reduces its threads' values, exactly as before.
 * Then, instead of leaving its partial for a second launch, thread 0:
 *   1. stores the block partial in partials[blockIdx.x];
 *   2. __threadfence(): the store must be visible to the whole GPU before
 *      anything that follows (without it, another SM could see the ticket below
 *      before the partial, and add a stale value);
 *   3. takes a ticket: atomicAdd(ticket, 1) returns how many blocks finished
 *      before it. The block that draws gridDim.x - 1 is the last one: every other
 *      partial is already stored and fenced.
 * The last block (and only it) reads all gridDim.x partials (with __ldcg, from
 * L2, never from a stale L1 line), reduces them, writes the result and puts the
 * ticket back to 0 for the next run. No block ever waits for another, so this
 * is safe whatever order or number of blocks the GPU runs at once. (This "last
 * block finishes" pattern and its two fences are the same as in lab1's Step 1.5:
 * lectures/01-atomics.md explains the memory ordering.)
 * What it fixes: the second launch of `register-blocked` and the gap between
 * the two kernels; only the last block's short final step is added.
 * Expect: as fast as `register-blocked` at large n, faster at medium n (2^20 to
 * 2^24) where a launch costs a noticeable fraction of the time; the target is
 * the cub row (two launches) at 2^24 and 2^28.
 * Types: i64, f32, max. Tunables: LAB2_BLOCKED_NT, LAB2_BLOCKED_VT (lab2.h). */
#include "lab2.h"
#include "lab2_ops.cuh"

enum { NT = LAB2_BLOCKED_NT, VT = LAB2_BLOCKED_VT, NV = NT * VT }; /* NV 16-byte vectors per tile */

/* The last block: reduce the gridDim.x block partials (read from L2 with __ldcg,
 * never from a stale L1 line), four loads in flight per thread. Valid in thread 0. */
template <class Op>
__device__ __forceinline__ typename Op::acc reduce_partials(const typename Op::acc *partials, unsigned blocks)
{
    // TODO(Step 2.6): each thread combines partials threadIdx.x, + NT, ... (__ldcg; several loads in flight), then lab2_block_reduce (about 10 lines)
    (void)partials;
    (void)blocks;
    return Op::identity();
}

template <class Op, class In>
__global__ __launch_bounds__(NT) void reduce_single_pass(const In *__restrict__ in, size_t count,
                                                         typename Op::acc *partials, unsigned int *ticket,
                                                         typename Op::acc *__restrict__ out)
{
    // TODO(Step 2.6): lab2_thread_reduce_tiles and lab2_block_reduce as in register-blocked; thread 0 stores the partial, fences, takes a ticket; the last block fences, reduce_partials, writes out and resets the ticket (about 17 lines)
}

template <class Op, class In>
static int run_single_pass(const lab2_io *io, cudaStream_t stream)
{
    // TODO(Step 2.6): one launch: blocks as in register-blocked (capped by io->max_blocks), partials in io->ws.partials[0], ticket io->ws.ticket (about 7 lines)
    (void)io;
    (void)stream;
    return KIT_TODO;
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
