/* CPU suite for lab5: the bit transforms both ways, digit extraction, tile and
 * ping-pong arithmetic, onesweep's status words and plan, the Merge Path search
 * and merge-sort tile ranges (lab5_radix.h, compiled here as plain C), the data
 * generators and the CPU reference sort, each against brute force. No GPU needed. */
#include "kit_test.h"
#include "lab5.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

static float as_float(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static int is_nan_bits(uint32_t bits) { return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu); }

/* Words every transform test runs on: edges of every type and random words. */
static uint32_t *test_words(size_t *count)
{
    static const uint32_t edges[] = { 0u,          1u,          0x7fffffffu, 0x80000000u, 0x80000001u, 0xffffffffu,
                                      0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u,
                                      0x3f800000u, 0xbf800000u, 0x00800000u, 0x80800000u, 0x007fffffu, 0x807fffffu };
    size_t ne = sizeof edges / sizeof edges[0], nr = 4000;
    uint32_t *w = malloc((ne + nr) * sizeof *w);
    memcpy(w, edges, sizeof edges);
    for (size_t i = 0; i < nr; i++)
        w[ne + i] = (uint32_t)kit_hash64(77, i);
    *count = ne + nr;
    return w;
}

/* ---- transforms --------------------------------------------------------------------- */

Test(lab5_radix, u32_and_i32_orders_match_the_integer_order)
{
    size_t n;
    uint32_t *w = test_words(&n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j += 37) {
            uint32_t a = w[i], b = w[j];
            cr_assert(eq(int, lab5_order(a, LAB5_U32) < lab5_order(b, LAB5_U32), a < b));
            cr_assert(eq(int, lab5_order(a, LAB5_I32) < lab5_order(b, LAB5_I32), (int32_t)a < (int32_t)b),
                      "i32 %d vs %d", (int32_t)a, (int32_t)b);
        }
    free(w);
}

Test(lab5_radix, f32_order_matches_float_comparison_for_numbers)
{
    size_t n;
    uint32_t *w = test_words(&n);
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j += 31) {
            uint32_t a = w[i], b = w[j];
            if (is_nan_bits(a) || is_nan_bits(b))
                continue;
            /* IEEE comparison: -0.0 == +0.0, so neither is less */
            cr_assert(eq(int, lab5_less(a, b, LAB5_F32), as_float(a) < as_float(b)), "%g vs %g (bits %08x %08x)",
                      (double)as_float(a), (double)as_float(b), a, b);
        }
    free(w);
}

Test(lab5_radix, f32_zeros_are_equal_and_nans_go_to_the_ends)
{
    uint32_t minus_zero = 0x80000000u, plus_zero = 0u;
    cr_assert(eq(u32, lab5_order(minus_zero, LAB5_F32), lab5_order(plus_zero, LAB5_F32)));
    cr_assert(not(lab5_less(minus_zero, plus_zero, LAB5_F32)));
    cr_assert(not(lab5_less(plus_zero, minus_zero, LAB5_F32)));
    uint32_t nan = 0x7fc00000u, minus_nan = 0xffc00000u, inf = 0x7f800000u, minus_inf = 0xff800000u;
    cr_assert(lab5_less(inf, nan, LAB5_F32), "NaNs with the sign bit clear after +inf");
    cr_assert(lab5_less(minus_nan, minus_inf, LAB5_F32), "NaNs with the sign bit set before -inf");
    cr_assert(lab5_less(nan, 0x7fc00001u, LAB5_F32), "positive NaNs by their bits");
    cr_assert(lab5_less(0xffc00001u, minus_nan, LAB5_F32), "negative NaNs by their bits, reversed");
}

Test(lab5_radix, unorder_inverts_order)
{
    size_t n;
    uint32_t *w = test_words(&n);
    for (int t = LAB5_U32; t <= LAB5_F32; t++)
        for (size_t i = 0; i < n; i++) {
            uint32_t bits = w[i];
            uint32_t back = lab5_unorder(lab5_order(bits, (lab5_type)t), (lab5_type)t);
            /* the only word that does not come back is -0.0, which sorts as +0.0 */
            uint32_t expected = t == LAB5_F32 && bits == 0x80000000u ? 0u : bits;
            cr_assert(eq(u32, back, expected), "type %d bits %08x", t, bits);
            if (!(t == LAB5_F32 && bits == (0x80000000u ^ 0xffffffffu))) /* the word -0.0 would have had */
                cr_assert(eq(u32, lab5_order(lab5_unorder(bits, (lab5_type)t), (lab5_type)t), bits),
                          "type %d word %08x", t, bits);
        }
    free(w);
}

