/* lab2's GPU suite: every variant and every type it supports against the CPU
 * reference, at every size. One suite per variant (lab2_v0 .. lab2_v6, plus
 * lab2_cub for the library row) so Criterion's --filter grades one step.
 *
 * Each case runs twice in a row without any reset in between, so a variant that
 * leaves state behind (the single-pass ticket) fails on the second run. The
 * grid-stride variants also run with 1 and 7 blocks: one block walks every tile,
 * seven get an uneven number of tiles each. The worked example and the final
 * variant also run once past 2^31 values (a kernel with 32-bit indices fails
 * there), and a float sum that lost one value must fail the f32 check. */
#include "kit_test.h"
#include "lab2.h"

#include <stdlib.h>

/* Sizes from the tile constants of lab2_shape.h, so that retuning a tile moves its tests. */
#define TREE_NV1 LAB2_TREE_NT       /* values per block of Steps 2.0-2.2 */
#define TREE_NV2 (2 * LAB2_TREE_NT) /* values per block of Steps 2.3-2.4 */
#define BLOCKED_ITEMS (LAB2_BLOCKED_NT * LAB2_BLOCKED_VT * 4) /* int32 values per tile, Steps 2.5-2.6 */
#define LAB2_BIG_N ((1u << 28) + 13)
/* KIT_TEST_SIZES plus this lab's boundaries: one and two blocks' worth +-1, one
 * register-blocked tile +-1, the first sizes that need three passes of the tree
 * kernels (one value more than two passes can finish), and a 3-value tail after
 * the last whole 16-byte vector just past 2^24 (the f32 check must see it lost). */
#define LAB2_TEST_SIZES                                                                               \
    KIT_TEST_SIZES, TREE_NV1 - 1, TREE_NV1 + 1, TREE_NV2 - 1, TREE_NV2 + 1, BLOCKED_ITEMS - 1,      \
        BLOCKED_ITEMS + 1, TREE_NV1 * TREE_NV1 + 1, TREE_NV2 * TREE_NV2 + 1, (1u << 24) + 3

static size_t sizes[] = { LAB2_TEST_SIZES };
static size_t big_sizes[] = { LAB2_TEST_SIZES, LAB2_BIG_N };

static void expect_pass_twice(kit_case c, const char *step, const char *what)
{
    kit_test_expect_pass(c, step, what);
    kit_test_expect_pass(c, step, what);
}

/* v == lab2_variant_count: the cub row. */
static void check_variant(int v, size_t n)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_EMULATED_UP_TO(n, "the case");
    cr_assert(le(int, v, lab2_variant_count));
    char what_n[64];
    snprintf(what_n, sizeof what_n, "lab2 at n = %zu", n);
    KIT_TEST_REQUIRE_DEVICE_BYTES(lab2_device_bytes(n, 0), what_n);
    int is_cub = v == lab2_variant_count;
    const char *step = is_cub ? "cub" : lab2_variants[v].info.step;
    for (int t = 0; t < LAB2_TYPE_COUNT; t++) {
        lab2_type type = (lab2_type)t;
        if (!is_cub && !lab2_variant_supports(v, type))
            continue;
        lab2_problem *p = lab2_problem_create(n, type, 1000 + n + (size_t)t);
        char what[128];
        if (is_cub) {
            snprintf(what, sizeof what, "type=%s n=%zu", lab2_type_name(type), n);
            expect_pass_twice(lab2_problem_cub_case(p), step, what);
        } else {
            size_t grid = lab2_problem_grid(p, v);
            /* the default shape, 1 block, 7 blocks, and the default again */
            size_t shapes[] = { 0, 1, 7, 0 };
            int shape_count = grid == 0 ? 1 : n <= (1u << 24) ? 4 : 2;
            for (int s = 0; s < shape_count; s++) {
                snprintf(what, sizeof what, "type=%s n=%zu blocks<=%zu", lab2_type_name(type), n,
                         shapes[s] ? shapes[s] : grid);
                expect_pass_twice(lab2_problem_case(p, v, shapes[s]), step, what);
            }
        }
        lab2_problem_destroy(p);
    }
}

#define LAB2_SUITE(NAME, V, SIZES)                                                      \
    ParameterizedTestParameters(NAME, sizes)                                            \
    {                                                                                   \
        return KIT_TEST_SIZE_PARAMS(SIZES);                                             \
    }                                                                                   \
    ParameterizedTest(size_t *n, NAME, sizes)                                           \
    {                                                                                   \
        KIT_CASE("n=%zu", *n);                                                          \
        check_variant(V, *n);                                                           \
    }

LAB2_SUITE(lab2_v0, 0, sizes)
LAB2_SUITE(lab2_v1, 1, sizes)
LAB2_SUITE(lab2_v2, 2, sizes)
LAB2_SUITE(lab2_v3, 3, sizes)
LAB2_SUITE(lab2_v4, 4, sizes)
LAB2_SUITE(lab2_v5, 5, big_sizes)
LAB2_SUITE(lab2_v6, 6, big_sizes)
LAB2_SUITE(lab2_cub, 7, big_sizes)

/* Past 2^31 values (8 GiB of int32): an index computed in 32 bits wraps. One
 * checked run of the exact i64 sum; skipped (not passed) where the device is smaller. */
