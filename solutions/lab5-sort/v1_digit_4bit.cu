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
    // BEGIN SOLUTION (Step 5.1): per word: warp inclusive scan with __shfl_up_sync, lane 31 stores the warp total, barrier, add the totals of earlier warps; total = all warps
    const unsigned lane = lab5_lane(), warp = threadIdx.x / 32;
    uint32_t inclusive[WORDS];
#pragma unroll
    for (int w = 0; w < WORDS; w++) {
        uint32_t x = s.packed[w][threadIdx.x];
        inclusive[w] = x;
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
            uint32_t y = __shfl_up_sync(KIT_FULL_MASK, inclusive[w], d);
            if (lane >= (unsigned)d)
                inclusive[w] += y;
        }
        prefix[w] = inclusive[w] - x;
        if (lane == 31)
            s.warp_totals[warp][w] = inclusive[w];
    }
    __syncthreads();
#pragma unroll
    for (int w = 0; w < WORDS; w++) {
        total[w] = 0;
        for (unsigned u = 0; u < WARPS; u++) {
            uint32_t t = s.warp_totals[u][w];
            prefix[w] += u < warp ? t : 0u;
            total[w] += t;
        }
    }
    // STUB: (void)s;
    // STUB: for (int w = 0; w < WORDS; w++) prefix[w] = total[w] = 0;
    // END SOLUTION
}

/* Count the tile's digits (valid keys only) and write counts[d * tiles + tile]. */
template <lab5_type T>
static __global__ void __launch_bounds__(NT) count_tiles(const uint32_t *keys, size_t n, int pass, uint32_t *counts)
{
    // BEGIN SOLUTION (Step 5.1): zero your counters; count your strided keys (count_digit); scan_counters; thread d < 16 writes its digit's total: the field (field_shift) of word d / 2, taken by a loop over w that tests w == d / 2 (total[d / 2] would put total[] in local memory)
    __shared__ counter_storage s;
    const size_t tiles = kit_div_up(n, NV), tile = blockIdx.x;
    const int count = (int)kit_tile_items(n, NV, tile);
    const uint32_t *tile_keys = keys + tile * NV;
#pragma unroll
    for (int w = 0; w < WORDS; w++)
        s.packed[w][threadIdx.x] = 0;
    for (int i = threadIdx.x; i < count; i += NT)
        count_digit(s, digit4<T>(tile_keys[i], pass));
    uint32_t prefix[WORDS], total[WORDS];
    scan_counters(s, prefix, total);
    if (threadIdx.x < DIGITS)
        for (int w = 0; w < WORDS; w++)
            if (w == (int)threadIdx.x / 2)
                counts[threadIdx.x * tiles + tile] = total[w] >> field_shift(threadIdx.x) & 0xffffu;
    // END SOLUTION
}

/* counts = the scanned array: start(d, tile). Rank the tile's keys and scatter. */
template <lab5_type T, bool PAIRS>
static __global__ void __launch_bounds__(NT)
scatter_tiles(const uint32_t *keys, const uint32_t *values, size_t n, int pass, const uint32_t *counts,
              uint32_t *keys_out, uint32_t *values_out)
{
    // BEGIN SOLUTION (Step 5.1): tile into shared memory (coalesced; past the end pad with lab5_unorder(0xffffffff, T), every digit 15, ranked last, never written out); take your VT consecutive keys; count them, keeping each key's rank among yours; scan; digit starts from the totals (packed like the counters; index total[] only with loop constants); ranks; keys (values) to shared memory at their ranks; base[d] = counts[d * tiles + tile] - digit start; write out coalesced
    __shared__ uint32_t s_keys[NV];
    __shared__ uint32_t s_values[PAIRS ? NV : 1];
    __shared__ counter_storage s;
    __shared__ uint32_t base[DIGITS];
    const size_t tiles = kit_div_up(n, NV), tile = blockIdx.x;
    const int count = (int)kit_tile_items(n, NV, tile);
    const size_t offset = tile * NV;

    /* coalesced in, padded with the key whose digits are all 15 (ranked last) */
    for (int i = threadIdx.x; i < NV; i += NT) {
        s_keys[i] = i < count ? keys[offset + i] : lab5_unorder(0xffffffffu, T);
        if (PAIRS)
            s_values[i] = i < count ? values[offset + i] : 0u;
    }
#pragma unroll
    for (int w = 0; w < WORDS; w++)
        s.packed[w][threadIdx.x] = 0;
    __syncthreads();
    uint32_t k[VT], v[VT], mine[VT]; /* mine[j]: rank among this thread's keys of the same digit */
#pragma unroll
    for (int j = 0; j < VT; j++) {
        k[j] = s_keys[threadIdx.x * VT + j]; /* VT odd: the 32 lanes hit 32 banks */
        if (PAIRS)
            v[j] = s_values[threadIdx.x * VT + j];
        mine[j] = count_digit(s, digit4<T>(k[j], pass));
    }
    uint32_t prefix[WORDS], total[WORDS];
    scan_counters(s, prefix, total); /* its barrier: every thread has read its keys */

    /* where each digit starts in the sorted tile, packed like the counters */
    uint32_t start = 0, digit_start = 0;
#pragma unroll
    for (int w = 0; w < WORDS; w++) {
        uint32_t lo = total[w] & 0xffffu, hi = total[w] >> 16;
        uint32_t packed_start = start | (start + lo) << 16;
        if (w == (int)threadIdx.x / 2)
            digit_start = packed_start >> field_shift(threadIdx.x) & 0xffffu; /* thread d < 16: digit d */
        s.packed[w][threadIdx.x] = prefix[w] + packed_start; /* thread t's first slot of each digit */
        start += lo + hi;
    }
#pragma unroll
    for (int j = 0; j < VT; j++) {
        uint32_t d = digit4<T>(k[j], pass);
        uint32_t rank = (s.packed[d / 2][threadIdx.x] >> field_shift(d) & 0xffffu) + mine[j];
        s_keys[rank] = k[j];
        if (PAIRS)
            s_values[rank] = v[j];
    }
    if (threadIdx.x < DIGITS)
        base[threadIdx.x] = counts[threadIdx.x * tiles + tile] - digit_start;
    __syncthreads();
    for (int i = threadIdx.x; i < count; i += NT) {
        uint32_t key = s_keys[i];
        uint32_t to = base[digit4<T>(key, pass)] + (uint32_t)i;
        keys_out[to] = key;
        if (PAIRS)
            values_out[to] = s_values[i];
    }
    // END SOLUTION
}

template <lab5_type T, bool PAIRS>
struct digit4_sort {
    static int run(const lab5_sort_io *io, cudaStream_t stream)
    {
        // BEGIN SOLUTION (Step 5.1): check the counts fit the workspace; lab5_count_scan_scatter with count_tiles, scatter_tiles and DIGITS x tiles counts
        const size_t tiles = kit_div_up(io->n, NV);
        if (DIGITS * tiles > io->ws->counts_words)
            return KIT_CHECK(cudaErrorInvalidValue); /* workspace sized for fewer tiles */
        return lab5_count_scan_scatter(io, PASSES, (unsigned)tiles, NT, io->ws->counts, DIGITS * tiles,
                                       count_tiles<T>, scatter_tiles<T, PAIRS>, stream);
        // STUB: (void)io; (void)stream;
        // STUB: return KIT_TODO;
        // END SOLUTION
    }
};

extern "C" int lab5_digit_4bit(const lab5_sort_io *io, cudaStream_t stream)
{
    return lab5_dispatch<digit4_sort>(io, stream);
}
