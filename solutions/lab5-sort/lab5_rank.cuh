/* lab5_rank.cuh: the tile of an 8-bit digit pass, shared by digit-8bit-warp-rank
 * (Step 5.2) and onesweep (Step 5.3): load a tile warp-striped, count its digits
 * per warp, turn the counts into where each warp's keys of each digit start,
 * rank every key among its warp's peers (lanes with the same digit, found by
 * ballots; stable), put it at its rank in shared memory, and write the tile out
 * digit by digit.
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

/* Warp-striped position of a lane's item u in the tile (see the top of this file). */
template <int VT>
static __device__ __forceinline__ int lab5_striped_index(int u)
{
    return (int)(threadIdx.x / 32) * VT * 32 + u * 32 + (int)lab5_lane();
}

/* Load the tile of count words (keys, or values) that starts at `offset`,
 * warp-striped. Items past the end get `pad`, and are never stored: for keys,
 * the key whose ordered word is all ones (digit 255 in every pass, ranked after
 * every real key, lab5_pad_key). The pads of the last tile do count in that
 * tile's digit 255 (its warp histograms, its count or status word): the last
 * digit of the last tile, so no real key's position depends on it. */
template <int NT, int VT>
static __device__ __forceinline__ void lab5_load_striped(const uint32_t *src, size_t offset, int count, uint32_t pad,
                                                         uint32_t (&w)[VT])
{
    if (count == NT * VT) {
#pragma unroll
        for (int u = 0; u < VT; u++)
            w[u] = src[offset + lab5_striped_index<VT>(u)];
    } else {
#pragma unroll
        for (int u = 0; u < VT; u++) {
            int i = lab5_striped_index<VT>(u);
            w[u] = i < count ? src[offset + i] : pad;
        }
    }
}

template <lab5_type T>
static __device__ __forceinline__ uint32_t lab5_pad_key() { return lab5_unorder(0xffffffffu, T); }

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
 * of the block must call it (one barrier); warp_totals: 8 shared words. It reads
 * warp_totals after its barrier and does not wait at its end: before a second
 * call with the same 8 words there must be a barrier, or a warp that runs ahead
 * overwrites totals another warp is still reading. */
