/* Step 5.2: 8-bit digits, keys ranked by warps.
 *
 * Twice the digit width halves the passes again: 4 passes of 8 bits. But 256
 * digits make Step 5.1's private counters too big (256 per thread), so the
 * ranking moves to the warp (the multisplit idea):
 *   - keys are held warp-striped (lab5_rank.cuh): each load of a warp is 128
 *     contiguous bytes, and the order (warp, item, lane) is the input order;
 *   - each warp counts its keys' digits into its own row of 256 counters in
 *     shared memory (atomics, as in lab 1);
 *   - a pass over the rows (thread t takes digit t) turns the counts into where
 *     each warp's keys of each digit start in the sorted tile: the digit's start
 *     (a scan over the 256 tile counts) plus the counts of earlier warps;
 *   - then, item by item, lab5_digit_peers(digit) gives every lane the lanes
 *     holding the same digit (its peers: 8 ballots, one per digit bit, faster
 *     than one __match_any_sync, see lab5_rank.cuh). A key's rank is the warp's
 *     counter for its digit plus the number of peers in lower lanes; the highest
 *     peer advances the counter by the number of peers. Stable: earlier items
 *     and lower lanes are earlier keys.
 * The rest is Step 5.1: a counting kernel per tile, CUB's scan of the
 * (digit x tile) counts, and the scatter through shared memory, now in runs of
 * ~NV / 256 keys of one digit.
 * Traffic per pass: still ~3n (the keys are read twice); 4 passes instead of 8.
 * Expect: about 2.4x digit-4bit, on a par with CUB for keys (lecture 5,
 * Step 5.2's table). */
#include "lab5_rank.cuh"

enum { NT = LAB5_DIGIT8_NT, VT = LAB5_DIGIT8_VT, NV = NT * VT };
static_assert(NT % 32 == 0 && NT >= LAB5_DIGITS, "one thread per digit");

/* counts[d * tiles + tile] = the tile's count of digit d. */
template <lab5_type T>
static __global__ void __launch_bounds__(NT) count_tiles(const uint32_t *keys, size_t n, int pass, uint32_t *counts)
{
    // TODO(Step 5.2): load the tile warp-striped; warp histograms; barrier; thread d < 256 sums its digit over the warps (lab5_warp_prefix) and writes the count (about 11 lines)
}

/* counts = the scanned array. Rank the tile's keys by their warp peers and scatter. */
template <lab5_type T, bool PAIRS>
static __global__ void __launch_bounds__(NT)
scatter_tiles(const uint32_t *keys, const uint32_t *values, size_t n, int pass, const uint32_t *counts,
              uint32_t *keys_out, uint32_t *values_out)
{
    // TODO(Step 5.2): load; warp histograms; barrier; per digit: warp prefix, digit scan, warp starts; barrier; lab5_rank_to_shared; base[d] = counts[d * tiles + tile] - digit start; barrier; lab5_scatter_tile (about 22 lines)
}

template <lab5_type T, bool PAIRS>
struct digit8_sort {
    static int run(const lab5_sort_io *io, cudaStream_t stream)
    {
        // TODO(Step 5.2): as Step 5.1 with 256 digits and 4 passes (about 5 lines)
        (void)io; (void)stream;
        return KIT_TODO;
    }
};

extern "C" int lab5_digit_8bit_warp_rank(const lab5_sort_io *io, cudaStream_t stream)
{
    return lab5_dispatch<digit8_sort>(io, stream);
}
