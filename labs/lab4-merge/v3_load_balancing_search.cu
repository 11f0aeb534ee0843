/* Step 4.3: load-balancing search (LBS).
 *
 * N objects each produce a variable number of outputs (0 included); offsets is
 * the exclusive scan of those counts. The LBS pairs every output k with the
 * object that produced it, upper_bound(offsets, k) - 1, and its rank inside that
 * object, k - offsets[object]. It is a sorted search of the counting sequence
 * 0, 1, 2, ... in offsets, so it is built like the merge: a Merge Path partition
 * over outputs + objects gives every tile exactly NV of them (a tile never
 * overflows, however skewed the counts: one object with a million outputs and
 * a million empty objects cost the same), then each thread walks VT steps.
 * The join (step 4.4) uses the same tile routine, lab4_tile_lbs.
 * Still slow: the offsets and the search's cursors are 64-bit, which costs
 * instructions in every step (Step 4.5's tile versions search in int).
 * Expect: about half the copy at 2^26 outputs of 2^24 objects, outputs
 * dominating the bytes (lecture 4, Step 4.3's table). */
#include "lab4.h"
#include "lab4_tile.cuh"

enum { NT = LAB4_LBS_NT, VT = LAB4_LBS_VT, NV = NT * VT };
static_assert(NV >= LAB4_MIN_NV, "tiles smaller than the partition arrays allow");

__global__ void __launch_bounds__(NT)
lbs_tiles(const int64_t *__restrict__ offsets, int64_t obj_count, int64_t out_count,
          const int64_t *__restrict__ partitions, int32_t *__restrict__ out_obj,
          int32_t *__restrict__ out_rank)
{
    // TODO(Step 4.3): lab4_tile_lbs, then store each output's object and rank coalesced (about 14 lines)
}

extern "C" int lab4_load_balancing_search(const lab4_io *io, cudaStream_t stream)
{
    if (io->out_count == 0)
        return 0; /* nothing to pair (objects may exist, all empty) */
    // TODO(Step 4.3): tiles = ceil((outputs + objects) / NV); return KIT_CHECK(cudaErrorInvalidValue) if tiles + 1 > io->partition_capacity; LBS partitions, then one block per tile (about 11 lines)
    (void)stream;
    return KIT_TODO;
}
