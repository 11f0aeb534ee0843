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
    // BEGIN SOLUTION (Step 5.2): load the tile warp-striped; warp histograms; barrier; thread d < 256 sums its digit over the warps (lab5_warp_prefix) and writes the count
    __shared__ lab5_rank_storage<NT> s;
    const size_t tiles = kit_div_up(n, NV), tile = blockIdx.x;
    const int count = (int)kit_tile_items(n, NV, tile);
    uint32_t k[VT];
    lab5_load_striped<NT, VT>(keys, tile * NV, count, lab5_pad_key<T>(), k);
    lab5_warp_histogram<VT, T>(k, pass, s.warp_digit[threadIdx.x / 32]);
    __syncthreads();
    /* the padding of the last tile is counted in digit 255 of the last tile: the
     * very last entry of the scanned array, which no start depends on */
    if (threadIdx.x < LAB5_DIGITS)
        counts[threadIdx.x * tiles + tile] = lab5_warp_prefix<NT>(s);
    // END SOLUTION
}

/* counts = the scanned array. Rank the tile's keys by their warp peers and scatter. */
template <lab5_type T, bool PAIRS>
static __global__ void __launch_bounds__(NT)
scatter_tiles(const uint32_t *keys, const uint32_t *values, size_t n, int pass, const uint32_t *counts,
              uint32_t *keys_out, uint32_t *values_out)
{
    // BEGIN SOLUTION (Step 5.2): load; warp histograms; barrier; per digit: warp prefix, digit scan, warp starts; barrier; lab5_rank_to_shared; base[d] = counts[d * tiles + tile] - digit start; barrier; lab5_scatter_tile
    __shared__ uint32_t s_tile[NV];                 /* the sorted keys, then their values */
    __shared__ uint16_t s_rank[PAIRS ? NV : 1];     /* where each key went, for its value */
    __shared__ lab5_rank_storage<NT> s;
    const size_t tiles = kit_div_up(n, NV), tile = blockIdx.x;
    const int count = (int)kit_tile_items(n, NV, tile);
    uint32_t *row = s.warp_digit[threadIdx.x / 32];
    uint32_t k[VT];
    lab5_load_striped<NT, VT>(keys, tile * NV, count, lab5_pad_key<T>(), k);
    lab5_warp_histogram<VT, T>(k, pass, row);
    __syncthreads();
    const bool digit_thread = threadIdx.x < LAB5_DIGITS;
    uint32_t tile_count = digit_thread ? lab5_warp_prefix<NT>(s) : 0;
    uint32_t digit_start = lab5_digit_scan(tile_count, s.scan_warps);
    if (digit_thread) {
        lab5_warp_starts<NT>(s, digit_start);
        s.base[threadIdx.x] = counts[threadIdx.x * tiles + tile] - digit_start;
    }
    __syncthreads();
    lab5_rank_to_shared<VT, T, PAIRS>(k, pass, row, s_tile, s_rank);
    __syncthreads();
    lab5_scatter_tile<NT, VT, T, PAIRS>(s_tile, s_rank, values, tile * NV, count, pass, s.base, keys_out,
                                        values_out);
    // END SOLUTION
}

template <lab5_type T, bool PAIRS>
struct digit8_sort {
    static int run(const lab5_sort_io *io, cudaStream_t stream)
    {
        // BEGIN SOLUTION (Step 5.2): as Step 5.1 with 256 digits and 4 passes
        const size_t tiles = kit_div_up(io->n, NV);
        if (LAB5_DIGITS * tiles > io->ws->counts_words)
            return KIT_CHECK(cudaErrorInvalidValue); /* workspace sized for fewer tiles */
        return lab5_count_scan_scatter(io, LAB5_OS_PASSES, (unsigned)tiles, NT, io->ws->counts,
                                       LAB5_DIGITS * tiles, count_tiles<T>, scatter_tiles<T, PAIRS>, stream);
        // STUB: (void)io; (void)stream;
        // STUB: return KIT_TODO;
        // END SOLUTION
    }
};

extern "C" int lab5_digit_8bit_warp_rank(const lab5_sort_io *io, cudaStream_t stream)
{
    return lab5_dispatch<digit8_sort>(io, stream);
}
