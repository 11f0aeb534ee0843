/* Step 2.1: the same interleaved pairs, but the first threads of the block do
 * the work: thread t handles the pair that starts at index 2*stride*t.
 *
 * What it fixes: at each step the working threads are t = 0, 1, 2, ... so whole
 * warps are either all busy or all idle (divergence only once fewer than 32 pairs
 * are left), and there is no `%` any more.
 * What is still slow: shared-memory bank conflicts. Thread t touches word
 * 2*stride*t: the 32 lanes of a warp hit addresses 2*stride words apart, so the
 * doubling stride folds them onto fewer and fewer of the 32 banks (the partials
 * here are 8-byte int64: lane t's word starts at byte 16*stride*t, so neighbouring
 * lanes are 16*stride bytes apart), and the accesses of a warp are served one
 * conflicting group after the other.
 * Expect: SLOWER than `interleaved` on a recent GPU, whose compiler predicated the
 * baseline's branch, so there was no divergence to win and the conflicts are pure
 * cost; `ncu` counts them (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum).
 * A fix that won on older GPUs can lose on a new one: measure it (lecture 2, Step
 * 2.1's table).
 * Types: i64 only. */
#include "lab2.h"
#include "lab2_ops.cuh"

enum { NT = LAB2_TREE_NT, VT = 1, NV = NT * VT }; /* one value per thread: NV values per block */

template <class Op, class In>
__global__ __launch_bounds__(NT) void reduce_strided_index(const In *__restrict__ in, size_t count,
                                                              typename Op::acc *__restrict__ out)
{
    // TODO(Step 2.1): as interleaved, but thread tid combines partial[2*stride*tid] and the value stride further (about 13 lines)
}

extern "C" int lab2_strided_index(const lab2_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return lab2_write_identity(io, stream);
    if (io->type != LAB2_I64)
        return KIT_CHECK(cudaErrorNotSupported);
    // TODO(Step 2.1): finish the grid with lab2_multipass, one block of NT threads per NV values (see v0) (about 2 lines)
    return KIT_TODO;
}