static __device__ __forceinline__ uint32_t lab5_digit_scan(uint32_t count, uint32_t *warp_totals)
{
    const unsigned lane = lab5_lane(), warp = threadIdx.x / 32;
    uint32_t inclusive = count;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        uint32_t y = __shfl_up_sync(KIT_FULL_MASK, inclusive, d);
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

/* The lanes of the warp that agree with me on bit `bit` of d: one ballot of the
 * bit, complemented where my bit is 0 (kit_lanes_agreeing, in PTX so that the
 * vote's predicate also selects the complement: about 2 instructions per bit).
 * The same thing in C (ones = __ballot_sync(...); mine ? ones : ~ones) compiles
 * to 5 per bit: shift, compare, vote, select, and (lecture 5, Step 5.2). */
static __device__ __forceinline__ unsigned lab5_lanes_agreeing_on(uint32_t d, uint32_t bit)
{
    return kit_lanes_agreeing(d, bit);
}

/* The lanes of the warp whose 8-bit digit equals mine (every lane calls it; the
 * full warp takes part). __match_any_sync(KIT_FULL_MASK, d) answers this in one
 * instruction, but a slow one, issued once per key; for a few bits eight ballots
 * are faster: the AND over the 8 bits of the lanes that agree with me on that
 * bit leaves the lanes that agree on every bit (the multisplit idea; lecture 5,
 * Step 5.2, "Finding the peers"). */
static __device__ __forceinline__ unsigned lab5_digit_peers(uint32_t d)
{
    // BEGIN SOLUTION (Step 5.2): peers = all lanes; for each of the 8 bits b: peers &= lab5_lanes_agreeing_on(d, 1u << b)
    unsigned peers = KIT_FULL_MASK;
#pragma unroll
    for (int b = 0; b < 8; b++)
        peers &= lab5_lanes_agreeing_on(d, 1u << b);
    return peers;
    // STUB: return __match_any_sync(KIT_FULL_MASK, d); /* correct, slower: replace */
    // END SOLUTION
}

/* After a barrier that follows lab5_warp_starts: rank the warp's keys and put each
 * at its rank in shared memory. For each u the lanes holding the same digit (the
 * peers, lab5_digit_peers) are numbered by lane; the highest peer reserves that
 * many slots of the digit with one atomicAdd on the warp's counter and passes the
 * first slot to the others with a shuffle. PAIRS: s_rank[i] = where the key at
 * striped position i went (16 bits: a tile holds fewer than 65536 keys), for its
 * value. In shared memory rather than registers: a thread then never holds the
 * ranks and the values at once, which leaves room for bigger tiles. */
template <int VT, lab5_type T, bool PAIRS>
static __device__ __forceinline__ void lab5_rank_to_shared(const uint32_t (&k)[VT], int pass, uint32_t *row,
                                                           uint32_t *s_keys, uint16_t *s_rank)
{
    // BEGIN SOLUTION (Step 5.2): per u: peers = lab5_digit_peers(digit); my place = popc(peers up to and including me); the highest peer (whose place is the peer count) atomicAdds its place to row[digit] and shuffles the old value to the peers; rank = old value + place - 1; store the key there; PAIRS: s_rank[lab5_striped_index<VT>(u)] = rank
    const unsigned lane = lab5_lane(), up_to_me = 0xffffffffu >> (31 - lane);
#pragma unroll
    for (int u = 0; u < VT; u++) {
        uint32_t d = lab5_digit8<T>(k[u], pass);
        unsigned peers = lab5_digit_peers(d);
        int leader = 31 - __clz(peers);
        uint32_t place = (uint32_t)__popc(peers & up_to_me);
        uint32_t first = 0;
        if ((int)lane == leader)
            first = atomicAdd(&row[d], place);
        uint32_t rank = __shfl_sync(KIT_FULL_MASK, first, leader) + place - 1;
        s_keys[rank] = k[u];
        if (PAIRS)
            s_rank[lab5_striped_index<VT>(u)] = (uint16_t)rank;
    }
    // STUB: (void)k; (void)pass; (void)row; (void)s_keys; (void)s_rank;
    // END SOLUTION
}

/* Write the tile's keys out of shared memory, in tile order: neighbouring threads
 * take neighbouring tile positions, which mostly hold the same digit, so a warp's
 * stores land in a few runs of consecutive addresses. Position i of digit d goes
 * to base[d] + i (unsigned arithmetic: base[d] may be "negative", the sum is the
 * position). digits: each position's digit, 4 packed per word, for the values.
 * FULL: the tile holds NT * VT keys, and no position needs a bounds test. */
template <int NT, int VT, lab5_type T, bool FULL>
static __device__ __forceinline__ void lab5_scatter_keys(const uint32_t *s_keys, int count, int pass,
                                                         const uint32_t *base, uint32_t *keys_out,
                                                         uint32_t (&digits)[(VT + 3) / 4])
{
#pragma unroll
    for (int u = 0; u < VT; u++) {
        int i = u * NT + (int)threadIdx.x;
        uint32_t key = s_keys[i], d = lab5_digit8<T>(key, pass);
        digits[u / 4] |= d << 8 * (u % 4);
        if (FULL || i < count)
            keys_out[base[d] + (uint32_t)i] = key;
    }
}

/* The same for the values, with the digits that lab5_scatter_keys kept. (With a
 * FULL version too, the pass kernel of onesweep no longer fits its registers.) */
template <int NT, int VT>
static __device__ __forceinline__ void lab5_scatter_values(const uint32_t *s_values, int count, const uint32_t *base,
                                                           const uint32_t (&digits)[(VT + 3) / 4],
                                                           uint32_t *values_out)
{
#pragma unroll
    for (int u = 0; u < VT; u++) {
        int i = u * NT + (int)threadIdx.x;
        if (i < count)
            values_out[base[digits[u / 4] >> 8 * (u % 4) & 0xff] + (uint32_t)i] = s_values[i];
    }
}

/* After a barrier that follows the ranking and the setting of base: write the
 * sorted tile out, keys first (s_tile holds them), then, with PAIRS, the values,
 * as CUB does. The tile's values (starting at `offset` in `values`, warp-striped
 * like the keys) are loaded before the keys are written, so that the loads are
 * in flight meanwhile (CUB loads them after; the notebook, section 3.5, compares
 * the two); then each value goes where its key went (s_rank), in the same shared
 * memory, and is written out with its key's digit. Every thread of the block
 * calls it. */
template <int NT, int VT, lab5_type T, bool PAIRS>
static __device__ __forceinline__ void lab5_scatter_tile(uint32_t *s_tile, const uint16_t *s_rank,
                                                         const uint32_t *values, size_t offset, int count,
                                                         int pass, const uint32_t *base, uint32_t *keys_out,
                                                         uint32_t *values_out)
{
    const bool full = count == NT * VT;
    uint32_t v[VT], digits[(VT + 3) / 4] = {};
    if (PAIRS)
        lab5_load_striped<NT, VT>(values, offset, count, 0u, v);
    if (full)
        lab5_scatter_keys<NT, VT, T, true>(s_tile, count, pass, base, keys_out, digits);
    else
        lab5_scatter_keys<NT, VT, T, false>(s_tile, count, pass, base, keys_out, digits);
    if (!PAIRS)
        return;
    __syncthreads(); /* every key is out of s_tile */
#pragma unroll
    for (int u = 0; u < VT; u++)
        s_tile[s_rank[lab5_striped_index<VT>(u)]] = v[u];
    __syncthreads();
    lab5_scatter_values<NT, VT>(s_tile, count, base, digits, values_out);
}

#endif
