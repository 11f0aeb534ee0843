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
    // TODO(Step 1.4): active lanes as in 1.3; peers = __match_any_sync(active, key); count = __reduce_add_sync(peers, 1u) (sm_80+, else __popc); the lowest peer adds it (about 13 lines)
}

__global__ void scatter_add_match(const int *__restrict__ keys, const double *__restrict__ values,
                                  size_t n, double *sums)
{
    // TODO(Step 1.4): peers from __match_any_sync, then Stage 2 (lab1_reduce_peers<double, false>) and the leader's atomicAdd (about 9 lines)
}

extern "C" int lab1_warp_match_histogram(const lab1_io *io, cudaStream_t stream)
{
    // TODO(Step 1.4): zero the counts, one thread per key (about 6 lines)
    return KIT_TODO;
}

extern "C" int lab1_warp_match_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    // TODO(Step 1.4): zero the sums, one thread per element (about 7 lines)
    return KIT_TODO;
}
