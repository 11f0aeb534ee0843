/* lab1's GPU suite: every variant, for each operation it has, against the CPU
 * reference. One suite per variant (lab1_v0 .. lab1_v5, plus lab1_cub) so
 * Criterion's --filter grades one step. Small sizes run the full cross of
 * distributions x bins x operations; the large sizes a representative subset so
 * the whole suite stays around a minute or two on an H100. Sizes and bins come
 * from the constants of lab1.h, so retuning a tile or the shared-memory plan moves
 * the tests with it. */
#include "kit_test.h"
#include "lab1.h"

#include <stdio.h>
#include <stdlib.h>

/* smem-warp's histogram tiles: LAB1_SW_VT keys per lane, so one warp's tile and one
 * block's worth of warp tiles. */
#define WARP_TILE ((size_t)LAB1_SW_WARP_TILE)
#define BLOCK_TILE ((size_t)LAB1_SW_NT * LAB1_SW_VT)

static size_t sizes[] = { 0, 1, 31, 32, 33, WARP_TILE - 1, WARP_TILE, WARP_TILE + 1,
                          BLOCK_TILE - 1, BLOCK_TILE + 1, (1u << 20) + 7, 1u << 24 };
static const size_t bins_list[] = { 1, 7, 256, 4096, (size_t)1 << 20 };
/* Up to this size every distribution meets every bins value. */
#define FULL_CROSS_MAX (WARP_TILE + 1)

/* One input: distribution and bins. */
typedef struct {
    lab1_dist_kind kind;
    int k;
    size_t bins;
} input;

/* Large sizes: one row per interesting regime (few/many bins, collisions, skew, the
 * shared-memory fallback at 2^20 bins). */
static const input large_inputs[] = {
    { LAB1_UNIFORM, 0, 256 },  { LAB1_KWARP, 1, 4096 }, { LAB1_KWARP, 32, 4096 },
    { LAB1_ZIPF, 0, 256 },     { LAB1_SORTED, 0, 7 },   { LAB1_SINGLE, 0, 256 },
    { LAB1_UNIFORM, 0, 4096 }, { LAB1_UNIFORM, 0, (size_t)1 << 20 },
};

/* The CAS loop serializes every collision across the whole GPU: on a hot bin
 * (single, sorted, zipf's first bin) a large n takes minutes. Large inputs for it
 * keep the keys spread over thousands of bins. */
static int cas_loop_can_run(const input *in, size_t n)
{
    return n <= FULL_CROSS_MAX || ((in->kind == LAB1_UNIFORM || in->kind == LAB1_KWARP) && in->bins >= 4096);
}

static int has_op(const lab1_variant *var, int op)
{
    return op == LAB1_HISTOGRAM ? var->histogram != NULL : var->scatter_add != NULL;
}

/* Every operation of variant v (v = -1: the CUB row) on one problem. */
static void check_problem(int v, lab1_problem *p, const char *input_text)
{
    char what[160];
    for (int op = 0; op < LAB1_OPS; op++) {
        snprintf(what, sizeof what, "%s %s", op == LAB1_HISTOGRAM ? "histogram" : "scatter-add", input_text);
        if (v < 0) {
            if (op == LAB1_HISTOGRAM)
                kit_test_expect_pass(lab1_problem_cub_case(p), "cub", what);
        } else if (has_op(&lab1_variants[v], op)) {
            kit_test_expect_pass(lab1_problem_case(p, v, (lab1_op)op), lab1_variants[v].info.step, what);
        }
    }
}

static void check_input(int v, size_t n, const input *in)
{
    lab1_dist d = { in->kind, in->k };
    char dist[32], what[128];
    lab1_dist_name(d, dist, sizeof dist);
    snprintf(what, sizeof what, "n=%zu bins=%zu dist=%s", n, in->bins, dist);
    lab1_problem *p = lab1_problem_create(n, in->bins, d, 42 + n, v >= 0 && lab1_variants[v].scatter_add);
    check_problem(v, p, what);
    lab1_problem_destroy(p);
}

