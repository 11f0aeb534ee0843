/* Step 1.1: scatter-add with a double addition built from atomicCAS, the way it
 * had to be written before GPUs had native double atomics (and still is for types
 * without a native atomic).
 *
 * The loop reads the bin, computes old + v, and swaps the result in only if the
 * bin still holds what was read (compared as 64-bit patterns, so even a NaN bin
 * cannot loop forever). When several lanes of one warp hit the same bin, one CAS
 * per round succeeds and the others go around again: a warp with all 32 lanes on
 * one bin runs the loop 32 times, and every lane waits for the slowest. That
 * divergence is what the seed's warp aggregation removes.
 * Expect: close to global-atomic for uniform keys over many bins; many times slower
 * as the keys of a warp collide (kwarp:1, single). */
#include "lab1.h"
#include "lab1_value.cuh"

#define CAS_NT 256

__device__ __forceinline__ void atomic_add_by_cas(double *address, double v)
{
    // BEGIN SOLUTION (Step 1.1): read the bin's 64-bit pattern, then loop: atomicCAS(pattern, old, __double_as_longlong(__longlong_as_double(old) + v)) until it returns the pattern you assumed
    unsigned long long *bits = (unsigned long long *)address;
    unsigned long long seen = *bits, assumed;
    do {
        assumed = seen;
        seen = atomicCAS(bits, assumed, __double_as_longlong(__longlong_as_double(assumed) + v));
    } while (seen != assumed);
    // END SOLUTION
}

__global__ void scatter_add_cas(const int *__restrict__ keys, const double *__restrict__ values,
                                size_t n, double *sums)
{
    size_t i = (size_t)blockIdx.x * CAS_NT + threadIdx.x;
    if (i < n)
        atomic_add_by_cas(&sums[keys[i]], values[i]);
}

extern "C" int lab1_cas_loop_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.1): zero the sums (lab1_zero_bins), then one thread per element (nothing to launch for n == 0)
    if (int err = lab1_zero_bins<double>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    scatter_add_cas<<<kit_div_up(io->n, CAS_NT), CAS_NT, 0, stream>>>(io->keys, io->values, io->n,
                                                                       io->sums);
    return KIT_LAUNCH_CHECK();
    // STUB: return KIT_TODO;
    // END SOLUTION
}
