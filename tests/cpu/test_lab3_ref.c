/* CPU suite for lab3: the reference scans and compaction, the tile math, the
 * packing of tile statuses and the keep predicate (lab3_tile.h, shared with the
 * kernels). No GPU needed. */
#include "kit_test.h"
#include "lab3.h"

#include <stdlib.h>
#include <string.h>

/* ---- reference scans -------------------------------------------------------------- */

Test(lab3_ref, scans_match_brute_force_sums)
{
    enum { N = 300 };
    int32_t a[N], inc[N], exc[N];
    int64_t b[N], inc64[N], exc64[N];
    kit_fill_i32(a, N, 5, -(1 << 30), 1 << 30);
    kit_fill_i64(b, N, 5, -((int64_t)1 << 40), (int64_t)1 << 40);
    lab3_ref_scan_i32(a, inc, N, 0);
    lab3_ref_scan_i32(a, exc, N, 1);
    lab3_ref_scan_i64(b, inc64, N, 0);
    lab3_ref_scan_i64(b, exc64, N, 1);
    for (int i = 0; i < N; i++) {
        uint32_t s = 0;
        uint64_t s64 = 0;
        for (int j = 0; j < i; j++) {
            s += (uint32_t)a[j];
            s64 += (uint64_t)b[j];
        }
        cr_assert(eq(i32, exc[i], (int32_t)s), "exclusive i32 at %d", i);
        cr_assert(eq(i32, inc[i], (int32_t)(s + (uint32_t)a[i])), "inclusive i32 at %d", i);
        cr_assert(eq(i64, exc64[i], (int64_t)s64), "exclusive i64 at %d", i);
        cr_assert(eq(i64, inc64[i], (int64_t)(s64 + (uint64_t)b[i])), "inclusive i64 at %d", i);
    }
}

Test(lab3_ref, inclusive_is_exclusive_plus_input)
{
    enum { N = 5000 };
    static int32_t a[N], inc[N], exc[N];
    kit_fill_i32(a, N, 9, -(1 << 30), 1 << 30);
    lab3_ref_scan_i32(a, inc, N, 0);
    lab3_ref_scan_i32(a, exc, N, 1);
    cr_assert(eq(i32, exc[0], 0));
    for (int i = 0; i < N; i++)
        cr_assert(eq(u32, (uint32_t)exc[i] + (uint32_t)a[i], (uint32_t)inc[i]), "at %d", i);
    for (int i = 1; i < N; i++)
        cr_assert(eq(i32, exc[i], inc[i - 1]), "at %d", i);
}

Test(lab3_ref, int32_sums_wrap_and_int64_sums_do_not)
{
    int32_t a[4] = { INT32_MAX, 1, INT32_MIN, -1 }, out[4];
    lab3_ref_scan_i32(a, out, 4, 0);
    cr_assert(eq(i32, out[1], INT32_MIN)); /* 2^31 - 1 + 1 wraps */
    cr_assert(eq(i32, out[2], 0));
    cr_assert(eq(i32, out[3], -1));
    int64_t b[3] = { (int64_t)1 << 40, (int64_t)1 << 40, (int64_t)1 << 40 }, o64[3];
    lab3_ref_scan_i64(b, o64, 3, 0);
    cr_assert(eq(i64, o64[2], (int64_t)3 << 40));
}

Test(lab3_ref, in_place_equals_out_of_place)
{
    enum { N = 1000 };
    static int64_t a[N], b[N], out[N];
    kit_fill_i64(a, N, 11, -1000, 1000);
    memcpy(b, a, sizeof a);
    lab3_ref_scan_i64(a, out, N, 1);
    lab3_ref_scan_i64(b, b, N, 1);
    cr_assert(eq(int, memcmp(out, b, sizeof b), 0));
    lab3_ref_scan_i32(NULL, NULL, 0, 0); /* n = 0 touches nothing */
}

Test(lab3_ref, select_keeps_order_and_works_in_place)
{
    enum { N = 20000 };
    static int32_t a[N], b[N], out[N];
    kit_fill_i32(a, N, 13, -(1 << 30), 1 << 30);
    memcpy(b, a, sizeof a);
    size_t kept = lab3_ref_select(a, out, N, LAB3_I32, 50);
    size_t kept_in_place = lab3_ref_select(b, b, N, LAB3_I32, 50);
    cr_assert(eq(sz, kept, kept_in_place));
    cr_assert(eq(int, memcmp(out, b, kept * sizeof *b), 0));
    size_t j = 0; /* out is exactly the kept items of a, in order */
    for (size_t i = 0; i < N; i++)
        if (lab3_keep((uint32_t)a[i], 50))
            cr_assert(eq(i32, out[j++], a[i]));
    cr_assert(eq(sz, j, kept));
}

/* ---- the keep predicate ------------------------------------------------------------ */