/* v = -1: the CUB row. */
static void check_variant(int v, size_t n)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_EMULATED_UP_TO(n, "the case");
    cr_assert(lt(int, v, lab1_variant_count));
    int cas = v >= 0 && lab1_variants[v].histogram == NULL; /* the scatter-add-only CAS loop */
    if (n > FULL_CROSS_MAX) {
        for (size_t i = 0; i < sizeof large_inputs / sizeof large_inputs[0]; i++)
            if (!cas || cas_loop_can_run(&large_inputs[i], n))
                check_input(v, n, &large_inputs[i]);
        return;
    }
    for (size_t b = 0; b < sizeof bins_list / sizeof bins_list[0]; b++) {
        size_t bins = bins_list[b];
        const input plain[] = { { LAB1_UNIFORM, 0, bins }, { LAB1_ZIPF, 0, bins }, { LAB1_SORTED, 0, bins },
                                { LAB1_SINGLE, 0, bins } };
        if (n <= 1) { /* no key or one: every distribution is the same input */
            check_input(v, n, &plain[0]);
            continue;
        }
        for (size_t i = 0; i < 4; i++)
            check_input(v, n, &plain[i]);
        const int ks[] = { 1, 5, 32 };
        for (size_t i = 0; i < 3; i++)
            if ((size_t)ks[i] <= bins) {
                input in = { LAB1_KWARP, ks[i], bins };
                check_input(v, n, &in);
            }
    }
}

#define LAB1_SUITE(NAME, V)                                                             \
    ParameterizedTestParameters(NAME, sizes)                                            \
    {                                                                                   \
        return KIT_TEST_SIZE_PARAMS(sizes);                                             \
    }                                                                                   \
    ParameterizedTest(size_t *n, NAME, sizes, .timeout = 120)                           \
    {                                                                                   \
        KIT_CASE("n=%zu", *n);                                                          \
        check_variant(V, *n);                                                           \
    }

LAB1_SUITE(lab1_v0, 0)
LAB1_SUITE(lab1_v1, 1)
LAB1_SUITE(lab1_v2, 2)
LAB1_SUITE(lab1_v3, 3)
LAB1_SUITE(lab1_v4, 4)
LAB1_SUITE(lab1_v5, 5)
LAB1_SUITE(lab1_cub, -1)

/* ---- the shared-memory budget of the variants that privatize ---------------------- */

enum { MAX_BOUNDARY_BINS = 128 };

static int add_bins(size_t *list, int count, size_t bins)
{
    if (bins >= 1 && bins <= LAB1_MAX_BINS && count < MAX_BOUNDARY_BINS)
        list[count++] = bins;
    return count;
}

static int by_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

/* Every bins value where the plan of `budget` changes (its copies or its opt-in),
 * with its neighbours, from 1 to LAB1_MAX_BINS; and the sizes that failed to launch
 * on an H100 when the static shared memory was not counted. Sorted, no repeats. */
static int plan_boundaries(const lab1_smem_budget *budget, size_t *list)
{
    static const size_t seen_failing[] = { 1536, 3072, 6143, 6144, 12285, 12286, 12287, 12288, 58112 };
    int count = 0;
    count = add_bins(list, count, 1);
    count = add_bins(list, count, (size_t)1 << 14);
    lab1_smem_plan before = lab1_plan_smem(1, budget);
    for (size_t bins = 2; bins <= LAB1_MAX_BINS; bins++) {
        lab1_smem_plan plan = lab1_plan_smem(bins, budget);
        if (plan.copies != before.copies || plan.opt_in != before.opt_in)
            for (size_t b = bins - 1; b <= bins + 1; b++)
                count = add_bins(list, count, b);
        before = plan;
    }
    for (size_t i = 0; i < sizeof seen_failing / sizeof seen_failing[0]; i++)
        count = add_bins(list, count, seen_failing[i]);
    qsort(list, (size_t)count, sizeof *list, by_size);
    int unique = 0;
    for (int i = 0; i < count; i++)
        if (unique == 0 || list[i] != list[unique - 1])
            list[unique++] = list[i];
    return unique;
}

