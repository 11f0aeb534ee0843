/* Step 4.1: Merge Path, the two-phase merge.
 *
 * Phase 1 (partition): the output is cut into tiles of NV = NT * VT items. One
 * thread per tile boundary runs a Merge Path search (a binary search on the
 * cross diagonal) to learn how many of the tile's first items come from A; the
 * rest come from B. Every tile then owns exactly NV outputs, however the keys
 * are spread: perfect load balance.
 * Phase 2 (work): a block loads its A and B intervals into shared memory with
 * coalesced reads, each thread finds its own start on diagonal tid * VT with a
 * search in shared memory, merges VT items sequentially into registers (the CPU
 * loop), writes them back to shared memory and the block stores the tile
 * coalesced. Every input is read once and every output written once: O(n).
 * Still slow: each tile waits on its loads with nothing else to do but what
 * other resident blocks offer; VT and NT trade registers and shared memory for
 * loads in flight (tune them: -DLAB4_MERGE_NT=..., -DLAB4_MERGE_VT=..., VT odd).
 * On an H200, 128 x 23 did best of the shapes tried (128..512 x 7..23): long
 * serial runs per thread amortize the searches and barriers; 56 registers.
 * Expect: close to CUB's merge, a large fraction of the copy limit. */
#include "lab4.h"
#include "lab4_tile.cuh"

#ifndef LAB4_MERGE_NT
#define LAB4_MERGE_NT 128
#endif
#ifndef LAB4_MERGE_VT
#define LAB4_MERGE_VT 23
#endif
enum { NT = LAB4_MERGE_NT, VT = LAB4_MERGE_VT, NV = NT * VT };
static_assert(NV >= LAB4_MIN_NV, "tiles smaller than the partition arrays allow");

__global__ void __launch_bounds__(NT)
merge_tiles(const int32_t *__restrict__ a, int64_t a_count, const int32_t *__restrict__ b,
            int64_t b_count, const int64_t *__restrict__ partitions, int32_t *__restrict__ merged)
{
    // BEGIN SOLUTION (Step 4.1): load the tile's A and B intervals, search each thread's diagonal, merge VT items, store coalesced
    __shared__ int32_t keys[NV];
    int64_t tile = blockIdx.x;
    int64_t total = a_count + b_count;
    int64_t d0 = tile * NV, d1 = d0 + NV < total ? d0 + NV : total;
    int64_t a0 = partitions[tile], a1 = partitions[tile + 1];
    int64_t b0 = d0 - a0, b1 = d1 - a1;
    int tile_a = (int)(a1 - a0), tile_b = (int)(b1 - b0), tile_n = tile_a + tile_b;

    lab4_load_tile<NT, VT>(a + a0, tile_a, b + b0, tile_b, keys);
    __syncthreads();

    /* This thread's outputs are tile items diag .. diag + VT - 1. */
    int diag = min((int)threadIdx.x * VT, tile_n);
    int a_split = (int)lab4_merge_path_search(keys, tile_a, keys + tile_a, tile_b, diag, 0);
    int32_t out[VT];
    lab4_serial_merge(keys, a_split, tile_a, tile_a + diag - a_split, tile_n, min(VT, tile_n - diag),
                      VT, out);
    __syncthreads(); /* everyone is done reading keys: reuse it for the output */

    /* Thread t writes slots t*VT .. t*VT + VT - 1: with VT odd the 32 lanes of a
     * warp hit 32 different banks at every step. */
#pragma unroll
    for (int i = 0; i < VT; i++)
        if (diag + i < tile_n)
            keys[diag + i] = out[i];
    __syncthreads();
    lab4_store_tile<NT, VT>(keys, tile_n, merged + d0);
    // END SOLUTION
}

extern "C" int lab4_merge_path(const lab4_io *io, cudaStream_t stream)
{
    int64_t total = (int64_t)(io->a_count + io->b_count);
    if (total == 0)
        return 0;
    // BEGIN SOLUTION (Step 4.1): partition kernel (tiles + 1 boundaries), then one block of NT threads per tile
    int64_t tiles = (int64_t)kit_div_up((size_t)total, NV);
    if ((size_t)tiles + 1 > io->partition_capacity)
        return KIT_CHECK(cudaErrorInvalidValue);
    lab4_merge_partitions<<<lab4_partition_blocks(tiles), 128, 0, stream>>>(
        io->a, (int64_t)io->a_count, io->b, (int64_t)io->b_count, NV, 0, tiles, io->partitions);
    if (int err = KIT_LAUNCH_CHECK())
        return err;
    merge_tiles<<<(unsigned)tiles, NT, 0, stream>>>(io->a, (int64_t)io->a_count, io->b,
                                                    (int64_t)io->b_count, io->partitions, io->merged);
    return KIT_LAUNCH_CHECK();
    // STUB: return KIT_TODO;
    // END SOLUTION
}