Test(lab3_keep, rates_match_the_percentage)
{
    enum { N = 100000 };
    const uint32_t pct[] = { 0, 1, 50, 100 };
    for (int k = 0; k < 4; k++) {
        size_t kept = 0;
        for (uint64_t i = 0; i < N; i++)
            kept += (size_t)lab3_keep(kit_hash64(3, i), pct[k]);
        double rate = 100.0 * (double)kept / N;
        if (pct[k] == 0 || pct[k] == 100)
            cr_assert(eq(dbl, rate, (double)pct[k]));
        else
            cr_assert(rate > pct[k] * 0.8 && rate < pct[k] * 1.2, "keep %u%%: got %.2f%%", pct[k], rate);
    }
}

/* ---- tiles ---------------------------------------------------------------------------- */

Test(lab3_tiles, shapes_in_lab3_h_are_valid)
{
    /* whole warps per block, odd VT for the conflict-free transpose, select-if's kept
     * items of a thread fit a 32-bit mask, every tile at least the workspace's unit */
    const int nts[] = { LAB3_HS_NT, LAB3_WARP_NT, LAB3_BLOCKED_NT, LAB3_TUNED_NT, LAB3_SELECT_NT };
    for (int k = 0; k < 5; k++)
        cr_assert(nts[k] % 32 == 0 && nts[k] <= 1024 && nts[k] >= LAB3_MIN_TILE, "NT = %d", nts[k]);
    cr_assert(LAB3_BLOCKED_VT % 2 == 1 && LAB3_TUNED_VT_I32 % 2 == 1 && LAB3_TUNED_VT_I64 % 2 == 1);
    cr_assert(LAB3_SELECT_VT_I32 <= 32 && LAB3_SELECT_VT_I64 <= 32);
    cr_assert(eq(sz, kit_div_up(LAB3_MAX_N, LAB3_MIN_TILE), ((size_t)1 << 24)), "tile ids fit the 32-bit ticket");
}

Test(lab3_tiles, spine_holds_every_level)
{
    cr_assert(eq(sz, lab3_spine_entries(0, 256), 0));
    cr_assert(eq(sz, lab3_spine_entries(256, 256), 0));
    cr_assert(eq(sz, lab3_spine_entries(257, 256), 2));
    cr_assert(eq(sz, lab3_spine_entries(65537, 256), 257 + 2)); /* 257 totals, then 2 */
    /* Monotone in the tile size: sizing with the smallest tile covers every variant. */
    const size_t n = ((size_t)1 << 30) + 3;
    cr_assert(le(sz, lab3_spine_entries(n, LAB3_BLOCKED_NV), lab3_spine_entries(n, LAB3_MIN_TILE)));
    cr_assert(le(sz, lab3_spine_entries(n, LAB3_WARP_NT), lab3_spine_entries(n, LAB3_MIN_TILE)));
}

Test(lab3_tiles, status_block_has_ticket_and_padding)
{
    cr_assert(eq(sz, lab3_status_bytes(0, 256, 8), LAB3_TICKET_BYTES + LAB3_LOOKBACK_PAD * 8));
    cr_assert(eq(sz, lab3_status_bytes(1000, 256, 16), LAB3_TICKET_BYTES + (LAB3_LOOKBACK_PAD + 4) * 16));
    cr_assert(le(sz, lab3_status_bytes(1u << 24, LAB3_TUNED_NV_I32, 16),
                 lab3_status_bytes(1u << 24, LAB3_MIN_TILE, LAB3_STATUS_ENTRY_MAX)));
    cr_assert(ge(int, LAB3_LOOKBACK_PAD, 31), "lanes of the first window read up to 31 entries before tile 0");
}

Test(lab3_tiles, workspace_status_block_fits_every_layout)
{
    /* Packed entries of the smallest tile, and the pipelines' spaced entries of
     * both their tiles and types, for small n (the padding decides) and large. */
    const size_t sizes[] = { 0, 1, 33, 4099, (size_t)1 << 24, ((size_t)1 << 30) + 3 };
    const size_t pipeline_tiles[] = { LAB3_TMA_NV_I32, LAB3_TMA_NV_I64, LAB3_SELECT_PIPE_NV_I32,
                                      LAB3_SELECT_PIPE_NV_I64 };
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const size_t n = sizes[i], have = lab3_workspace_status_bytes(n);
        cr_assert(ge(sz, have, lab3_status_bytes(n, LAB3_MIN_TILE, LAB3_STATUS_ENTRY_MAX)), "n = %zu", n);
        for (size_t k = 0; k < sizeof pipeline_tiles / sizeof pipeline_tiles[0]; k++)
            cr_assert(ge(sz, have, lab3_status_bytes(n, pipeline_tiles[k], LAB3_PIPE_STATUS_SPACING)),
                      "n = %zu, pipeline tile of %zu values", n, pipeline_tiles[k]);
    }
}

/* ---- status packing ------------------------------------------------------------------- */

