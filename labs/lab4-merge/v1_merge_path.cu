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
