/* Step 1.4: the hardware finds the peers. __match_any_sync(active, key) returns,
 * in one instruction, the mask of the active lanes whose key equals mine: Stage 1
 * without the vote loop, whatever the number of distinct keys. Stage 2 is the
 * sub-tree of step 1.3 for doubles; for int counts __reduce_add_sync sums over the
 * peer mask in one instruction (sm_80 and later; __popc(peers) before, since every
 * element adds 1). The choice is made at compile time, per target:
 * `#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800`. The kit builds for sm_75
 * when there is no GPU (make's default ARCH), and there __reduce_add_sync is not
 * declared at all.
 * Still slow: the leaders' atomics still go to the L2, one per distinct key per
 * warp, and match itself is not free: for uniform keys over many bins there is
 * nothing to aggregate and it only adds work.
 * Expect: for doubles ahead of warp-ballot between K = 2 and about 12 distinct keys
 * per warp (up to about 1.4x), the same elsewhere; for counts within a few percent
 * of warp-ballot at every K, the vote loop having hidden behind the atomics; no gain
 * over global-atomic at K = 32 (lecture 1, Step 1.4's table). */
#include "lab1.h"
#include "lab1_value.cuh"
#include "lab1_warp.cuh"

enum { NT = LAB1_NT }; /* a multiple of 32: whole warps */

/* What a peer group adds: counts in one instruction, doubles by Stage 2. */
__device__ __forceinline__ int group_sum(unsigned, unsigned peers, int)
{
    // TODO(Step 1.4): every element adds 1: __reduce_add_sync(peers, 1u) on sm_80+ (each group reduces over its own mask), __popc(peers) before; choose with #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 ... #else ... #endif (make lab1 without a GPU builds for sm_75, where __reduce_add_sync does not exist) (about 5 lines)
    (void)peers;
    return 0;
}
__device__ __forceinline__ double group_sum(unsigned active, unsigned peers, double x)
{
    return lab1_reduce_peers<double, false>(active, peers, x, nullptr);
}

template <typename T>
__global__ void add_match(const int *__restrict__ keys, const double *__restrict__ values, size_t n, T *out)
{
    // TODO(Step 1.4): active lanes as in 1.3; peers = __match_any_sync(active, key); sum = group_sum(active, peers, lab1_weight<T>(values, i)); the lowest peer adds it (about 9 lines)
}

template <typename T> static int launch(const lab1_io *io, cudaStream_t stream)
{
    // TODO(Step 1.4): zero the bins, one thread per element (about 6 lines)
    (void)io;
    (void)stream;
    return KIT_TODO;
}

extern "C" int lab1_warp_match_histogram(const lab1_io *io, cudaStream_t stream)
{
    return launch<int>(io, stream);
}

extern "C" int lab1_warp_match_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    return launch<double>(io, stream);
}