/* The plan must fit the limit it launches under, and fall back only when not even
 * one copy fits after opting in. */
static void expect_plan_fits(const lab1_smem_budget *b, size_t bins)
{
    lab1_smem_plan p = lab1_plan_smem(bins, b);
    if (p.copies == 0) {
        cr_expect(gt(sz, bins * b->elem + b->static_bytes, b->optin_limit), "bins=%zu falls back but one copy fits",
                  bins);
        return;
    }
    cr_expect(le(sz, p.bytes + b->static_bytes, p.opt_in ? b->optin_limit : b->block_limit), "bins=%zu", bins);
    cr_expect(le(int, p.copies, b->max_copies), "bins=%zu", bins);
}

/* Every bins value where the plan changes, for each operation of variant v: the
 * launch must not fail, and the result must be right (a small n per value). */
static void check_smem_boundaries(int v)
{
    KIT_TEST_REQUIRE_GPU();
    const lab1_variant *var = &lab1_variants[v];
    cr_assert(var->smem_budget != NULL, "%s privatizes: its table row needs a budget hook", var->info.slug);
    const lab1_dist uniform = { LAB1_UNIFORM, 0 };
    const size_t n = 5 * WARP_TILE + 3; /* full tiles, a tail of quads and of keys */
    lab1_problem *device = lab1_problem_create(1, 1, uniform, 1, 0);
    for (int op = 0; op < LAB1_OPS; op++) {
        if (!has_op(var, op))
            continue;
        lab1_smem_budget budget;
        cr_assert(eq(int, var->smem_budget(lab1_problem_io(device), (lab1_op)op, &budget), 0));
        size_t list[MAX_BOUNDARY_BINS];
        int count = plan_boundaries(&budget, list);
        for (int i = 0; i < count; i++) {
            expect_plan_fits(&budget, list[i]);
            lab1_problem *p = lab1_problem_create(n, list[i], uniform, 3 + list[i], op == LAB1_SCATTER_ADD);
            char what[160];
            snprintf(what, sizeof what, "%s n=%zu bins=%zu (%d copies; static shared memory %zu bytes)",
                     op == LAB1_HISTOGRAM ? "histogram" : "scatter-add", n, list[i],
                     lab1_problem_smem_copies(p, v, (lab1_op)op), budget.static_bytes);
            kit_test_expect_pass(lab1_problem_case(p, v, (lab1_op)op), var->info.step, what);
            lab1_problem_destroy(p);
        }
    }
    lab1_problem_destroy(device);
}

Test(lab1_v2, smem_budget_at_every_plan_boundary, .timeout = 300) { check_smem_boundaries(2); }
Test(lab1_v5, smem_budget_at_every_plan_boundary, .timeout = 300) { check_smem_boundaries(5); }

/* ---- past 2^31 keys ----------------------------------------------------------------- */

/* One checked run of each operation at 2^31 + 2^20 + 3 keys: a kernel with 32-bit
 * indices fails here. Lean: one problem, no repeats. */
static void check_past_2_31(int v)
{
    KIT_TEST_REQUIRE_GPU();
    const size_t n = ((size_t)1 << 31) + ((size_t)1 << 20) + 3, bins = 4096;
    KIT_TEST_REQUIRE_DEVICE_BYTES(lab1_device_bytes(n, bins, 1), "lab1 at 2^31 + 2^20 + 3 keys and values");
    lab1_problem *p = lab1_problem_create(n, bins, (lab1_dist){ LAB1_UNIFORM, 0 }, 31, 1);
    check_problem(v, p, "n=2^31+2^20+3 bins=4096 dist=uniform");
    lab1_problem_destroy(p);
}

Test(lab1_v0, past_2_31_keys, .timeout = 600) { check_past_2_31(0); }
Test(lab1_v5, past_2_31_keys, .timeout = 600) { check_past_2_31(5); }

