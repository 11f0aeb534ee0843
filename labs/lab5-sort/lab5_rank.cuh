/* lab5_rank.cuh: the tile of an 8-bit digit pass, shared by digit-8bit-warp-rank
 * (Step 5.2) and onesweep (Step 5.3): load a tile warp-striped, count its digits
 * per warp, turn the counts into where each warp's keys of each digit start,
 * rank every key with warp match (stable), put it at its rank in shared memory,
 * and write the tile out digit by digit.
 *
 * Warp-striped: warp w owns the keys [w * VT * 32, (w + 1) * VT * 32) of the tile
 * and lane l holds its item u at w * VT * 32 + u * 32 + l. Every load instruction
 * of a warp reads 128 contiguous bytes (coalesced), and the order (warp, u, lane)
 * is the input order, which is what makes the ranking stable: keys are ranked u
 * by u, and inside one u by lane. (16-byte loads would give a lane 4 neighbouring
 * keys and break that order; the ranking would then need a transpose first.) */
#ifndef LAB5_RANK_CUH
#define LAB5_RANK_CUH

#include "lab5_sort.cuh"

#define LAB5_DIGITS ((int)LAB5_OS_DIGITS) /* 8-bit digits: 256 of them */

template <lab5_type T>
static __device__ __forceinline__ uint32_t lab5_digit8(uint32_t key, int pass)
{
    return lab5_digit(lab5_order(key, T), pass, LAB5_OS_BITS);
}

/* Shared memory of the ranking: per warp and digit, the warp's count of that
 * digit, then (after lab5_warp_starts) the tile position of its first such key. */
template <int NT>
struct lab5_rank_storage {
    uint32_t warp_digit[NT / 32][LAB5_DIGITS];
    uint32_t scan_warps[LAB5_DIGITS / 32]; /* lab5_digit_scan's warp totals */
    uint32_t base[LAB5_DIGITS];            /* global position of tile position 0, per digit */
};

/* Load the tile of count keys (and values) that starts at `offset`, warp-striped.
 * Items past the end get the key whose ordered word is all ones (digit 255 in
 * every pass, ranked after every real key) and the value 0; they are never
 * stored. */
template <int NT, int VT, lab5_type T, bool PAIRS>
static __device__ __forceinline__ void lab5_load_striped(const uint32_t *keys, const uint32_t *values, size_t offset,
                                                         int count, uint32_t (&k)[VT], uint32_t (&v)[VT])
{
    const int first = (int)(threadIdx.x / 32) * VT * 32 + (int)lab5_lane();
    if (count == NT * VT) {
#pragma unroll
        for (int u = 0; u < VT; u++)
            k[u] = keys[offset + first + u * 32];
        if (PAIRS) {
#pragma unroll
            for (int u = 0; u < VT; u++)
                v[u] = values[offset + first + u * 32];
        }
    } else {
        const uint32_t last_key = lab5_unorder(0xffffffffu, T);
#pragma unroll
        for (int u = 0; u < VT; u++) {
            int i = first + u * 32;
            k[u] = i < count ? keys[offset + i] : last_key;
            if (PAIRS)
                v[u] = i < count ? values[offset + i] : 0u;
        }
    }
}

/* Count the warp's digits into its own row of counters (shared-memory atomics). */
template <int VT, lab5_type T>
static __device__ __forceinline__ void lab5_warp_histogram(const uint32_t (&k)[VT], int pass, uint32_t *row)
{
    for (int d = (int)lab5_lane(); d < LAB5_DIGITS; d += 32)
        row[d] = 0;
    __syncwarp();
#pragma unroll
    for (int u = 0; u < VT; u++)
        atomicAdd(&row[lab5_digit8<T>(k[u], pass)], 1u);
}

/* Thread t < 256, after a barrier that follows lab5_warp_histogram: replace digit
 * t's per-warp counts by their exclusive prefix over the warps, and return the
 * tile's count of digit t. */
template <int NT>
static __device__ __forceinline__ uint32_t lab5_warp_prefix(lab5_rank_storage<NT> &s)
{
    uint32_t total = 0;
#pragma unroll
    for (int w = 0; w < NT / 32; w++) {
        uint32_t c = s.warp_digit[w][threadIdx.x];
        s.warp_digit[w][threadIdx.x] = total;
        total += c;
    }
    return total;
}