Test(lab5_radix, the_all_ones_word_is_the_largest_key_of_every_type)
{
    for (int t = LAB5_U32; t <= LAB5_F32; t++) {
        uint32_t last = lab5_unorder(0xffffffffu, (lab5_type)t);
        cr_assert(eq(u32, lab5_order(last, (lab5_type)t), 0xffffffffu));
        for (int pass = 0; pass < 4; pass++)
            cr_assert(eq(u32, lab5_digit(lab5_order(last, (lab5_type)t), pass, 8), 255u));
    }
}

/* ---- digits, tiles, buffers ----------------------------------------------------------- */

Test(lab5_radix, digits_rebuild_the_word)
{
    int widths[] = { 1, 4, 8 };
    for (int k = 0; k < 3; k++) {
        int bits = widths[k];
        cr_assert(eq(int, lab5_pass_count(bits), 32 / bits));
        for (uint64_t i = 0; i < 1000; i++) {
            uint32_t word = (uint32_t)kit_hash64(3, i), rebuilt = 0;
            for (int p = 0; p < lab5_pass_count(bits); p++) {
                uint32_t d = lab5_digit(word, p, bits);
                cr_assert(lt(u32, d, 1u << bits));
                rebuilt |= d << (p * bits);
            }
            cr_assert(eq(u32, rebuilt, word));
        }
    }
    cr_assert(eq(u32, lab5_digit(0x12345678u, 0, 8), 0x78u));
    cr_assert(eq(u32, lab5_digit(0x12345678u, 3, 8), 0x12u));
    cr_assert(eq(u32, lab5_digit(0x12345678u, 1, 4), 0x7u));
}

Test(lab5_radix, the_last_write_lands_in_the_output_and_writes_alternate)
{
    for (int writes = 1; writes <= 33; writes++) {
        cr_assert(eq(int, lab5_write_to_output(writes - 1, writes), 1));
        for (int j = 1; j < writes; j++)
            cr_assert(ne(int, lab5_write_to_output(j, writes), lab5_write_to_output(j - 1, writes)),
                      "write %d of %d reads what write %d wrote", j, writes, j - 1);
    }
}

/* ---- onesweep ------------------------------------------------------------------------- */

Test(lab5_radix, status_words_pack_flag_and_count)
{
    uint32_t flags[] = { LAB5_STATUS_X, LAB5_STATUS_A, LAB5_STATUS_P };
    uint32_t counts[] = { 0, 1, 7680, (uint32_t)LAB5_MAX_N };
    for (int f = 0; f < 3; f++)
        for (int c = 0; c < 4; c++) {
            uint32_t w = lab5_status_pack(flags[f], counts[c]);
            cr_assert(eq(u32, lab5_status_flag(w), flags[f]));
            cr_assert(eq(u32, lab5_status_count(w), counts[c]));
        }
    cr_assert(eq(u32, lab5_status_pack(LAB5_STATUS_X, 0), 0u), "a zeroed word reads as X");
    cr_assert(ne(u32, LAB5_STATUS_A, LAB5_STATUS_P));
}

Test(lab5_radix, plan_skips_one_digit_passes_and_keeps_one)
{
    cr_assert(eq(u32, lab5_plan(0x0), 0xfu), "random keys: every pass");
    cr_assert(eq(u32, lab5_plan(0xc), 0x3u), "high 16 bits equal: passes 2 and 3 skipped");
    cr_assert(eq(u32, lab5_plan(0x5), 0xau));
    cr_assert(eq(u32, lab5_plan(0xf), 0x8u), "all keys equal: the last pass copies");
    for (uint32_t live = 1; live < 16; live++) {
        int before = 0;
        for (int p = 0; p < 4; p++) {
            cr_assert(eq(int, lab5_live_before(live, p), before));
            before += (int)(live >> p & 1);
        }
        cr_assert(eq(int, lab5_popcount4(live), before));
    }
}

Test(lab5_radix, onesweep_control_block_fits_before_the_status)
{
    cr_assert(lt(int, LAB5_OS_PLAN, LAB5_OS_STATUS));
    cr_assert(eq(int, LAB5_OS_STATUS % 4, 0), "16-byte aligned status words");
    cr_assert(eq(sz, lab5_onesweep_words(3), (size_t)LAB5_OS_STATUS + 4 * 3 * 256));
    cr_assert(ge(int, LAB5_ONESWEEP_NT, 256), "one thread per digit");
    cr_assert(ge(int, LAB5_ONESWEEP_SOLO_NT, 256), "one thread per digit");
    cr_assert(ge(int, LAB5_ONESWEEP_SOLO_NV_PAIRS, LAB5_ONESWEEP_MIN_NV),
              "the status words are sized for the smallest tile");
}

/* ---- merge sort ------------------------------------------------------------------------ */

