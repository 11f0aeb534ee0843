/* Step 1.1: scatter-add with a double addition built from atomicCAS, the way it
 * had to be written before GPUs had native double atomics (and still is for types
 * without a native atomic).
 *
 * The loop reads the bin, computes old + v, and swaps the result in only if the
 * bin still holds what was read (compared as 64-bit patterns, so even a NaN bin
 * cannot loop forever). When several lanes of one warp hit the same bin, one CAS
 * per round succeeds and the others go around again: a warp with all 32 lanes on
 * one bin runs the loop 32 times, and every lane waits for the slowest. That
 * divergence is what Westphal's warp aggregation (Steps 1.3, 1.4) removes. Across
 * the GPU it is worse: every resident thread whose key is a hot bin retries on that
 * one address, so one success costs as many CAS operations as there are contenders
 * (lecture 1, Step 1.1, "The CAS loop under skew"). Even without collisions every
 * trip waits for the CAS's answer from L2, where a native atomic need not wait.
 * Expect: tens of times slower than global-atomic's native double atomicAdd, more
 * with one key per warp than with 32; on skewed keys (zipf, single) the time per
 * element grows with n, so keep n small there (lecture 1, Step 1.1 and Figure 1.3). */
#include "lab1.h"
#include "lab1_value.cuh"

enum { NT = LAB1_NT };

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
    size_t i = (size_t)blockIdx.x * NT + threadIdx.x;
    if (i < n)
        atomic_add_by_cas(&sums[keys[i]], values[i]);
}

extern "C" int lab1_cas_loop_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.1): zero the sums (lab1_zero_bins<double>), then one thread per element (nothing to launch for n == 0)
    if (int err = lab1_zero_bins<double>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    scatter_add_cas<<<kit_div_up(io->n, NT), NT, 0, stream>>>(io->keys, io->values, io->n, io->sums);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io;
    // STUB: (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}
