/* lab3's GPU suite: every scan variant and CUB, inclusive and exclusive, int32 and
 * int64, at every size, each case run three times on the same buffers (a status
 * array that is not reset between launches fails the second run); lookback-tuned,
 * tma-pipeline and CUB also at 2^28 + 13 (twice); block-hillis-steele,
 * lookback-tuned, tma-pipeline, select-if and select-pipeline once past 2^31
 * values; tma-pipeline and select-pipeline also on buffers that are not 16-byte
 * aligned; compaction (select-if and select-pipeline in place, cub-select) at keep
 * rates 0, 1, 50 and 100%; the pipelines' statuses across launches (epochs).
 * One suite per variant (lab3_v0 .. lab3_v6, lab3_cub, lab3_select,
 * lab3_select_pipeline, lab3_cub_select) so Criterion's --filter grades one step. */
#include "kit_test.h"
#include "lab3.h"

#include <stdlib.h>

#define REPEATS 3

/* Every tile size of lab3.h +-1 (so retuning a tile moves its tests), and for each
 * tile of the multi-pass scans the first size that needs a third level (NV^2 + 1:
 * the spine itself has more than one tile; Steps 3.0, 3.1 and 3.2). Every variant
 * runs every size. */
#define AROUND(nv) (nv) - 1, (nv), (nv) + 1
static size_t sizes[] = {
    KIT_TEST_SIZES,
    AROUND(LAB3_HS_NT), /* Step 3.0 */
    LAB3_HS_NT * LAB3_HS_NT + 1,
    AROUND(LAB3_WARP_NT), /* Step 3.1 */
    LAB3_WARP_NT * LAB3_WARP_NT + 1,
    AROUND(LAB3_BLOCKED_NV), /* Steps 3.2-3.4 */
    LAB3_BLOCKED_NV * LAB3_BLOCKED_NV + 1,
    AROUND(LAB3_TUNED_NV_I32), /* Step 3.5 */
    AROUND(LAB3_TUNED_NV_I64),
    AROUND(LAB3_TMA_NV_I32), /* Step 3.7 */
    AROUND(LAB3_TMA_NV_I64),
};

static const char *step_of(int v) { return v == LAB3_CUB ? "cub" : lab3_variants[v].info.step; }

/* Every type x scan kind on one size, `repeats` checked runs each. */
static void check_scan(int v, size_t n, int repeats)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_EMULATED_UP_TO(n, "the case");
    cr_assert(lt(int, v, lab3_variant_count));
    for (int type = LAB3_I32; type <= LAB3_I64; type++) {
        lab3_problem *p = lab3_problem_create(n, (lab3_type)type, 42 + n, 50);
        for (int exclusive = 0; exclusive <= 1; exclusive++)
            for (int r = 0; r < repeats; r++) {
                char what[96];
                snprintf(what, sizeof what, "n=%zu %s-%s run %d of %d", n, type == LAB3_I32 ? "i32" : "i64",
                         exclusive ? "excl" : "incl", r + 1, repeats);
                kit_test_expect_pass(lab3_problem_scan_case(p, v, exclusive), step_of(v), what);
            }
        lab3_problem_destroy(p);
    }
}

/* 2^28 + 13 int64 values need ~4.3 GB on the device (and ~9 GB on the host):
 * both types and kinds, two runs each. */
static void check_big(int v)
{
    KIT_TEST_REQUIRE_GPU();
    size_t n = ((size_t)1 << 28) + 13;
    KIT_TEST_REQUIRE_DEVICE_BYTES(lab3_device_bytes(n, LAB3_I64), "lab3 at n = 2^28 + 13");
    check_scan(v, n, 2);
}

/* Past 2^31 values (int32: 8 GiB in, 8 GiB out): an index kept in an int wraps.
 * One checked run, exclusive int32. */
#define LAB3_HUGE_N (((size_t)1 << 31) + 13)
static void check_huge_scan(int v)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_REQUIRE_DEVICE_BYTES(lab3_device_bytes(LAB3_HUGE_N, LAB3_I32), "lab3 at n = 2^31 + 13");
    lab3_problem *p = lab3_problem_create(LAB3_HUGE_N, LAB3_I32, 31, 50);
    kit_test_expect_pass(lab3_problem_scan_case(p, v, 1), step_of(v), "n=2^31+13 i32-excl");
    lab3_problem_destroy(p);
}

