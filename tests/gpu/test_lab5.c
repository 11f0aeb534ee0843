/* lab5's GPU suite: every sort variant and CUB, keys and pairs (values are the
 * keys' original indices, so a wrong value is a key that lost its value or equal
 * keys that changed order), u32/i32/f32, every distribution, at n = 0, 1, 31, 32,
 * 33, 1023, 1025, every variant's tile size +- 1, 2^20+7 (all of that, each case
 * run twice on the same buffers) and 2^24 (a subset); repeated runs on the same
 * buffers (onesweep's status and sums must be reset); the float edge cases; tiles
 * that hold a single digit value; 2^28+13 pairs for onesweep and cub. Onesweep
 * sorts pairs with two tile shapes (two tiles per SM, or one big one where the GPU
 * chooses it): every pairs case of onesweep runs both, where the GPU can run the big one.
 * One suite per variant (lab5_v0 .. lab5_v4, lab5_cub), so Criterion's --filter
 * grades one step. */
#include "kit_test.h"
#include "lab5.h"

#include <stdlib.h>

#define BIG ((size_t)1 << 24)

static size_t sizes[] = {
    0, 1, 31, 32, 33, 1023, 1025,
    LAB5_DIGIT4_NV - 1, LAB5_DIGIT4_NV + 1,
    LAB5_DIGIT8_NV - 1, LAB5_DIGIT8_NV + 1,
    LAB5_ONESWEEP_NV - 1, LAB5_ONESWEEP_NV + 1,
    LAB5_ONESWEEP_NV_PAIRS - 1, LAB5_ONESWEEP_NV_PAIRS + 1,
    LAB5_ONESWEEP_SOLO_NV_PAIRS - 1, LAB5_ONESWEEP_SOLO_NV_PAIRS + 1,
    LAB5_MERGE_NV - 1, LAB5_MERGE_NV + 1, 2 * LAB5_MERGE_NV + 1, /* one merge pass, a partial second run */
    (1u << 20) + 7, BIG,
};

static const char *step_of(int v) { return v == LAB5_CUB ? "cub" : lab5_variants[v].info.step; }

/* Onesweep's tiles per SM to test: with values 2 and (where it fits) 1; else the default. */
static int onesweep_shapes(int v, int pairs, int tiles[2])
{
    if (v == LAB5_CUB || lab5_variants[v].run != lab5_onesweep || !pairs) {
        tiles[0] = 0;
        return 1;
    }
    tiles[0] = 2;
    tiles[1] = 1;
    return lab5_onesweep_solo_fits() ? 2 : 1;
}

static void expect_sorted(lab5_problem *p, int v, int pairs, const char *what, int repeats)
{
    char label[192];
    int tiles[2], shapes = onesweep_shapes(v, pairs, tiles);
    for (int t = 0; t < shapes; t++) {
        lab5_problem_set_onesweep_tiles(p, tiles[t]);
        for (int r = 0; r < repeats; r++) {
            snprintf(label, sizeof label, "%s%s, run %d of %d", what,
                     tiles[t] == 1 ? ", one tile per SM" : tiles[t] == 2 ? ", two tiles per SM" : "", r + 1, repeats);
            kit_test_expect_pass(lab5_problem_case(p, v), step_of(v), label);
        }
    }
}

static void check_one(int v, size_t n, lab5_type type, lab5_dist dist, int pairs, int repeats)
{
    lab5_problem *p = lab5_problem_create(n, type, dist, pairs, 42 + n);
    char what[96];
    snprintf(what, sizeof what, "n=%zu %s %s %s", n, lab5_type_name(type), pairs ? "pairs" : "keys",
             lab5_dist_names[dist]);
    expect_sorted(p, v, pairs, what, repeats);
    lab5_problem_destroy(p);
}

/* Up to 2^20+7: every type x distribution x keys/pairs, twice on the same buffers.
 * At 2^24 (host reference and transfers dominate): a subset that still covers
 * every type, pairs, skipped passes and tiles of one digit (sorted keys: the top
 * digit changes every 2^16 keys). */
static void check_size(int v, size_t n)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_EMULATED_UP_TO(n, "the case");
    cr_assert(lt(int, v, lab5_variant_count));
    if (n < BIG) {
        for (int type = LAB5_U32; type <= LAB5_F32; type++)
            for (int dist = 0; dist < LAB5_DIST_COUNT; dist++)
                for (int pairs = 0; pairs <= 1; pairs++)
                    check_one(v, n, (lab5_type)type, (lab5_dist)dist, pairs, 2);
        return;
    }
    check_one(v, n, LAB5_U32, LAB5_UNIFORM, 0, 1);
    check_one(v, n, LAB5_U32, LAB5_UNIFORM, 1, 1);
    check_one(v, n, LAB5_U32, LAB5_LOWBITS, 1, 1);
    check_one(v, n, LAB5_U32, LAB5_SORTED, 0, 1);
    check_one(v, n, LAB5_I32, LAB5_REVERSE, 1, 1);
    check_one(v, n, LAB5_F32, LAB5_FEW, 1, 1);
}