#define LAB2_HUGE_N (((size_t)1 << 31) + 13)
static void check_huge(int v)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_REQUIRE_DEVICE_BYTES(lab2_device_bytes(LAB2_HUGE_N, 0), "lab2 at n = 2^31 + 13");
    lab2_problem *p = lab2_problem_create(LAB2_HUGE_N, LAB2_I64, 31);
    kit_test_expect_pass(lab2_problem_case(p, v, 0), lab2_variants[v].info.step, "type=i64 n=2^31+13");
    lab2_problem_destroy(p);
}
Test(lab2_v0, past_2_31, .timeout = 600) { check_huge(0); }
Test(lab2_v6, past_2_31, .timeout = 600) { check_huge(6); }

/* The f32 check is exact (lab2_f32_grid), so a sum that lost values fails it: run
 * every f32 row on the first n - k of n values and judge the result against the sum
 * of all n. n = 2^24 + 3 ends on a 3-value tail after the last 16-byte vector. */
/* The f32 sum of d_in[0, count) by variant v (lab2_variant_count: cub) into *got;
 * returns the launcher's status (KIT_TODO for a step not written yet). */
static int f32_sum_on_gpu(int v, const float *d_in, size_t count, lab2_workspace ws, float *d_out, float *got)
{
    lab2_io io = { LAB2_F32, d_in, count, d_out, v < lab2_variant_count && lab2_variants[v].grid
                                                     ? lab2_variants[v].grid(LAB2_F32) : 0, ws };
    int err = v == lab2_variant_count ? lab2_cub(&io, 0) : lab2_variants[v].run(&io, 0);
    if (err)
        return err;
    cr_assert(eq(int, (int)cudaMemcpy(got, d_out, sizeof *got, cudaMemcpyDeviceToHost), 0));
    return 0;
}

Test(lab2_f32, a_lost_value_fails_the_check)
{
    KIT_TEST_REQUIRE_GPU();
    const size_t n = (1u << 24) + 3;
    KIT_TEST_EMULATED_UP_TO(n, "the lost-value check");
    float *h = malloc(n * sizeof *h);
    lab2_fill_f32(h, n, 77);
    double exact = lab2_ref_sum_f32(h, n);
    lab2_workspace ws = { .capacity = lab2_partials_capacity(n) };
    ws.cub_temp_bytes = lab2_cub_temp_bytes(LAB2_F32, n);
    float *d_in = kit_device_alloc(n * sizeof *h, "input"), *d_out = kit_device_alloc(8, "result");
    for (int b = 0; b < 2; b++)
        ws.partials[b] = kit_device_alloc(ws.capacity * sizeof(int64_t), "partials");
    ws.ticket = kit_device_alloc(sizeof *ws.ticket, "ticket");
    ws.cub_temp = kit_device_alloc(ws.cub_temp_bytes, "cub temp");
    cr_assert(eq(int, (int)cudaMemcpy(d_in, h, n * sizeof *h, cudaMemcpyHostToDevice), 0));
    cr_assert(eq(int, (int)cudaMemset(ws.ticket, 0, sizeof *ws.ticket), 0));
    const size_t lost[] = { 0, 1, 3, 4 }; /* 0: the full sum passes */
    char msg[256];
    for (int v = 0; v <= lab2_variant_count; v++) {
        if (v < lab2_variant_count && !lab2_variant_supports(v, LAB2_F32))
            continue;
        const char *slug = v < lab2_variant_count ? lab2_variants[v].info.slug : "cub";
        for (size_t k = 0; k < sizeof lost / sizeof lost[0]; k++) {
            float got = 0;
            int err = f32_sum_on_gpu(v, d_in, n - lost[k], ws, d_out, &got);
            if (err == KIT_TODO)
                break; /* a step not written yet: its own suite reports it */
            cr_assert(eq(int, err, 0), "%s: launch failed", slug);
            int bad = lab2_check_f32(got, exact, n, msg, sizeof msg);
            if (lost[k] == 0)
                cr_expect(eq(int, bad, 0), "%s, all %zu values: %s", slug, n, msg);
            else
                cr_expect(eq(int, bad, 1), "%s lost the last %zu of %zu values and still passed", slug, lost[k], n);
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(ws.partials[0]);
    cudaFree(ws.partials[1]);
    cudaFree(ws.ticket);
    cudaFree(ws.cub_temp);
    free(h);
}

/* The table and the suites must not drift apart. */
Test(lab2_table, one_suite_per_variant_and_types)
{
    cr_assert(eq(int, lab2_variant_count, 7));
    for (int v = 0; v < lab2_variant_count; v++)
        cr_expect(lab2_variant_supports(v, LAB2_I64), "%s must support i64", lab2_variants[v].info.slug);
    for (int v = 4; v < lab2_variant_count; v++)
        cr_expect(eq(u32, lab2_variants[v].types, LAB2_ALL_TYPES), "%s must support every type",
                  lab2_variants[v].info.slug);
    cr_expect(not(eq(ptr, (void *)lab2_variants[5].grid, NULL)));
    cr_expect(not(eq(ptr, (void *)lab2_variants[6].grid, NULL)));
}