/* Exclusive scan of one count per digit (thread t < 256 holds digit t's; the
 * others pass 0): where each digit's keys start in the sorted tile. Every thread
 * of the block must call it (one barrier); warp_totals: 8 shared words. */
static __device__ __forceinline__ uint32_t lab5_digit_scan(uint32_t count, uint32_t *warp_totals)
{
    const unsigned lane = lab5_lane(), warp = threadIdx.x / 32;
    uint32_t inclusive = count;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        uint32_t y = __shfl_up_sync(LAB5_FULL_MASK, inclusive, d);
        if (lane >= (unsigned)d)
            inclusive += y;
    }
    if (threadIdx.x < LAB5_DIGITS && lane == 31)
        warp_totals[warp] = inclusive;
    __syncthreads();
    uint32_t before = 0;
    if (threadIdx.x < LAB5_DIGITS)
        for (unsigned w = 0; w < warp; w++)
            before += warp_totals[w];
    return before + inclusive - count;
}

/* Thread t < 256: make every warp's entry for digit t a tile position (add where
 * digit t starts in the tile). */
template <int NT>
static __device__ __forceinline__ void lab5_warp_starts(lab5_rank_storage<NT> &s, uint32_t digit_start)
{
#pragma unroll
    for (int w = 0; w < NT / 32; w++)
        s.warp_digit[w][threadIdx.x] += digit_start;
}

/* The lanes of the warp whose 8-bit digit equals mine (every lane calls it; the
 * full warp takes part). __match_any_sync(LAB5_FULL_MASK, d) answers this in one
 * instruction, but for a few bits eight ballots are faster: bit b's ballot is the
 * set of lanes whose bit b is 1; keep it where my bit is 1, its complement where
 * it is 0, and the AND over the 8 bits leaves the lanes that agree on every bit
 * (the multisplit idea). Measured on an H100 (plots/data/lab5_peers_h100.csv):
 * onesweep 0.696 ms with __match_any_sync, 0.523 ms with the ballots (2^24 keys). */
static __device__ __forceinline__ unsigned lab5_digit_peers(uint32_t d)
{
    // TODO(Step 5.2): peers = all lanes; for each of the 8 bits b: ones = __ballot_sync(LAB5_FULL_MASK, bit b of d); peers &= (bit b of d) ? ones : ~ones (about 7 lines)
    return __match_any_sync(LAB5_FULL_MASK, d); /* correct, slower: replace */
}

/* After a barrier that follows lab5_warp_starts: rank the warp's keys and put each
 * (and its value) at its rank in shared memory. For each u the lanes holding the
 * same digit (the peers, lab5_digit_peers) are numbered by lane; the highest
 * peer reserves that many slots of the digit with one atomicAdd on the warp's
 * counter and passes the first slot to the others with a shuffle. */
template <int VT, lab5_type T, bool PAIRS>
static __device__ __forceinline__ void lab5_rank_to_shared(const uint32_t (&k)[VT], const uint32_t (&v)[VT], int pass,
                                                           uint32_t *row, uint32_t *s_keys, uint32_t *s_values)
{
    // TODO(Step 5.2): per u: peers = lab5_digit_peers(digit); rank among peers = popc(peers below me); the highest peer atomicAdds popc(peers) to row[digit] and shuffles the old value to the peers; store key (and value) at slot + rank (about 14 lines)
    (void)k; (void)v; (void)pass; (void)row; (void)s_keys; (void)s_values;
}

/* After a barrier that follows the ranking and the setting of s.base: write the
 * sorted tile out. Neighbouring threads take neighbouring tile positions, which
 * mostly hold the same digit, so a warp's stores land in a few runs of
 * consecutive addresses. Position i of digit d goes to base[d] + i (unsigned
 * arithmetic: base[d] may be "negative", the sum is the position). */
template <int NT, int VT, lab5_type T, bool PAIRS>
static __device__ __forceinline__ void lab5_scatter_from_shared(const uint32_t *s_keys, const uint32_t *s_values,
                                                                int count, int pass, const uint32_t *base,
                                                                uint32_t *keys_out, uint32_t *values_out)
{
#pragma unroll
    for (int u = 0; u < VT; u++) {
        int i = u * NT + (int)threadIdx.x;
        if (i < count) {
            uint32_t key = s_keys[i];
            uint32_t to = base[lab5_digit8<T>(key, pass)] + (uint32_t)i;
            keys_out[to] = key;
            if (PAIRS)
                values_out[to] = s_values[i];
        }
    }
}

#endif
