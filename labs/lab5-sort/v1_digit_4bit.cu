/* Step 5.1: 4-bit digits: 8 passes of count, scan, scatter.
 *
 * Split-1bit sorts one bit per pass; here a pass sorts by 4 bits at once, so 8
 * passes instead of 32. A pass is lab 1 + lab 3 + a scatter:
 *   1. count: every tile of NV keys counts its 16 digits; count d of tile t goes
 *      to counts[d * tiles + t] (digit-major);
 *   2. scan: one exclusive scan of that array gives, for every (digit, tile), how
 *      many keys go before that tile's keys of that digit: all keys of smaller
 *      digits, and the keys of the same digit in earlier tiles. That is where
 *      the tile's first key of the digit goes in the output;
 *   3. scatter: every tile counts again, ranks its keys inside the tile (stable)
 *      and writes key i of digit d to start(d, tile) + (its rank among the
 *      tile's keys of digit d).
 * The rank inside the tile: each thread owns VT consecutive keys (read from a
 * tile loaded coalesced into shared memory, lab 3's transpose) and counts them
 * in 16 private counters, two 16-bit counters per 32-bit word, kept in shared
 * memory (a register array indexed by a digit would live in slow local memory).
 * One block-wide exclusive scan of the 8 packed words per thread adds all 16
 * counters at once: thread t's first key of digit d goes after every key of a
 * smaller digit and after the keys of digit d of threads before t. The sorted
 * tile is assembled in shared memory and written out in runs of one digit.
 * Traffic per pass: the keys are read twice and written once, ~3n (lab 3's
 * reduce-then-scan), plus the small counts array; three launches per pass.
 * Expect: about 5x split-1bit, still a few % of the copy rate (lecture 5,
 * Step 5.1's table). */
#include "lab5_sort.cuh"

enum {
    NT = LAB5_DIGIT4_NT,
    VT = LAB5_DIGIT4_VT,
    NV = NT * VT,
    BITS = 4,
    DIGITS = 1 << BITS,
    WORDS = DIGITS / 2, /* packed counter words per thread */
    PASSES = 32 / BITS,
    WARPS = NT / 32,
};
static_assert(NV < 65536, "a digit's count in a tile must fit a 16-bit counter");

template <lab5_type T>
static __device__ __forceinline__ uint32_t digit4(uint32_t key, int pass)
{
    return lab5_digit(lab5_order(key, T), pass, BITS);
}

/* The field of digit d in its packed word: bits 0-15 for even d, 16-31 for odd d. */
static __device__ __forceinline__ int field_shift(uint32_t d) { return 16 * (int)(d & 1); }

struct counter_storage {
    uint32_t packed[WORDS][NT]; /* thread t's words in column t: no bank conflicts */
    uint32_t warp_totals[WARPS][WORDS];
};

/* Count digit d into thread t's counters; returns how many of the thread's earlier
 * keys had digit d (the key's rank among them). */
/* [[maybe_unused]]: the starter's stubs do not call it yet */
[[maybe_unused]] static __device__ __forceinline__ uint32_t count_digit(counter_storage &s, uint32_t d)
{
    uint32_t *word = &s.packed[d / 2][threadIdx.x];
    uint32_t before = *word >> field_shift(d) & 0xffffu;
    *word += 1u << field_shift(d);
    return before;
}

/* Exclusive scan of every thread's packed words across the block (all fields at
 * once: no field exceeds NV < 2^16, so no carry crosses a field). Returns the
 * thread's exclusive prefix in prefix[] and the block totals in total[]. Both are
 * register arrays: index them only in unrolled loops over w. To take digit d's
 * word, loop over w and test w == d / 2; total[d / 2], an index known only at
 * run time, would move the array to slow local memory. */
[[maybe_unused]] static __device__ __forceinline__ void scan_counters(counter_storage &s, uint32_t (&prefix)[WORDS],
                                                     uint32_t (&total)[WORDS])
{
    // TODO(Step 5.1): per word: warp inclusive scan with __shfl_up_sync, lane 31 stores the warp total, barrier, add the totals of earlier warps; total = all warps (about 26 lines)
    (void)s;
    for (int w = 0; w < WORDS; w++) prefix[w] = total[w] = 0;
}

/* Count the tile's digits (valid keys only) and write counts[d * tiles + tile]. */
template <lab5_type T>
static __global__ void __launch_bounds__(NT) count_tiles(const uint32_t *keys, size_t n, int pass, uint32_t *counts)
{
    // TODO(Step 5.1): zero your counters; count your strided keys (count_digit); scan_counters; thread d < 16 writes its digit's total: the field (field_shift) of word d / 2, taken by a loop over w that tests w == d / 2 (total[d / 2] would put total[] in local memory) (about 15 lines)
}

/* counts = the scanned array: start(d, tile). Rank the tile's keys and scatter. */
template <lab5_type T, bool PAIRS>
static __global__ void __launch_bounds__(NT)
scatter_tiles(const uint32_t *keys, const uint32_t *values, size_t n, int pass, const uint32_t *counts,
              uint32_t *keys_out, uint32_t *values_out)
{
    // TODO(Step 5.1): tile into shared memory (coalesced; past the end pad with lab5_unorder(0xffffffff, T), every digit 15, ranked last, never written out); take your VT consecutive keys; count them, keeping each key's rank among yours; scan; digit starts from the totals (packed like the counters; index total[] only with loop constants); ranks; keys (values) to shared memory at their ranks; base[d] = counts[d * tiles + tile] - digit start; write out coalesced (about 56 lines)
}

template <lab5_type T, bool PAIRS>
struct digit4_sort {
    static int run(const lab5_sort_io *io, cudaStream_t stream)
    {
        // TODO(Step 5.1): check the counts fit the workspace; lab5_count_scan_scatter with count_tiles, scatter_tiles and DIGITS x tiles counts (about 5 lines)
        (void)io; (void)stream;
        return KIT_TODO;
    }
};

extern "C" int lab5_digit_4bit(const lab5_sort_io *io, cudaStream_t stream)
{
    return lab5_dispatch<digit4_sort>(io, stream);
}
