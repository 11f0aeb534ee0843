/* lab5_radix.h: the host/device logic of lab5 that needs no GPU to test: the
 * order-preserving bit transforms of the key types, digit extraction, which
 * buffer each pass writes, the onesweep status words and pass plan, and the
 * Merge Path search and tile ranges of the merge sort (how n keys split into
 * tiles, kit_div_up and kit_tile_items, is in kit_hd.h). The kernels and the CPU
 * suite (tests/cpu/test_lab5_radix.c, compiled as C) include the same code. */
#ifndef LAB5_RADIX_H
#define LAB5_RADIX_H

#include <stddef.h>
#include <stdint.h>

#include "kit_hd.h"

/* Key types: every key is a 32-bit word; the type says how to order the words. */
typedef enum { LAB5_U32 = 0, LAB5_I32 = 1, LAB5_F32 = 2 } lab5_type;

/* ---- order-preserving transforms ---------------------------------------------
 * lab5_order maps the bits of a key to an unsigned word whose unsigned order is
 * the key order, so one radix sort of unsigned words sorts every type:
 *   u32: the bits themselves;
 *   i32: flip the sign bit (INT_MIN -> 0, -1 -> 0x7fffffff, 0 -> 0x80000000);
 *   f32: a negative float (sign bit set) has all its bits flipped, a positive one
 *        its sign bit only, so larger magnitudes of negatives come first.
 * The f32 policy (the same as CUB's): -0.0 and +0.0 are EQUAL (both map to the
 * word of +0.0), so a stable sort keeps them in input order and their bits are
 * kept. NaNs are ordered by their bits: NaNs with the sign bit clear after +inf,
 * NaNs with the sign bit set before -inf. Sorts move the original bits; the
 * transform is only used to compare keys and to pick digits. */
#define LAB5_SIGN 0x80000000u
#define LAB5_F32_MINUS_ZERO 0x80000000u /* bits of -0.0f */

KIT_HD uint32_t lab5_order(uint32_t bits, lab5_type type)
{
    if (type == LAB5_I32)
        return bits ^ LAB5_SIGN;
    if (type == LAB5_F32) {
        uint32_t flip = (bits & LAB5_SIGN) ? 0xffffffffu : LAB5_SIGN;
        uint32_t word = bits ^ flip;
        return word == (LAB5_F32_MINUS_ZERO ^ 0xffffffffu) ? LAB5_SIGN : word; /* -0.0 sorts as +0.0 */
    }
    return bits;
}

/* The inverse of the transform (for making data in a given order): the bits of
 * the key whose word is `word`. lab5_order(lab5_unorder(w)) == w for every w but
 * the word -0.0 would have had (which lab5_order never returns). */
KIT_HD uint32_t lab5_unorder(uint32_t word, lab5_type type)
{
    if (type == LAB5_I32)
        return word ^ LAB5_SIGN;
    if (type == LAB5_F32)
        return (word & LAB5_SIGN) ? word ^ LAB5_SIGN : ~word;
    return word;
}

/* key a before key b (strictly), in the key order of `type`. */
KIT_HD int lab5_less(uint32_t a, uint32_t b, lab5_type type)
{
    return lab5_order(a, type) < lab5_order(b, type);
}

/* ---- digits ---------------------------------------------------------------------
 * An LSD radix sort looks at the ordered word `bits` bits at a time, lowest first:
 * pass p sorts by digit p = bits [p*bits, p*bits + bits). */
KIT_HD uint32_t lab5_digit(uint32_t word, int pass, int bits)
{
    return (word >> (pass * bits)) & ((1u << bits) - 1u);
}

KIT_HD int lab5_pass_count(int bits) { return (32 + bits - 1) / bits; }

/* ---- ping-pong buffers -------------------------------------------------------------
 * A sort that writes `writes` times (once per pass) reads the input first and
 * alternates between the output and a scratch buffer, never writing the input.
 * Write j (0-based) goes to the output when writes - 1 - j is even, so the last
 * write always lands in the output. Returns 1 for the output, 0 for the scratch. */
KIT_HD int lab5_write_to_output(int j, int writes) { return (writes - 1 - j) % 2 == 0; }

/* ---- onesweep -------------------------------------------------------------------
 * The digit passes of onesweep (8-bit digits, 4 passes) share one control block
 * of 32-bit words in the workspace:
 *   SUMS     [4][256] digit counts of the whole input, one row per pass; zero
 *            between launches (the histogram kernel's last block reads and zeroes
 *            them)
 *   OFFSETS  [4][256] exclusive scan of each row: where each digit's keys start
 *   TICKETS  the histogram kernel's ticket, then one tile ticket per pass
 *   PLAN     bit p set: pass p must run (see lab5_plan)
 * then, from STATUS on, one status word per (pass, tile, digit), nested
 * [pass][tile][digit] with the digit fastest: the word of pass p, tile t, digit
 * d is at STATUS + (p * tiles + t) * 256 + d, where tiles = kit_div_up(n, NV) is
 * the tile count of the pass kernel that runs (NV its tile: keys, pairs and the
 * one-tile shape differ). The workspace holds lab5_onesweep_words(tiles) for the
 * smallest tile (LAB5_ONESWEEP_MIN_NV: the most tiles). */
