/* Step 1.0 (worked example): one atomicAdd per element, straight into the bins in
 * global memory.
 *
 * What it shows: the simplest correct parallel histogram. Every thread reads one
 * key and adds into its bin; the atomics are done by the L2 cache, so the cost
 * depends on how many atomics land on the same address at once, across the whole
 * GPU. One kernel template serves both operations (lab1_value.cuh): T = int adds
 * 1 into a count, T = double adds values[i] into a sum. Every later step has the
 * same shape: a kernel template, launch<T>, and one extern "C" launcher per op.
 * It is also the oracle every other variant is checked against (besides the CPU).
 * What is slow: one atomic per element, and thousands of warps adding into the
 * same few bins wait for each other; the lanes of one warp on one address cost
 * little more than 32 different addresses.
 * Expect: milliseconds at 2^24 keys over 256 bins, about three times longer when
 * every key is the same (lecture 1, Step 1.0's table). */
#include "lab1.h"
#include "lab1_value.cuh"

enum { NT = LAB1_NT };

template <typename T>
__global__ void add_global(const int *__restrict__ keys, const double *__restrict__ values, size_t n,
                           T *out)
{
    size_t i = (size_t)blockIdx.x * NT + threadIdx.x; /* 64-bit: n may pass 2^31 */
    if (i < n)
        atomicAdd(&out[keys[i]], lab1_weight<T>(values, i)); /* double: native since sm_60 */
}

template <typename T> static int launch(const lab1_io *io, cudaStream_t stream)
{
    if (int err = lab1_zero_bins<T>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    add_global<T><<<kit_div_up(io->n, NT), NT, 0, stream>>>(io->keys, io->values, io->n, lab1_bins_of(io, (T *)0));
    return KIT_LAUNCH_CHECK();
}

extern "C" int lab1_global_atomic_histogram(const lab1_io *io, cudaStream_t stream)
{
    return launch<int>(io, stream);
}

extern "C" int lab1_global_atomic_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    return launch<double>(io, stream);
}
