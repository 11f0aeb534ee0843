/* lab2's GPU suite: every variant and every type it supports against the CPU
 * reference, at every size. One suite per variant (lab2_v0 .. lab2_v6, plus
 * lab2_cub for the library row) so Criterion's --filter grades one step.
 *
 * Each case runs twice in a row without any reset in between, so a variant that
 * leaves state behind (the single-pass ticket) fails on the second run. The
 * grid-stride variants also run with 1 and 7 blocks: one block walks every tile,
 * seven get an uneven number of tiles each. */
#include "kit_test.h"
#include "lab2.h"

#define LAB2_BIG_N ((1u << 28) + 13)
/* KIT_TEST_SIZES plus this lab's boundaries: a block of 256 values +-1, two
 * blocks' worth (first-add) +-1, one register-blocked tile (4096 int32) +-1, and
 * one value more than two passes of 256-wide blocks can finish (three passes). */
#define LAB2_TEST_SIZES KIT_TEST_SIZES, 255, 257, 511, 513, 4095, 4097, 65537

static size_t sizes[] = { LAB2_TEST_SIZES };
static size_t big_sizes[] = { LAB2_TEST_SIZES, LAB2_BIG_N };

/* A problem of n values (and room for the context and libraries) fits now. */
static int fits(size_t n)
{
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess)
        return 0;
    return lab2_device_bytes(n, 0) + ((size_t)512 << 20) < free_b;
}

static void expect_pass_twice(kit_case c, const char *step, const char *what)
{
    kit_test_expect_pass(c, step, what);
    kit_test_expect_pass(c, step, what);
}

/* v == lab2_variant_count: the cub row. */
static void check_variant(int v, size_t n)
{
    KIT_TEST_REQUIRE_GPU();
    cr_assert(le(int, v, lab2_variant_count));
    if (!fits(n))
        cr_skip_test("n=%zu needs %.2f GiB of device memory: more than is free", n,
                     lab2_device_bytes(n, 0) / 1073741824.0);
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
        return cr_make_param_array(size_t, SIZES, sizeof SIZES / sizeof SIZES[0]);      \
    }                                                                                   \
    ParameterizedTest(size_t *n, NAME, sizes) { check_variant(V, *n); }

LAB2_SUITE(lab2_v0, 0, sizes)
LAB2_SUITE(lab2_v1, 1, sizes)
LAB2_SUITE(lab2_v2, 2, sizes)
LAB2_SUITE(lab2_v3, 3, sizes)
LAB2_SUITE(lab2_v4, 4, sizes)
LAB2_SUITE(lab2_v5, 5, big_sizes)
LAB2_SUITE(lab2_v6, 6, big_sizes)
LAB2_SUITE(lab2_cub, 7, big_sizes)

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