enum {
    LAB5_OS_BITS = 8,
    LAB5_OS_DIGITS = 1 << LAB5_OS_BITS,
    LAB5_OS_PASSES = 32 / LAB5_OS_BITS,
    LAB5_OS_SUMS = 0,
    LAB5_OS_OFFSETS = LAB5_OS_SUMS + LAB5_OS_PASSES * LAB5_OS_DIGITS,
    LAB5_OS_HIST_TICKET = LAB5_OS_OFFSETS + LAB5_OS_PASSES * LAB5_OS_DIGITS,
    LAB5_OS_PASS_TICKETS = LAB5_OS_HIST_TICKET + 1,
    LAB5_OS_PLAN = LAB5_OS_PASS_TICKETS + LAB5_OS_PASSES,
    LAB5_OS_STATUS = 4096 /* 16 KB in: the status array starts on its own lines */
};

/* Words of the control block plus the status of `tiles` tiles for every pass. */
KIT_HD size_t lab5_onesweep_words(size_t tiles)
{
    return LAB5_OS_STATUS + (size_t)LAB5_OS_PASSES * tiles * LAB5_OS_DIGITS;
}

/* One status word per (tile, digit): a 2-bit flag over a 30-bit count, written
 * with one 32-bit store and read with one 32-bit load, so a reader sees flag and
 * count together. X (0, what the reset writes): nothing yet. A: the count of this
 * digit in this tile alone. P: the count of this digit in this tile and every
 * tile before it. Counts up to n must fit 30 bits: n < 2^30. */
#define LAB5_STATUS_X 0u
#define LAB5_STATUS_A (1u << 30)
#define LAB5_STATUS_P (2u << 30)
#define LAB5_STATUS_FLAGS (3u << 30)
#define LAB5_STATUS_COUNT (~LAB5_STATUS_FLAGS)
#define LAB5_MAX_N (((size_t)1 << 30) - 1)

KIT_HD uint32_t lab5_status_pack(uint32_t flag, uint32_t count) { return flag | (count & LAB5_STATUS_COUNT); }
KIT_HD uint32_t lab5_status_flag(uint32_t word) { return word & LAB5_STATUS_FLAGS; }
KIT_HD uint32_t lab5_status_count(uint32_t word) { return word & LAB5_STATUS_COUNT; }

/* Which of the 4 passes must run. A pass whose digit is the same for all n keys
 * (one of its 256 counts equals n) would copy the keys in order, so it is
 * skipped: bit p of one_digit_passes says pass p is such a pass. If every pass
 * could be skipped (all keys have the same word), the last one runs anyway: it
 * is the copy into the output. */
KIT_HD uint32_t lab5_plan(uint32_t one_digit_passes)
{
    uint32_t live = ~one_digit_passes & ((1u << LAB5_OS_PASSES) - 1u);
    return live ? live : 1u << (LAB5_OS_PASSES - 1);
}

/* How many passes run, and how many of them run before pass p. */
KIT_HD int lab5_popcount4(uint32_t mask)
{
    return (int)(mask & 1) + (int)(mask >> 1 & 1) + (int)(mask >> 2 & 1) + (int)(mask >> 3 & 1);
}
KIT_HD int lab5_live_before(uint32_t live, int pass) { return lab5_popcount4(live & ((1u << pass) - 1u)); }

/* ---- merge sort --------------------------------------------------------------------
 * Merge Path search (Step 5.4): how many items of A are among the first `diag`
 * items of the stable merge of A and B (on equal keys, A's item first). The answer
 * lies on the cross diagonal a + b = diag, so one binary search over a in
 * [max(0, diag - b_count), min(diag, a_count)] finds it: the first a for which
 * a[a] would NOT be emitted before b[diag - 1 - a], i.e. b[diag - 1 - a] < a[a]. */
KIT_HD int64_t lab5_merge_path(const uint32_t *a, int64_t a_count, const uint32_t *b, int64_t b_count,
                               int64_t diag, lab5_type type)
{
    // TODO(Step 5.4): binary search on the cross diagonal; A's item goes first unless B's is strictly less (about 10 lines)
    (void)a; (void)b; (void)b_count; (void)type;
    return diag < a_count ? diag : a_count; /* wrong: replace with the search */
}

/* The ranges of tile t in a merge pass that merges sorted runs of `run` keys
 * (a multiple of the tile size nv) pairwise into runs of 2 * run: the tile's
 * outputs are [t * nv, t * nv + nv) (clipped to n), all inside one pair of runs,
 * A = [a_begin, a_end) and B = [a_end, b_end); diag_begin and diag_end are the
 * tile's first and one-past-last outputs counted from the pair's start. */
typedef struct {
    int64_t a_begin, a_end, b_end, diag_begin, diag_end;
} lab5_merge_tile;

KIT_HD lab5_merge_tile lab5_merge_tile_at(size_t n, size_t run, size_t nv, size_t t)
{
    lab5_merge_tile m;
    size_t out = t * nv, pair = out / (2 * run) * (2 * run);
    size_t a_end = pair + run < n ? pair + run : n;
    size_t b_end = pair + 2 * run < n ? pair + 2 * run : n;
    size_t out_end = out + nv < n ? out + nv : n;
    m.a_begin = (int64_t)pair;
    m.a_end = (int64_t)a_end;
    m.b_end = (int64_t)b_end;
    m.diag_begin = (int64_t)(out - pair);
    m.diag_end = (int64_t)(out_end - pair);
    return m;
}

/* Merge passes after tiles of nv keys are sorted: runs double until one covers n. */
KIT_HD int lab5_merge_passes(size_t n, size_t nv)
{
    int passes = 0;
    for (size_t run = nv; run < n; run *= 2)
        passes++;
    return passes;
}

#endif