#define LAB3_SUITE(V)                                                                   \
    ParameterizedTestParameters(lab3_v##V, sizes)                                       \
    {                                                                                   \
        return KIT_TEST_SIZE_PARAMS(sizes);                                             \
    }                                                                                   \
    ParameterizedTest(size_t *n, lab3_v##V, sizes)                                      \
    {                                                                                   \
        KIT_CASE("n=%zu", *n);                                                          \
        check_scan(V, *n, REPEATS);                                                     \
    }

LAB3_SUITE(0)
LAB3_SUITE(1)
LAB3_SUITE(2)
LAB3_SUITE(3)
LAB3_SUITE(4)
LAB3_SUITE(5)
LAB3_SUITE(6)

Test(lab3_v5, big_2_28_plus_13, .timeout = 600) { check_big(5); }
Test(lab3_v6, big_2_28_plus_13, .timeout = 600) { check_big(6); }
Test(lab3_v0, past_2_31, .timeout = 600) { check_huge_scan(0); }
Test(lab3_v5, past_2_31, .timeout = 600) { check_huge_scan(5); }
Test(lab3_v6, past_2_31, .timeout = 600) { check_huge_scan(6); }

/* in and out 4 or 8 bytes (one value) past a 16-byte boundary, apart and together:
 * the 16-byte paths (bulk copies, vector stores) must step aside. n spans several
 * tiles of every variant and ends in a partial one. Both types, both kinds. */
static void check_misaligned(int v)
{
    KIT_TEST_REQUIRE_GPU();
    const size_t n = 100003;
    const int shifts[][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 } }; /* (in, out) in values */
    for (int type = LAB3_I32; type <= LAB3_I64; type++) {
        lab3_problem *p = lab3_problem_create(n, (lab3_type)type, 17, 50);
        for (int k = 0; k < 3; k++) {
            lab3_problem_shift(p, shifts[k][0], shifts[k][1]);
            for (int exclusive = 0; exclusive <= 1; exclusive++) {
                char what[96];
                snprintf(what, sizeof what, "n=%zu %s, in +%d, out +%d values", n,
                         type == LAB3_I32 ? "i32" : "i64", shifts[k][0], shifts[k][1]);
                kit_test_expect_pass(lab3_problem_scan_case(p, v, exclusive), lab3_variants[v].info.step, what);
            }
        }
        lab3_problem_destroy(p);
    }
}
Test(lab3_v6, misaligned) { check_misaligned(6); }

ParameterizedTestParameters(lab3_cub, sizes) { return KIT_TEST_SIZE_PARAMS(sizes); }
ParameterizedTest(size_t *n, lab3_cub, sizes)
{
    KIT_CASE("n=%zu", *n);
    check_scan(LAB3_CUB, *n, REPEATS);
}
Test(lab3_cub, big_2_28_plus_13, .timeout = 600) { check_big(LAB3_CUB); }

/* The look-back counters (--stats) report something sensible for the look-back variants. */
static void check_stats(int v)
{
    KIT_TEST_REQUIRE_GPU();
    size_t n = (size_t)1 << 24;
    KIT_TEST_EMULATED_UP_TO(n, "the --stats check");
    lab3_problem *p = lab3_problem_create(n, LAB3_I32, 7, 50);
    lab3_problem_enable_stats(p, 1);
    kit_test_expect_pass(lab3_problem_scan_case(p, v, 1), lab3_variants[v].info.step, "n=2^24 with --stats");
    unsigned long long st[LAB3_STAT_COUNT];
    cr_assert(eq(int, lab3_problem_read_stats(p, st), 0));
    cr_expect(gt(u64, st[LAB3_STAT_TILES], 0));
    cr_expect(ge(u64, st[LAB3_STAT_DEPTH_SUM], st[LAB3_STAT_TILES]), "every tile inspects at least one predecessor");
    cr_expect(ge(u64, st[LAB3_STAT_DEPTH_MAX], 1));
    lab3_problem_destroy(p);
}
Test(lab3_v4, stats) { check_stats(4); }
Test(lab3_v5, stats) { check_stats(5); }
Test(lab3_v6, stats) { check_stats(6); }

/* ---- compaction ---------------------------------------------------------------- */

typedef struct {
    size_t n;
    uint32_t keep;
} select_param;

static select_param select_params[] = {
    { 0, 50 }, { 1, 0 }, { 1, 100 }, { 33, 50 },
    /* the compactions' own tiles (lab3.h): one item either side of one tile and of
     * three */
    { LAB3_SELECT_NV_I32 - 1, 50 }, { LAB3_SELECT_NV_I32, 50 }, { LAB3_SELECT_NV_I32 + 1, 50 },
    { 3 * LAB3_SELECT_NV_I32 - 1, 50 }, { 3 * LAB3_SELECT_NV_I32, 50 }, { 3 * LAB3_SELECT_NV_I32 + 1, 50 },
    { LAB3_SELECT_NV_I64 - 1, 50 }, { LAB3_SELECT_NV_I64, 50 }, { LAB3_SELECT_NV_I64 + 1, 50 },
    { 3 * LAB3_SELECT_NV_I64 - 1, 50 }, { 3 * LAB3_SELECT_NV_I64, 50 }, { 3 * LAB3_SELECT_NV_I64 + 1, 50 },
    { LAB3_SELECT_PIPE_NV_I32 - 1, 50 }, { LAB3_SELECT_PIPE_NV_I32, 50 }, { LAB3_SELECT_PIPE_NV_I32 + 1, 50 },
    { 3 * LAB3_SELECT_PIPE_NV_I32 - 1, 50 }, { 3 * LAB3_SELECT_PIPE_NV_I32, 50 }, { 3 * LAB3_SELECT_PIPE_NV_I32 + 1, 50 },
    { LAB3_SELECT_PIPE_NV_I64 - 1, 50 }, { LAB3_SELECT_PIPE_NV_I64, 50 }, { LAB3_SELECT_PIPE_NV_I64 + 1, 50 },
    { 3 * LAB3_SELECT_PIPE_NV_I64 - 1, 50 }, { 3 * LAB3_SELECT_PIPE_NV_I64, 50 }, { 3 * LAB3_SELECT_PIPE_NV_I64 + 1, 50 },
    { (1u << 20) + 7, 0 }, { (1u << 20) + 7, 1 }, { (1u << 20) + 7, 50 }, { (1u << 20) + 7, 100 },
    { 1u << 24, 0 }, { 1u << 24, 1 }, { 1u << 24, 50 }, { 1u << 24, 100 },
};

static const char *const select_steps[LAB3_SELECT_ROWS] = { "3.6", "3.8", "cub" };

static void check_select(lab3_select_row row, select_param prm)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_EMULATED_UP_TO(prm.n, "the case");
    const char *in_place = row == LAB3_SELECT_CUB ? "" : " (in place)";
    for (int type = LAB3_I32; type <= LAB3_I64; type++) {
        lab3_problem *p = lab3_problem_create(prm.n, (lab3_type)type, 99 + prm.n, prm.keep);
        kit_case c = lab3_problem_select_case(p, row);
        char what[96];
        for (int r = 0; r < REPEATS; r++) {
            snprintf(what, sizeof what, "n=%zu keep=%u%% %s run %d of %d%s", prm.n, prm.keep,
                     type == LAB3_I32 ? "i32" : "i64", r + 1, REPEATS, in_place);
            kit_test_expect_pass(c, select_steps[row], what);
        }
        /* The timed path: reset (in place: restore the input), then run, as kit_time
         * does, without prepare's poisoning. */
        char why[512] = "";
        int r = c.reset ? c.reset(c.ctx, 0) : 0;
        if (!r)
            r = c.run(c.ctx, 0);
        cr_assert(eq(int, r, 0), "rerun failed: %d", r);
        cr_assert(eq(int, (int)cudaDeviceSynchronize(), 0));
        cr_assert(eq(int, c.check(c.ctx, why, sizeof why), 0), "%s [n=%zu keep=%u%% timed path]: %s", c.variant,
                  prm.n, prm.keep, why);
        lab3_problem_destroy(p);
    }
}