static int cmp_word(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* count keys sorted by lab5_order of `type`, drawn from `range` ordered words. */
static uint32_t *sorted_run(size_t count, uint32_t range, lab5_type type, uint64_t seed)
{
    uint32_t *k = malloc((count ? count : 1) * sizeof *k);
    for (size_t i = 0; i < count; i++)
        k[i] = (uint32_t)kit_rand_range(seed, i, 0, range - 1) * (0xffffffffu / range);
    qsort(k, count, sizeof *k, cmp_word);
    for (size_t i = 0; i < count; i++)
        k[i] = lab5_unorder(k[i], type);
    return k;
}

Test(lab5_merge, merge_path_matches_brute_force)
{
    size_t shapes[][2] = { { 0, 0 }, { 0, 5 }, { 5, 0 }, { 1, 1 }, { 40, 40 }, { 3, 90 }, { 90, 3 }, { 64, 33 } };
    uint32_t ranges[] = { 1, 3, 1000 };
    for (int s = 0; s < 8; s++)
        for (int r = 0; r < 3; r++)
            for (int t = LAB5_U32; t <= LAB5_F32; t++) {
                size_t na = shapes[s][0], nb = shapes[s][1];
                uint32_t *a = sorted_run(na, ranges[r], (lab5_type)t, 11 + s);
                uint32_t *b = sorted_run(nb, ranges[r], (lab5_type)t, 97 + s);
                /* brute force: merge and count A's items among the first diag */
                size_t i = 0, j = 0;
                for (size_t diag = 0; diag <= na + nb; diag++) {
                    int64_t got = lab5_merge_path(a, (int64_t)na, b, (int64_t)nb, (int64_t)diag, (lab5_type)t);
                    cr_assert(eq(i64, got, (int64_t)i), "na %zu nb %zu diag %zu type %d", na, nb, diag, t);
                    if (diag == na + nb)
                        break;
                    /* A first unless B is strictly less: stable */
                    if (j >= nb || (i < na && !lab5_less(b[j], a[i], (lab5_type)t)))
                        i++;
                    else
                        j++;
                }
                free(a);
                free(b);
            }
}

Test(lab5_merge, merge_tiles_split_every_pass_exactly)
{
    size_t nv = 8, ns[] = { 1, 7, 8, 9, 63, 64, 65, 200 };
    for (int k = 0; k < 8; k++) {
        size_t n = ns[k], tiles = kit_div_up(n, nv);
        int passes = lab5_merge_passes(n, nv);
        size_t run = nv;
        for (int p = 0; p < passes; p++, run *= 2) {
            cr_assert(lt(sz, run, n), "a pass only while one run does not cover n");
            for (size_t t = 0; t < tiles; t++) {
                lab5_merge_tile m = lab5_merge_tile_at(n, run, nv, t);
                cr_assert(eq(i64, m.a_begin + m.diag_begin, (int64_t)(t * nv)), "the tile's first output");
                cr_assert(eq(i64, m.diag_end - m.diag_begin, (int64_t)kit_tile_items(n, nv, t)));
                cr_assert(le(i64, m.diag_end, m.b_end - m.a_begin), "inside its pair of runs");
                cr_assert(eq(i64, m.a_begin % (int64_t)(2 * run), 0), "pairs start at multiples of 2 run");
                cr_assert(le(i64, m.a_end - m.a_begin, (int64_t)run));
                cr_assert(le(i64, m.a_end, m.b_end));
                cr_assert(le(i64, m.b_end, (int64_t)n));
            }
        }
        cr_assert(ge(sz, run, n), "after the passes one run covers n (n = %zu)", n);
    }
}

/* ---- data and reference --------------------------------------------------------------- */

/* Brute force: stable insertion sort of (key, index) by lab5_less. */
static void brute_sort(const uint32_t *keys, size_t n, lab5_type type, uint32_t *out, uint32_t *index)
{
    for (size_t i = 0; i < n; i++) {
        size_t j = i;
        while (j > 0 && lab5_less(keys[i], out[j - 1], type)) {
            out[j] = out[j - 1];
            index[j] = index[j - 1];
            j--;
        }
        out[j] = keys[i];
        index[j] = (uint32_t)i;
    }
}

Test(lab5_ref, reference_is_the_stable_sort)
{
    size_t ns[] = { 0, 1, 2, 31, 257, 3000 };
    for (int t = LAB5_U32; t <= LAB5_F32; t++)
        for (int d = 0; d < LAB5_DIST_COUNT; d++)
            for (int k = 0; k < 6; k++) {
                size_t n = ns[k];
                uint32_t *keys = malloc((n + 1) * 4), *values = malloc((n + 1) * 4), *ko = malloc((n + 1) * 4),
                         *vo = malloc((n + 1) * 4), *bk = malloc((n + 1) * 4), *bi = malloc((n + 1) * 4);
                lab5_generate(keys, n, (lab5_type)t, (lab5_dist)d, 5 + k);
                for (size_t i = 0; i < n; i++)
                    values[i] = (uint32_t)i;
                lab5_ref_sort(keys, values, n, (lab5_type)t, ko, vo);
                brute_sort(keys, n, (lab5_type)t, bk, bi);
                for (size_t i = 0; i < n; i++) {
                    cr_assert(eq(u32, ko[i], bk[i]), "%s %s n=%zu key %zu", lab5_type_name((lab5_type)t),
                              lab5_dist_names[d], n, i);
                    cr_assert(eq(u32, vo[i], bi[i]), "%s %s n=%zu value %zu", lab5_type_name((lab5_type)t),
                              lab5_dist_names[d], n, i);
                }
                lab5_ref_sort(keys, NULL, n, (lab5_type)t, ko, NULL); /* keys only */
                cr_assert(eq(int, memcmp(ko, bk, n * 4), 0));
                free(keys), free(values), free(ko), free(vo), free(bk), free(bi);
            }
}

Test(lab5_ref, float_specials_in_the_defined_order)
{
    /* input: +0, -0, NaN, -NaN, -inf, inf, 1, -1, -0, +0 */
    uint32_t keys[] = { 0u,          0x80000000u, 0x7fc00000u, 0xffc00000u, 0xff800000u,
                        0x7f800000u, 0x3f800000u, 0xbf800000u, 0x80000000u, 0u };
    uint32_t values[10], ko[10], vo[10];
    for (int i = 0; i < 10; i++)
        values[i] = (uint32_t)i;
    lab5_ref_sort(keys, values, 10, LAB5_F32, ko, vo);
    /* -NaN, -inf, -1, then the four zeros in input order (+0 -0 -0 +0), 1, inf, NaN */
    uint32_t expect_keys[] = { 0xffc00000u, 0xff800000u, 0xbf800000u, 0u,          0x80000000u,
                               0x80000000u, 0u,          0x3f800000u, 0x7f800000u, 0x7fc00000u };
    uint32_t expect_values[] = { 3, 4, 7, 0, 1, 8, 9, 6, 5, 2 };
    for (int i = 0; i < 10; i++) {
        cr_assert(eq(u32, ko[i], expect_keys[i]), "key %d", i);
        cr_assert(eq(u32, vo[i], expect_values[i]), "value %d", i);
    }
}

Test(lab5_ref, distributions_have_their_shape)
{
    enum { N = 5000 };
    static uint32_t k[N];
    for (int t = LAB5_U32; t <= LAB5_F32; t++) {
        lab5_type type = (lab5_type)t;
        lab5_generate(k, N, type, LAB5_SORTED, 1);
        for (int i = 1; i < N; i++)
            cr_assert(not(lab5_less(k[i], k[i - 1], type)), "sorted at %d", i);
        lab5_generate(k, N, type, LAB5_REVERSE, 1);
        for (int i = 1; i < N; i++)
            cr_assert(not(lab5_less(k[i - 1], k[i], type)), "reverse at %d", i);
        lab5_generate(k, N, type, LAB5_EQUAL, 1);
        for (int i = 1; i < N; i++)
            cr_assert(eq(u32, k[i], k[0]));
        lab5_generate(k, N, type, LAB5_LOWBITS, 1);
        for (int i = 0; i < N; i++)
            cr_assert(lt(u32, k[i], 1u << 16));
        lab5_generate(k, N, type, LAB5_FEW, 1);
        uint32_t distinct[N];
        memcpy(distinct, k, sizeof k);
        qsort(distinct, N, 4, cmp_word);
        int count = 1;
        for (int i = 1; i < N; i++)
            count += distinct[i] != distinct[i - 1];
        cr_assert(eq(int, count, 16), "%s few: 16 distinct keys", lab5_type_name(type));
        if (type == LAB5_F32) {
            int minus_zero = 0, nan = 0;
            for (int i = 0; i < N; i++) {
                minus_zero |= k[i] == 0x80000000u;
                nan |= is_nan_bits(k[i]);
            }
            cr_assert(minus_zero && nan, "f32 few holds -0.0 and NaNs");
        }
    }
}

Test(lab5_ref, generators_do_not_depend_on_the_thread_count)
{
    enum { N = 20000 };
    static uint32_t a[N], b[N];
    lab5_generate(a, N, LAB5_F32, LAB5_FEW, 9);
    omp_set_num_threads(1);
    lab5_generate(b, N, LAB5_F32, LAB5_FEW, 9);
    cr_assert(eq(int, memcmp(a, b, sizeof a), 0));
}
