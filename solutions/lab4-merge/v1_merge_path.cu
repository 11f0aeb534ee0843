/* Step 4.1: Merge Path, the two-phase merge.
 *
 * Step 4.0 does O(n log n) work in chains of dependent DRAM loads. Here the
 * output is cut instead of the inputs, into tiles of NV = NT * VT items.
 * Phase 1 (partition, lab4_tile.cuh): one Merge Path search per tile boundary,
 * a binary search on the cross diagonal, gives how many of the tile's first
 * items come from A; the rest come from B. Every tile then owns exactly NV
 * outputs, however the keys are spread: perfect load balance.
 * Phase 2 (merge_tiles): a block loads its A and B intervals into shared memory
 * with coalesced reads, each thread finds its own start on diagonal tid * VT
 * with a search in shared memory, merges VT items sequentially into registers
 * (the CPU loop), writes them back to shared memory, and the block stores the
 * tile coalesced. Every input is read once and every output written once: O(n).
 * Pairs: the values are loaded next to the keys in the same layout, the serial
 * merge records where each output came from, and each thread gathers its
 * values from there: the same three barriers, twice the shared memory.
 * Still slow: a tile waits on its loads with nothing to overlap them but what
 * the other resident blocks offer, and at 2^24 keys and below the partition
 * kernel and the launches are a large part of a short run. NT and VT
 * (LAB4_MERGE_NT, LAB4_MERGE_VT in lab4_shapes.h; VT odd) trade registers and
 * shared memory for loads in flight.
 * Expect: level with CUB's merge at 2^24 and 2^28 keys, about 0.8 of the copy
 * at 2^28, and ahead of CUB's MergePairs with pairs (lecture 4, Step 4.1). */
#include "lab4.h"
#include "lab4_tile.cuh"

enum { NT = LAB4_MERGE_NT, VT = LAB4_MERGE_VT, NV = NT * VT };
static_assert(NV >= LAB4_MIN_NV, "tiles smaller than the partition arrays allow");

/* PAIRS = false: keys only (a_vals, b_vals, merged_vals unused). */
template <bool PAIRS>
__global__ void __launch_bounds__(NT)
merge_tiles(const int32_t *__restrict__ a, const int32_t *__restrict__ a_vals, int64_t a_count,
            const int32_t *__restrict__ b, const int32_t *__restrict__ b_vals, int64_t b_count,
            const int64_t *__restrict__ partitions, int32_t *__restrict__ merged,
            int32_t *__restrict__ merged_vals)
{
    // BEGIN SOLUTION (Step 4.1): load the tile's A and B intervals (and values), search each thread's diagonal, merge VT items (gather their values), barrier, stage them in the same shared arrays, barrier, store coalesced
    __shared__ int32_t keys[NV];
    __shared__ int32_t vals[PAIRS ? NV : 1];
    lab4_merge_range r = lab4_merge_tile_range(partitions, blockIdx.x, NV, a_count, b_count);
    int tile_a = (int)(r.a_end - r.a_begin), tile_b = (int)(r.b_end - r.b_begin);
    int tile_n = tile_a + tile_b;
    int64_t tile_begin = (int64_t)blockIdx.x * NV; /* = r.a_begin + r.b_begin */

    lab4_load_tile<NT, VT>(a + r.a_begin, tile_a, b + r.b_begin, tile_b, keys);
    if (PAIRS)
        lab4_load_tile<NT, VT>(a_vals + r.a_begin, tile_a, b_vals + r.b_begin, tile_b, vals);
    __syncthreads();

    /* This thread's outputs are tile items diag .. diag + VT - 1. */
    int diag = min((int)threadIdx.x * VT, tile_n);
    int a_split = (int)lab4_merge_path_search(keys, tile_a, keys + tile_a, tile_b, diag, 0);
    int32_t out[VT];
    int src[VT]; /* pairs: where out[i] came from in keys[], then its value */
    lab4_serial_merge(keys, a_split, tile_a, tile_a + diag - a_split, tile_n, min(VT, tile_n - diag),
                      VT, out, PAIRS ? src : NULL);
#pragma unroll
    for (int i = 0; i < VT; i++)
        if (PAIRS && diag + i < tile_n)
            src[i] = vals[src[i]];
    __syncthreads(); /* everyone is done reading keys (and vals): reuse them for the output */

    /* Thread t writes slots t*VT .. t*VT + VT - 1: with VT odd the 32 lanes of a
     * warp hit 32 different banks at every step. */
#pragma unroll
    for (int i = 0; i < VT; i++)
        if (diag + i < tile_n) {
            keys[diag + i] = out[i];
            if (PAIRS)
                vals[diag + i] = src[i];
        }
    __syncthreads();
    lab4_store_tile<NT, VT>(keys, tile_n, merged + tile_begin);
    if (PAIRS)
        lab4_store_tile<NT, VT>(vals, tile_n, merged_vals + tile_begin);
    // END SOLUTION
}

extern "C" int lab4_merge_path(const lab4_io *io, cudaStream_t stream)
{
    int64_t total = (int64_t)(io->a_count + io->b_count);
    if (total == 0)
        return 0;
    // BEGIN SOLUTION (Step 4.1): tiles = ceil(total / NV); return KIT_CHECK(cudaErrorInvalidValue) if tiles + 1 > io->partition_capacity; partition kernel (tiles + 1 boundaries), then one block of NT threads per tile (merge_tiles<true> for pairs)
    int64_t tiles = (int64_t)kit_div_up((size_t)total, NV);
    if ((size_t)tiles + 1 > io->partition_capacity)
        return KIT_CHECK(cudaErrorInvalidValue);
    if (int err = lab4_launch_merge_partitions(io->a, (int64_t)io->a_count, io->b,
                                               (int64_t)io->b_count, NV, 0, tiles, io->partitions,
                                               stream))
        return err;
    auto kernel = io->merged_vals ? merge_tiles<true> : merge_tiles<false>;
    kernel<<<(unsigned)tiles, NT, 0, stream>>>(io->a, io->a_vals, (int64_t)io->a_count, io->b,
                                               io->b_vals, (int64_t)io->b_count, io->partitions,
                                               io->merged, io->merged_vals);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}
