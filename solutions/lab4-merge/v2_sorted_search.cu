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
    // BEGIN SOLUTION (Step 4.2): load the intervals and the halo (lab4_tile_halo), search each thread's diagonal, run lab4_serial_search, store A's and B's results coalesced
    __shared__ int32_t keys[NV];
    __shared__ int32_t bound_s[NV]; /* A results at [0, tile_a), B results after */
    __shared__ uint8_t match_s[NV];
    lab4_merge_range r = lab4_merge_tile_range(partitions, blockIdx.x, NV, a_count, b_count);
    int64_t a0 = r.a_begin, b0 = r.b_begin;
    int tile_a = (int)(r.a_end - a0), tile_b = (int)(r.b_end - b0), tile_n = tile_a + tile_b;

    lab4_load_tile<NT, VT>(a + a0, tile_a, b + b0, tile_b, keys);
    /* The neighbours just outside the tile decide the flags of its edge items. */
    lab4_halo halo = lab4_tile_halo(a, b, b_count, r);
    __syncthreads();

    int diag = min((int)threadIdx.x * VT, tile_n);
    int a_split = (int)lab4_merge_path_search(keys, tile_a, keys + tile_a, tile_b, diag, upper);
    lab4_serial_search(keys, tile_a, tile_b, a_split, diag - a_split, min(VT, tile_n - diag), VT,
                       upper, a0, b0, halo, bound_s, bound_s + tile_a,
                       a_match ? match_s : NULL, b_match ? match_s + tile_a : NULL);
    __syncthreads();

    /* Tile item i is A's result i - or B's result i - tile_a: both runs land
     * contiguously in global memory. */
#pragma unroll
    for (int k = 0; k < VT; k++) {
        int i = threadIdx.x + k * NT;
        if (i < tile_a) {
            a_bound[a0 + i] = bound_s[i];
            if (a_match)
                a_match[a0 + i] = match_s[i];
        } else if (i < tile_n) {
            if (b_bound)
                b_bound[b0 + i - tile_a] = bound_s[i];
            if (b_match)
                b_match[b0 + i - tile_a] = match_s[i];
        }
    }
    // END SOLUTION
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
    // BEGIN SOLUTION (Step 4.2): partitions with the tie rule of `upper`, then one block per tile
    if (int err = lab4_launch_merge_partitions(io->a, a_count, io->b, b_count, NV, upper, tiles,
                                               io->partitions, stream))
        return err;
    search_tiles<<<(unsigned)tiles, NT, 0, stream>>>(io->a, a_count, io->b, b_count, io->partitions,
                                                     upper, a_bound, b_bound, a_match, b_match);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)a_bound; (void)b_bound; (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab4_sorted_search(const lab4_io *io, cudaStream_t stream)
{
    return lab4_sorted_search_pass(io, 0, io->a_bound, io->b_bound, io->a_match, io->b_match, stream);
}