Test(lab3_status, pack32_round_trips)
{
    const uint32_t flags[] = { LAB3_STATUS_X, LAB3_STATUS_A, LAB3_STATUS_P };
    const uint32_t values[] = { 0, 1, 0x7fffffffu, 0x80000000u, 0xffffffffu, 123456789u };
    for (int f = 0; f < 3; f++)
        for (int v = 0; v < 6; v++) {
            uint64_t w = lab3_pack32(flags[f], values[v]);
            cr_assert(eq(u32, lab3_flag32(w), flags[f]));
            cr_assert(eq(u32, lab3_value32(w), values[v]));
        }
    cr_assert(eq(u64, lab3_pack32(LAB3_STATUS_X, 0), 0), "a zeroed word reads as X");
}

Test(lab3_status, pack64_round_trips_and_detects_torn_reads)
{
    const uint64_t values[] = { 0, 1, 0xffffffffull, 0x100000000ull, (uint64_t)1 << 63, ~(uint64_t)0,
                                (uint64_t)-((int64_t)1 << 40) };
    for (int v = 0; v < 7; v++) {
        lab3_pair a = lab3_pack64(LAB3_STATUS_A, values[v]);
        lab3_pair p = lab3_pack64(LAB3_STATUS_P, values[v] + 5);
        cr_assert(eq(u32, lab3_flag64(a), LAB3_STATUS_A));
        cr_assert(eq(u64, lab3_value64(a), values[v]));
        cr_assert(eq(u32, lab3_flag64(p), LAB3_STATUS_P));
        cr_assert(eq(u64, lab3_value64(p), values[v] + 5));
        /* Halves from two different stores: never accepted as a valid status. */
        lab3_pair torn1 = { a.lo, p.hi }, torn2 = { p.lo, a.hi };
        lab3_pair zero = { 0, 0 }, torn3 = { a.lo, zero.hi }, torn4 = { zero.lo, p.hi };
        cr_assert(eq(u32, lab3_flag64(torn1), LAB3_STATUS_X));
        cr_assert(eq(u32, lab3_flag64(torn2), LAB3_STATUS_X));
        cr_assert(eq(u32, lab3_flag64(torn3), LAB3_STATUS_X));
        cr_assert(eq(u32, lab3_flag64(torn4), LAB3_STATUS_X));
    }
    lab3_pair zero = { 0, 0 };
    cr_assert(eq(u32, lab3_flag64(zero), LAB3_STATUS_X), "a zeroed pair reads as X");
}

/* Epochs: a flag reads back in its own epoch only; in any other, and from a zeroed
 * word in every epoch, it is X. Epoch 0 (the variants that reset) tags nothing. */
Test(lab3_status, tags_read_back_in_their_epoch_only)
{
    const uint32_t epochs[] = { 0, 1, 2, 3, 4, 12345, LAB3_EPOCH_MAX - 1, LAB3_EPOCH_MAX };
    const uint32_t flags[] = { LAB3_STATUS_X, LAB3_STATUS_A, LAB3_STATUS_P };
    const size_t count = sizeof epochs / sizeof epochs[0];
    for (size_t e = 0; e < count; e++) {
        for (int f = 0; f < 3; f++) {
            uint64_t w = lab3_pack32(lab3_tag(epochs[e], flags[f]), 0xfffffffeu);
            cr_assert(eq(u32, lab3_untag(epochs[e], lab3_flag32(w)), flags[f]));
            cr_assert(eq(u32, lab3_value32(w), 0xfffffffeu));
            for (size_t o = 0; o < count; o++)
                if (o != e)
                    cr_assert(eq(u32, lab3_untag(epochs[o], lab3_flag32(w)), LAB3_STATUS_X),
                              "flag %u of epoch %u read in epoch %u", flags[f], epochs[e], epochs[o]);
            lab3_pair p = lab3_pack64(lab3_tag(epochs[e], flags[f]), 0x8000000100000002ull);
            cr_assert(eq(u32, lab3_untag(epochs[e], lab3_flag64(p)), flags[f]));
            cr_assert(eq(u64, lab3_value64(p), 0x8000000100000002ull));
        }
        cr_assert(eq(u32, lab3_untag(epochs[e], lab3_flag32(0)), LAB3_STATUS_X), "a zeroed word reads as X");
        cr_assert(eq(u32, lab3_tag(0, LAB3_STATUS_P), LAB3_STATUS_P), "epoch 0 tags nothing");
    }
    /* a pair with halves of two epochs is torn: X in both */
    lab3_pair mixed = { lab3_pack32(lab3_tag(7, LAB3_STATUS_P), 1), lab3_pack32(lab3_tag(8, LAB3_STATUS_P), 0) };
    cr_assert(eq(u32, lab3_untag(7, lab3_flag64(mixed)), LAB3_STATUS_X));
    cr_assert(eq(u32, lab3_untag(8, lab3_flag64(mixed)), LAB3_STATUS_X));
}
