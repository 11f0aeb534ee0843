/* Step 2.0 (the baseline, complete): tree reduction in shared memory with
 * interleaved addressing, finished over the grid by recursive launches.
 *
 * Each block copies NT values into shared memory and halves them log2(NT)
 * times: at step `stride` (1, 2, 4, ...) thread t adds partial[t + stride] into
 * partial[t] when t is a multiple of 2*stride. Thread 0 writes the block's total;
 * lab2_multipass relaunches the same kernel on the block totals until one is left.
 *
 * What is slow: the test `tid % (2 * stride) == 0` picks every other thread, then
 * every fourth, ... so every warp keeps a few working lanes and still runs every
 * step: divergence inside each warp, and the `%` is an integer division. Half the
 * threads do nothing but load, even in the first step.
 * Expect: under a fifth of the memory-copy rate, bound by instructions and barriers;
 * the reference the next steps beat (lecture 2, Step 2.0's table).
 * Types: i64 only (steps 2.0-2.3 teach the block reduction; f32 and max join at 2.4). */
#include "lab2.h"
#include "lab2_ops.cuh"

enum { NT = LAB2_TREE_NT, VT = 1, NV = NT * VT }; /* one value per thread: NV values per block */

template <class Op, class In>
__global__ __launch_bounds__(NT) void reduce_interleaved(const In *__restrict__ in, size_t count,
                                                            typename Op::acc *__restrict__ out)
{
    __shared__ typename Op::acc partial[NT];
    const unsigned tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * NV + tid;
    partial[tid] = i < count ? (typename Op::acc)in[i] : Op::identity();
    __syncthreads();
    for (unsigned stride = 1; stride < NT; stride *= 2) {
        if (tid % (2 * stride) == 0)
            partial[tid] = Op::combine(partial[tid], partial[tid + stride]);
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = partial[0];
}

extern "C" int lab2_interleaved(const lab2_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return lab2_write_identity(io, stream);
    if (io->type != LAB2_I64)
        return KIT_CHECK(cudaErrorNotSupported);
    /* First pass reads int32, later passes read the int64 block totals. */
    return lab2_multipass(io, reduce_interleaved<lab2_sum_i64, int>,
                          reduce_interleaved<lab2_sum_i64, long long>, NT, NV, 0, stream);
}
