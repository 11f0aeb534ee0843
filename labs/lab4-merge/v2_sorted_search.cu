/* Step 4.2: vectorized sorted search, built exactly like the merge.
 *
 * Searching every a[i] in b with its own binary search costs O(A log B) and
 * mostly cache misses. When the needles A are sorted too, the search is a merge
 * in which nothing is written but the cursors: when the merge emits a[i], the B
 * cursor is how many b come before it; when it emits b[j], the A cursor is how
 * many a come before it. One pass gives the lower bound of every a in B, the
 * upper bound of every b in A, and match flags both ways (compare with the
 * neighbouring key of the other array). The tie rule picks the bound: A first
 * gives lower bounds of A, B first gives upper bounds (the join needs both).
 * Same two phases as step 4.1: Merge Path partitions, then VT serial steps per
 * thread in shared memory, results staged in shared memory and stored coalesced.
 * Still slow: two results of different widths per item (a 4-byte bound, a
 * 1-byte flag) go through shared memory and out; not profiled yet.
 * Expect: O(A + B) work, below the merge: about half the copy at 2^26 keys
 * (lecture 4, Step 4.2's table). */
#include "lab4.h"
#include "lab4_tile.cuh"

enum { NT = LAB4_SEARCH_NT, VT = LAB4_SEARCH_VT, NV = NT * VT };
static_assert(NV >= LAB4_MIN_NV, "tiles smaller than the partition arrays allow");

__global__ void __launch_bounds__(NT)
search_tiles(const int32_t *__restrict__ a, int64_t a_count, const int32_t *__restrict__ b,
             int64_t b_count, const int64_t *__restrict__ partitions, int upper,
             int32_t *__restrict__ a_bound, int32_t *__restrict__ b_bound,
             uint8_t *__restrict__ a_match, uint8_t *__restrict__ b_match)
{
    // TODO(Step 4.2): load the intervals and the halo (lab4_tile_halo), search each thread's diagonal, run lab4_serial_search, store A's and B's results coalesced (about 32 lines)
}

extern "C" int lab4_sorted_search_pass(const lab4_io *io, int upper, int32_t *a_bound,
                                       int32_t *b_bound, uint8_t *a_match, uint8_t *b_match,
                                       cudaStream_t stream)
{
    int64_t a_count = (int64_t)io->a_count, b_count = (int64_t)io->b_count;
    if (a_count + b_count == 0)
        return 0;
    if (upper && (a_match || b_match))
        return KIT_CHECK(cudaErrorInvalidValue); /* flags come from the A-first pass only */
    int64_t tiles = (int64_t)kit_div_up((size_t)(a_count + b_count), NV);
    if ((size_t)tiles + 1 > io->partition_capacity)
        return KIT_CHECK(cudaErrorInvalidValue);
    // TODO(Step 4.2): partitions with the tie rule of `upper`, then one block per tile (about 6 lines)
    (void)a_bound; (void)b_bound; (void)stream;
    return KIT_TODO;
}

extern "C" int lab4_sorted_search(const lab4_io *io, cudaStream_t stream)
{
    return lab4_sorted_search_pass(io, 0, io->a_bound, io->b_bound, io->a_match, io->b_match, stream);
}
