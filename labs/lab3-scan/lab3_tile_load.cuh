/* lab3_tile_load.cuh: moving a tile between global and shared memory. A tile is
 * NT threads x VT values:
 *   - load and store through shared memory (given; Step 3.2 explains the
 *     transpose), for the steps that keep a thread's values in registers;
 *   - the 16-byte stores of a tile that lies in shared memory: you write them in
 *     Step 3.5 (Step 3.7 stores each warp's part of a tile the same way);
 *   - the largest shared memory for the steps whose tiles live there (Steps
 *     3.5, 3.7 and 3.8). */
#ifndef LAB3_TILE_LOAD_CUH
#define LAB3_TILE_LOAD_CUH

#include "kit_cuda.cuh"
#include "lab3.h"

/* Loading: thread t reads items t, t + NT, t + 2NT, ... (neighbouring threads
 * read neighbouring items: coalesced) into shared memory, then takes VT
 * consecutive items tid*VT .. tid*VT + VT-1 out of it (the transpose). With odd VT
 * the 32 lanes' reads at stride VT fall in 32 different banks. Items past `count`
 * read as 0, the identity of +. */
template <int NT, int VT, typename T>
static __device__ __forceinline__ void lab3_load_tile(const T *in, size_t count, T *smem, T (&v)[VT])
{
#pragma unroll
    for (int k = 0; k < VT; k++) {
        int i = k * NT + threadIdx.x;
        smem[i] = (size_t)i < count ? in[i] : T(0);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < VT; k++)
        v[k] = smem[threadIdx.x * VT + k];
}

/* The reverse: each thread puts its VT values back where it read them (so no
 * other thread's reads can be overtaken and no barrier is needed before), then the
 * block writes the tile out coalesced. */
template <int NT, int VT, typename T>
static __device__ __forceinline__ void lab3_store_tile(T *out, size_t count, T *smem, const T (&v)[VT])
{
#pragma unroll
    for (int k = 0; k < VT; k++)
        smem[threadIdx.x * VT + k] = v[k];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < VT; k++) {
        int i = k * NT + threadIdx.x;
        if ((size_t)i < count)
            out[i] = smem[i];
    }
}

/* Shared -> global, coalesced, for a tile of NV values that lies in shared memory
 * (NV a whole number of 16-byte vectors), stored by NT threads of which this one
 * is number `rank` (a block: threadIdx.x; Step 3.7 stores each warp's part of a
 * tile with NT = 32, NV = the part's values and rank = the lane): 16-byte stores
 * when `vectors`, otherwise the first count values one by one. The caller decides
 * `vectors`: out 16-byte aligned and the whole TILE full (Step 3.7 too: in its
 * last, partial tile even a full warp part goes value by value). This helper
 * trusts it and does not test count. Step 3.5. */
template <int NT, int NV, typename T>
static __device__ __forceinline__ void lab3_store_tile_vectors(T *out, size_t count, bool vectors, const T *tile,
                                                               int rank)
{
    static_assert(NV * sizeof(T) % 16 == 0, "a full tile must be a whole number of 16-byte vectors");
    // TODO(Step 3.5): full and aligned: uint4 stores of vectors j = rank, rank + NT, ...; else out[i] = tile[i] for i = rank, rank + NT, ... < count (about 9 lines)
    (void)out, (void)count, (void)vectors, (void)tile, (void)rank;
}

/* The query (kit_resident_blocks) of Step 3.5's tuned scan and of the pipelines:
 * before counting, let the kernel have `smem` bytes of dynamic shared memory (the
 * pipelines: more than the 48 KB a block gets without asking) and the largest
 * shared-memory carveout (tiles land in shared memory and stores go to L2: no L1
 * to keep). Once per device and kernel. */
static inline int lab3_count_with_max_shared(int device, const void *kernel, int threads, size_t smem, int *blocks)
{
    if (smem > 0)
        if (int err = KIT_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)))
            return err;
    if (int err = KIT_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                                 (int)cudaSharedmemCarveoutMaxShared)))
        return err;
    return kit_count_resident_blocks(device, kernel, threads, smem, blocks);
}

#endif
