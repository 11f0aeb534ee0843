/* lab0's GPU suite: every variant against the CPU reference at every size.
 * One suite per variant (lab0_v0 .. lab0_v7) so Criterion's --filter grades one
 * step. Sizes: the kit's usual edges, the copy's tile of LAB0_COPY_NT x
 * LAB0_COPY_VT int4 (in records: 3n floats just below and above it), and, for the
 * worked example and the last step, one run past 2^31 floats. */
#include "kit_test.h"
#include "lab0.h"

/* The copy's tile is 4 * NT * VT floats (4096): records whose 3n floats fall one
 * int4 short of it, fill it plus a tail, and spill into a second tile. */
#define COPY_TILE_RECORDS (4 * LAB0_COPY_NT * LAB0_COPY_VT / 3)
static size_t sizes[] = { KIT_TEST_SIZES, COPY_TILE_RECORDS, COPY_TILE_RECORDS + 1, COPY_TILE_RECORDS + 2 };

/* Strides and offsets that cross the interesting boundaries: unit, odd, a full
 * sector (8 floats), the widest; aligned and misaligned starts. */
static const int strides[] = { 1, 2, 3, 8, 32 };
static const int offsets[] = { 0, 1, 7, 32 };

static void check_variant(int v, size_t n)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_EMULATED_UP_TO(n, "the case");
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
        return KIT_TEST_SIZE_PARAMS(sizes);                                             \
    }                                                                                   \
    ParameterizedTest(size_t *n, lab0_v##V, sizes)                                      \
    {                                                                                   \
        KIT_CASE("n=%zu", *n);                                                          \
        check_variant(V, *n);                                                           \
    }

LAB0_SUITE(0)
LAB0_SUITE(1)
LAB0_SUITE(2)
LAB0_SUITE(3)
LAB0_SUITE(4)
LAB0_SUITE(5)
LAB0_SUITE(6)
LAB0_SUITE(7)

/* Past 2^31 floats (3n = 2^31 + 3 * 2^20): a kernel whose thread index is a 32-bit
 * int leaves the last words unwritten or writes them elsewhere. Lean: one checked
 * run, no repeats. */
static void check_past_2_31(int v)
{
    KIT_TEST_REQUIRE_GPU();
    const size_t n = ((size_t)1 << 31) / 3 + ((size_t)1 << 20) + 1;
    KIT_TEST_REQUIRE_DEVICE_BYTES(lab0_device_bytes(n), "lab0 at 3n = 2^31 + 3 * 2^20 + 1 floats");
    lab0_problem *p = lab0_problem_create(n, 31, 2, 1);
    kit_test_expect_pass(lab0_problem_case(p, v), lab0_variants[v].info.step, "n = 2^31 / 3 + 2^20 + 1 records");
    lab0_problem_destroy(p);
}

Test(lab0_v0, past_2_31_floats, .timeout = 600) { check_past_2_31(0); }
Test(lab0_v7, past_2_31_floats, .timeout = 600) { check_past_2_31(7); }

/* The table and the suites must not drift apart. */
Test(lab0_table, one_suite_per_variant)
{
    cr_assert(eq(int, lab0_variant_count, 8));
}
