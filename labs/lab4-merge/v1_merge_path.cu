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
 * Pairs: the values are loaded next to the keys in the same layout, the serial
 * merge records where each output came from, and each thread gathers its
 * values from there: the same three barriers, twice the shared memory.
 * Still slow: each tile waits on its loads with nothing else to do but what
 * other resident blocks offer; VT and NT trade registers and shared memory for
 * loads in flight (tune them: LAB4_MERGE_NT, LAB4_MERGE_VT in lab4_shapes.h, VT odd).
 * On an H200, 128 x 23 did best of the shapes tried (128..512 x 7..23): long
 * serial runs per thread amortize the searches and barriers; 56 registers for
 * keys, 87 for pairs (nvcc 13.0, sm_90, -Xptxas -v).
 * From 32,768 tile boundaries on (2^27 keys and up) the partition kernel
 * searches in two levels (lab4_tile.cuh): at 2^28 it then reads 113 MB of DRAM
 * instead of 249 MB (H100), and the merge goes from 0.91x to 0.98x of CUB;
 * below 8,192 boundaries (2^24 keys and down) several lanes of a warp search
 * each boundary together.
 * Expect: level with CUB's merge (at 2^24 keys 0.98x on an H100 and 0.99x on
 * an H200, lab4_merge*.csv; at 2^28, 0.98x on an H100 and 1.01x on an H200),
 * 82-90% of the copy rate at 2^28; with pairs, ahead of CUB's MergePairs
 * (1.11x-1.18x at 2^24, 1.20x-1.32x at 2^28: lecture 4, "Key-value pairs"). */
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
    // TODO(Step 4.1): load the tile's A and B intervals (and values), search each thread's diagonal, merge VT items (gather their values), barrier, stage them in the same shared arrays, barrier, store coalesced (about 35 lines)
}

extern "C" int lab4_merge_path(const lab4_io *io, cudaStream_t stream)
{
    int64_t total = (int64_t)(io->a_count + io->b_count);
    if (total == 0)
        return 0;
    // TODO(Step 4.1): tiles = ceil(total / NV); return KIT_CHECK(cudaErrorInvalidValue) if tiles + 1 > io->partition_capacity; partition kernel (tiles + 1 boundaries), then one block of NT threads per tile (merge_tiles<true> for pairs) (about 12 lines)
    (void)stream;
    return KIT_TODO;
}
