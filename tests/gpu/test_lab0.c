/* lab0's GPU suite: every variant against the CPU reference at every size.
 * One suite per variant (lab0_v0 .. lab0_v7) so Criterion's --filter grades one step (e.g. lab0_v3 and everything under it). */
#include "kit_test.h"
#include "lab0.h"

static size_t sizes[] = { KIT_TEST_SIZES };

/* Strides and offsets that cross the interesting boundaries: unit, odd, a full
 * sector (8 floats), the widest; aligned and misaligned starts. */
static const int strides[] = { 1, 2, 3, 8, 32 };
static const int offsets[] = { 0, 1, 7, 32 };

static void check_variant(int v, size_t n)
{
    KIT_TEST_REQUIRE_GPU();
    cr_assert(lt(int, v, lab0_variant_count));
    lab0_op op = lab0_variants[v].op;
    int tries = op == LAB0_STRIDED ? 5 : op == LAB0_OFFSET ? 4 : 1;
    for (int t = 0; t < tries; t++) {
        int stride = op == LAB0_STRIDED ? strides[t] : 2;
        int offset = op == LAB0_OFFSET ? offsets[t] : 1;
        lab0_problem *p = lab0_problem_create(n, 42 + n, stride, offset);
        char what[96];
        snprintf(what, sizeof what, "n=%zu stride=%d offset=%d", n, stride, offset);
        kit_test_expect_pass(lab0_problem_case(p, v), lab0_variants[v].info.step, what);
        lab0_problem_destroy(p);
    }
}

#define LAB0_SUITE(V)                                                                   \
    ParameterizedTestParameters(lab0_v##V, sizes)                                       \
    {                                                                                   \
        return cr_make_param_array(size_t, sizes, sizeof sizes / sizeof sizes[0]);      \
    }                                                                                   \
    ParameterizedTest(size_t *n, lab0_v##V, sizes) { check_variant(V, *n); }

LAB0_SUITE(0)
LAB0_SUITE(1)
LAB0_SUITE(2)
LAB0_SUITE(3)
LAB0_SUITE(4)
LAB0_SUITE(5)
LAB0_SUITE(6)
LAB0_SUITE(7)

/* The table and the suites must not drift apart. */
Test(lab0_table, one_suite_per_variant)
{
    cr_assert(eq(int, lab0_variant_count, 8));
}
