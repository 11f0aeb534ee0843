/* Step 0.6: a branch whose condition changes inside a warp (threadIdx.x % 2).
 *
 * Even and odd lanes of the same warp take different paths. A warp issues one
 * instruction for all its active lanes, so it runs branch A with the odd lanes
 * masked off, then branch B with the even lanes masked off: every warp pays for
 * both branches. The kernel is compute-bound (LAB0_BRANCH_ITERS rounds of integer
 * mixing per word), so that doubling shows directly in the time.
 * Expect: about 1.7x the time of `warp-uniform`, which does the same work; a little
 * less than the extra instructions issued, as the memory traffic is the same in
 * both (lecture 0, the table of Steps 0.6 and 0.7). */
#include "lab0.h"
#include "lab0_mix.cuh"

enum { NT = LAB0_BRANCH_NT };

__global__ void branch_on_lane_parity(const uint32_t *__restrict__ in, uint32_t *__restrict__ out,
                                      size_t words)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= words)
        return;
    uint32_t x = in[i];
    if (threadIdx.x % 2)
        x = mix_a(x);
    else
        x = mix_b(x);
    out[i] = x;
}

extern "C" int lab0_divergent(const lab0_io *io, cudaStream_t stream)
{
    size_t words = 3 * io->n;
    if (words == 0)
        return 0;
    branch_on_lane_parity<<<kit_div_up(words, NT), NT, 0, stream>>>((const uint32_t *)io->in, (uint32_t *)io->out,
                                                                    words);
    return KIT_LAUNCH_CHECK();
}
