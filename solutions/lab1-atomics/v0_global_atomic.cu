/* Step 1.0 (worked example): one atomicAdd per element, straight into the bins in
 * global memory.
 *
 * What it shows: the simplest correct parallel histogram. Every thread reads one
 * key and adds into its bin; the atomics are done by the L2 cache, so the cost
 * depends on how many threads hit the same bin at once: with 256 bins and uniform
 * keys they spread out; with `single` or `kwarp:1` every lane of a warp hits one
 * address and the L2 has to apply the additions one after another.
 * Expect: fast for uniform keys over many bins, much slower as the keys collide.
 * This is the oracle every other variant is checked against (besides the CPU). */
#include "lab1.h"
#include "lab1_value.cuh"

#define GLOBAL_NT 256

__global__ void histogram_global(const int *__restrict__ keys, size_t n, int *counts)
{
    size_t i = (size_t)blockIdx.x * GLOBAL_NT + threadIdx.x;
    if (i < n)
        atomicAdd(&counts[keys[i]], 1);
}

__global__ void scatter_add_global(const int *__restrict__ keys, const double *__restrict__ values,
                                   size_t n, double *sums)
{
    size_t i = (size_t)blockIdx.x * GLOBAL_NT + threadIdx.x;
    if (i < n)
        atomicAdd(&sums[keys[i]], values[i]); /* native double atomics since sm_60 */
}

extern "C" int lab1_global_atomic_histogram(const lab1_io *io, cudaStream_t stream)
{
    if (int err = lab1_zero_bins<int>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    histogram_global<<<kit_div_up(io->n, GLOBAL_NT), GLOBAL_NT, 0, stream>>>(io->keys, io->n, io->counts);
    return KIT_LAUNCH_CHECK();
}

extern "C" int lab1_global_atomic_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    if (int err = lab1_zero_bins<double>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    scatter_add_global<<<kit_div_up(io->n, GLOBAL_NT), GLOBAL_NT, 0, stream>>>(io->keys, io->values,
                                                                                io->n, io->sums);
    return KIT_LAUNCH_CHECK();
}