/* Past 2^31 items, in place: one checked run, int32, keep 50%. */
static void check_huge_select(lab3_select_row row)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_REQUIRE_DEVICE_BYTES(lab3_device_bytes(LAB3_HUGE_N, LAB3_I32), "compaction at n = 2^31 + 13");
    lab3_problem *p = lab3_problem_create(LAB3_HUGE_N, LAB3_I32, 31, 50);
    kit_test_expect_pass(lab3_problem_select_case(p, row), select_steps[row], "n=2^31+13 keep=50% i32 (in place)");
    lab3_problem_destroy(p);
}

/* In place on a buffer one value past a 16-byte boundary: the bulk copies must
 * step aside. Several tiles, the last one partial; both types. */
static void check_misaligned_select(lab3_select_row row)
{
    KIT_TEST_REQUIRE_GPU();
    const size_t n = 100003;
    for (int type = LAB3_I32; type <= LAB3_I64; type++) {
        lab3_problem *p = lab3_problem_create(n, (lab3_type)type, 23, 50);
        lab3_problem_shift(p, 0, 1);
        char what[96];
        snprintf(what, sizeof what, "n=%zu keep=50%% %s, in place 1 value past 16 bytes", n,
                 type == LAB3_I32 ? "i32" : "i64");
        kit_test_expect_pass(lab3_problem_select_case(p, row), select_steps[row], what);
        lab3_problem_destroy(p);
    }
}