/* The float policy on the GPU: -0.0 and +0.0 equal (input order kept), NaNs by
 * their bits at both ends, across several tiles. */
static void check_float_specials(int v)
{
    KIT_TEST_REQUIRE_GPU();
    static const uint32_t specials[] = { 0u,          0x80000000u, 0x7fc00000u, 0xffc00000u, 0xff800000u,
                                         0x7f800000u, 0x3f800000u, 0xbf800000u, 0x80000000u, 0u,
                                         0x7fc00001u, 0xffc00001u, 1u,          0x80000001u };
    size_t n = 3 * LAB5_ONESWEEP_NV + 5, count = sizeof specials / sizeof specials[0];
    uint32_t *keys = malloc(n * sizeof *keys);
    for (size_t i = 0; i < n; i++)
        keys[i] = specials[kit_hash64(3, i) % count];
    for (int pairs = 0; pairs <= 1; pairs++) {
        lab5_problem *p = lab5_problem_create_from(keys, n, LAB5_F32, pairs);
        expect_sorted(p, v, pairs, pairs ? "f32 specials, pairs" : "f32 specials, keys", 2);
        lab5_problem_destroy(p);
    }
    free(keys);
}

/* Every tile of onesweep (and several tiles of the others) holds one key value,
 * a different one per tile: every pass has tiles whose keys all share a digit. */
static void check_one_digit_tiles(int v)
{
    KIT_TEST_REQUIRE_GPU();
    size_t tiles[] = { LAB5_ONESWEEP_NV, LAB5_ONESWEEP_NV_PAIRS, LAB5_ONESWEEP_SOLO_NV_PAIRS };
    for (int t = 0; t < 3; t++) {
        int pairs = t > 0;
        size_t nv = tiles[t], n = 5 * nv + 3;
        uint32_t *keys = malloc(n * sizeof *keys);
        for (size_t i = 0; i < n; i++)
            keys[i] = (uint32_t)kit_hash64(8, i / nv);
        lab5_problem *p = lab5_problem_create_from(keys, n, LAB5_U32, pairs);
        char what[64];
        snprintf(what, sizeof what, "one key per %zu keys (an onesweep tile), %s", nv, pairs ? "pairs" : "keys");
        expect_sorted(p, v, pairs, what, 2);
        lab5_problem_destroy(p);
        free(keys);
    }
}

/* Many runs in a row on the same buffers, including inputs whose passes onesweep skips. */
static void check_repeated(int v)
{
    KIT_TEST_REQUIRE_GPU();
    size_t n = (1u << 20) + 7;
    KIT_TEST_EMULATED_UP_TO(n, "the repeated runs");
    lab5_dist dists[] = { LAB5_UNIFORM, LAB5_LOWBITS, LAB5_EQUAL };
    for (int d = 0; d < 3; d++) {
        lab5_problem *p = lab5_problem_create(n, LAB5_U32, dists[d], 1, 17);
        char what[64];
        snprintf(what, sizeof what, "n=%zu u32 pairs %s", n, lab5_dist_names[dists[d]]);
        expect_sorted(p, v, 1, what, 5);
        lab5_problem_destroy(p);
    }
}

/* 2^28 + 13 u32 pairs: ~9 GB of device memory with CUB's scratch, ~10 GB of host memory. */
static void check_huge(int v)
{
    size_t n = ((size_t)1 << 28) + 13;
    KIT_TEST_REQUIRE_DEVICE_BYTES(lab5_device_bytes(n, 1), "lab5 at 2^28 + 13 pairs");
    check_one(v, n, LAB5_U32, LAB5_UNIFORM, 1, 1);
}

#define LAB5_SUITE(SUITE, V)                                                            \
    ParameterizedTestParameters(SUITE, sizes)                                           \
    {                                                                                   \
        return KIT_TEST_SIZE_PARAMS(sizes);                                             \
    }                                                                                   \
    ParameterizedTest(size_t *n, SUITE, sizes)                                          \
    {                                                                                   \
        KIT_CASE("n=%zu", *n);                                                          \
        check_size(V, *n);                                                              \
    }                                                                                   \
    Test(SUITE, float_specials) { check_float_specials(V); }                            \
    Test(SUITE, one_digit_tiles) { check_one_digit_tiles(V); }                          \
    Test(SUITE, repeated_runs) { check_repeated(V); }

LAB5_SUITE(lab5_v0, 0)
LAB5_SUITE(lab5_v1, 1)
LAB5_SUITE(lab5_v2, 2)
LAB5_SUITE(lab5_v3, 3)
LAB5_SUITE(lab5_v4, 4)
LAB5_SUITE(lab5_cub, LAB5_CUB)

Test(lab5_v3, huge_2_28_plus_13) { check_huge(3); }
Test(lab5_cub, huge_2_28_plus_13) { check_huge(LAB5_CUB); }

/* The table and the suites must not drift apart. */
Test(lab5_table, one_suite_per_variant)
{
    cr_assert(eq(int, lab5_variant_count, 5));
}