/* ---- Stage 1 and Stage 2 of one warp ------------------------------------------------ */

/* --trace: the GPU's record of Stage 1 and Stage 2 must match the host model, on
 * Westphal's example, a full warp of one key (5 rounds), a full warp of distinct
 * keys, one lane, and a mixed pattern with a partial warp. */
Test(lab1_v3, trace_matches_host_model, .timeout = 60)
{
    KIT_TEST_REQUIRE_GPU();
    static const int example[] = { 2, 3, 3, 1, 2, 3, 1, 2 };
    int same[32], distinct[32], mixed[27];
    for (int i = 0; i < 32; i++) {
        same[i] = 5;
        distinct[i] = 31 - i;
    }
    for (int i = 0; i < 27; i++)
        mixed[i] = (i * 7 + i / 5) % 4;
    struct { const int *keys; int n; } cases[] = {
        { example, 8 }, { same, 32 }, { distinct, 32 }, { same, 1 }, { mixed, 27 },
    };
    FILE *sink = fopen("/dev/null", "w");
    cr_assert(sink != NULL);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        int r = lab1_trace_run(cases[c].keys, cases[c].n, 64, sink);
        if (r == KIT_EXIT_TODO)
            KIT_TEST_FAIL_TODO("1.3", "warp-ballot");
        cr_expect(eq(int, r, KIT_EXIT_OK), "trace case %zu (n=%d): GPU and host model disagree "
                  "(./lab1 --trace --keys K0,K1,... --bins 64 shows where)", c, cases[c].n);
    }
    fclose(sink);
}

/* ---- smem-warp's last-block merge ------------------------------------------------------ */

/* smem-warp's histogram keeps scratch sums and a ticket that each launch must leave
 * at zero, and its last block must see every other block's sums (the fences of the
 * last-block pattern). The same problem runs many times in a row, each run checked:
 * stale scratch adds the previous run's counts; a missing fence, when it bites,
 * shows as a short count, most likely where hundreds of blocks finish together
 * (n = 2^22 + 5: 513 blocks of 8192 keys, on a GPU of 129 SMs or more). */
Test(lab1_v5, last_block_merge_repeated, .timeout = 120)
{
    KIT_TEST_REQUIRE_GPU();
    const size_t many_blocks = (1u << 22) + 5;
    const size_t ns[] = { 3, WARP_TILE - 1, WARP_TILE + 1, BLOCK_TILE + 1, many_blocks };
    static const size_t bin_counts[] = { 7, 256, 4096 };
    KIT_TEST_EMU_SIZES_BEGIN;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++)
        for (size_t b = 0; b < sizeof bin_counts / sizeof bin_counts[0]; b++) {
            if (KIT_TEST_EMU_TOO_BIG(ns[i]))
                continue;
            lab1_problem *p = lab1_problem_create(ns[i], bin_counts[b], (lab1_dist){ LAB1_UNIFORM, 0 }, 7 + i, 0);
            int runs = ns[i] == many_blocks ? 25 : 3;
            char what[96];
            for (int run = 0; run < runs; run++) {
                snprintf(what, sizeof what, "histogram n=%zu bins=%zu run %d", ns[i], bin_counts[b], run + 1);
                kit_test_expect_pass(lab1_problem_case(p, 5, LAB1_HISTOGRAM), lab1_variants[5].info.step, what);
            }
            lab1_problem_destroy(p);
        }
    KIT_TEST_EMU_SIZES_END("the merge over many blocks");
}

/* The table and the suites must not drift apart. */
Test(lab1_table, one_suite_per_variant)
{
    cr_assert(eq(int, lab1_variant_count, 6));
    cr_assert(lab1_variants[2].smem_budget && lab1_variants[5].smem_budget,
              "the budget tests above run v2 and v5: the variants that privatize");
    for (int v = 0; v < lab1_variant_count; v++)
        if (v != 2 && v != 5)
            cr_assert(lab1_variants[v].smem_budget == NULL, "%s privatizes: give it a budget test",
                      lab1_variants[v].info.slug);
}