#define LAB3_SELECT_SUITE(SUITE, ROW)                                                    \
    ParameterizedTestParameters(SUITE, keep_rates)                                      \
    {                                                                                   \
        return KIT_TEST_PARAMS(select_param, select_params, n);                         \
    }                                                                                   \
    ParameterizedTest(select_param *prm, SUITE, keep_rates)                             \
    {                                                                                   \
        KIT_CASE("n=%zu,keep=%u%%", prm->n, prm->keep);                                 \
        check_select(ROW, *prm);                                                        \
    }

LAB3_SELECT_SUITE(lab3_select, LAB3_SELECT_IF)
LAB3_SELECT_SUITE(lab3_select_pipeline, LAB3_SELECT_PIPELINE)
LAB3_SELECT_SUITE(lab3_cub_select, LAB3_SELECT_CUB)

Test(lab3_select, past_2_31, .timeout = 600) { check_huge_select(LAB3_SELECT_IF); }
Test(lab3_select_pipeline, past_2_31, .timeout = 600) { check_huge_select(LAB3_SELECT_PIPELINE); }
Test(lab3_select, misaligned) { check_misaligned_select(LAB3_SELECT_IF); }
Test(lab3_select_pipeline, misaligned) { check_misaligned_select(LAB3_SELECT_PIPELINE); }

/* The pipelines do not zero their statuses before a launch: each launch tags them
 * with a new epoch (lab3_tile.h). One problem per type, so every launch finds the
 * statuses of the one before: tma-pipeline and select-pipeline in turn (a scan's
 * prefixes read as counts, or the reverse, would be wrong), then tma-pipeline after
 * lookback-tuned (which zeroes the array and leaves the ticket where its draws
 * left it), then across the last epoch. Each launch checked against the CPU. */
Test(lab3_v6, statuses_of_earlier_launches_are_never_added)
{
    KIT_TEST_REQUIRE_GPU();
    const size_t n = ((size_t)1 << 22) + 7;
    KIT_TEST_EMULATED_UP_TO(n, "the epochs check");
    enum { SCAN, SELECT, RESET_SCAN, LAST_EPOCH };
    const int steps[] = { SCAN, SELECT, SCAN, RESET_SCAN, SCAN, SELECT, LAST_EPOCH, SCAN, SELECT, SCAN };
    for (int type = LAB3_I32; type <= LAB3_I64; type++) {
        lab3_problem *p = lab3_problem_create(n, (lab3_type)type, 11, 50);
        for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
            char what[96];
            snprintf(what, sizeof what, "n=%zu %s, launch %zu of the sequence", n, type == LAB3_I32 ? "i32" : "i64",
                     k + 1);
            if (steps[k] == LAST_EPOCH)
                lab3_problem_set_epoch(p, LAB3_EPOCH_MAX - 1); /* the next launch takes the last epoch */
            else if (steps[k] == SELECT)
                kit_test_expect_pass(lab3_problem_select_case(p, LAB3_SELECT_PIPELINE), "3.8", what);
            else {
                int v = steps[k] == RESET_SCAN ? 5 : 6;
                kit_test_expect_pass(lab3_problem_scan_case(p, v, 1), lab3_variants[v].info.step, what);
            }
        }
        lab3_problem_destroy(p);
    }
}

/* The table and the suites must not drift apart. */
Test(lab3_table, one_suite_per_variant)
{
    cr_assert(eq(int, lab3_variant_count, 7));
}
