/* Step 1.4: the hardware finds the peers. __match_any_sync(active, key) returns,
 * in one instruction, the mask of the active lanes whose key equals mine: Stage 1
 * without the vote loop, whatever the number of distinct keys. Stage 2 is the
 * sub-tree of step 1.3 for doubles; for int counts __reduce_add_sync sums over the
 * peer mask in one instruction (sm_80 and later; __popc(peers) before, since every
 * element adds 1).
 * Still slow: the leaders' atomics still go to the L2, one per distinct key per
 * warp, and match itself is not free: for uniform keys over many bins there is
 * nothing to aggregate and it only adds work.
 * Expect: about the same as warp-ballot at every K (the vote loop hides behind the
 * atomics); break-even with global-atomic near K = 32 distinct keys per warp. */
#include "lab1.h"
#include "lab1_value.cuh"
#include "lab1_warp.cuh"

#define MATCH_NT 256

__global__ void histogram_match(const int *__restrict__ keys, size_t n, int *counts)
{
    // BEGIN SOLUTION (Step 1.4): active lanes as in 1.3; peers = __match_any_sync(active, key); count = __reduce_add_sync(peers, 1u) (sm_80+, else __popc); the lowest peer adds it
    size_t i = (size_t)blockIdx.x * MATCH_NT + threadIdx.x;
    unsigned active = __ballot_sync(LAB1_FULL_MASK, i < n);
    if (i >= n)
        return;
    int key = keys[i];
    unsigned peers = __match_any_sync(active, key);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    unsigned count = __reduce_add_sync(peers, 1u); /* each group reduces over its own mask */
#else
    unsigned count = __popc(peers);
#endif
    if (lab1_lane_id() == __ffs(peers) - 1)
        atomicAdd(&counts[key], (int)count);
    // END SOLUTION
}

__global__ void scatter_add_match(const int *__restrict__ keys, const double *__restrict__ values,
                                  size_t n, double *sums)
{
    // BEGIN SOLUTION (Step 1.4): peers from __match_any_sync, then Stage 2 (lab1_reduce_peers<double, false>) and the leader's atomicAdd
    size_t i = (size_t)blockIdx.x * MATCH_NT + threadIdx.x;
    unsigned active = __ballot_sync(LAB1_FULL_MASK, i < n);
    if (i >= n)
        return;
    int key = keys[i];
    unsigned peers = __match_any_sync(active, key);
    double sum = lab1_reduce_peers<double, false>(active, peers, values[i], nullptr);
    if (lab1_lane_id() == __ffs(peers) - 1)
        atomicAdd(&sums[key], sum);
    // END SOLUTION
}

extern "C" int lab1_warp_match_histogram(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.4): zero the counts, one thread per key
    if (int err = lab1_zero_bins<int>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    histogram_match<<<kit_div_up(io->n, MATCH_NT), MATCH_NT, 0, stream>>>(io->keys, io->n, io->counts);
    return KIT_LAUNCH_CHECK();
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab1_warp_match_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.4): zero the sums, one thread per element
    if (int err = lab1_zero_bins<double>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    scatter_add_match<<<kit_div_up(io->n, MATCH_NT), MATCH_NT, 0, stream>>>(io->keys, io->values, io->n,
                                                                            io->sums);
    return KIT_LAUNCH_CHECK();
    // STUB: return KIT_TODO;
    // END SOLUTION
}
