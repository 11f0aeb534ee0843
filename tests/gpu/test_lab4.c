/* lab4's GPU suite: every variant against the CPU reference. One suite per
 * variant (lab4_v0 .. lab4_v4, plus lab4_cub for the library row), so
 * Criterion's --filter grades one step. Sizes cross the default tiles (merge:
 * 128 x 23 = 2944 items; search: 128 x 11 = 1408; LBS and join: 128 x 7 = 896) and every size
 * runs the skewed splits |A| = 0, 1, n/2, n - 1. */
#include "kit_test.h"
#include "lab4.h"

#include <stdlib.h>
#include <string.h>

static size_t sizes[] = { 0, 1, 2, 31, 33, 1025, 2943, 2944, 2945, 1407, 1408, 1409, 895, 896, 897,
                          (1u << 20) + 7, 1u << 24 };
/* Joins stop at 2^20 + 7 here (the hash-join reference is the slow part);
 * join_large_tables runs 2^24 once. */
static size_t join_sizes[] = { 0, 1, 2, 31, 33, 1025, 895, 896, 897, (1u << 20) + 7 };

#define COUNT(x) (sizeof(x) / sizeof((x)[0]))

/* |A| for the skewed splits of n; returns how many (duplicates dropped). */
static int splits_of(size_t n, size_t *out)
{
    size_t cand[4] = { 0, 1, n / 2, n ? n - 1 : 0 };
    int k = 0;
    for (int i = 0; i < 4; i++) {
        int seen = cand[i] > n;
        for (int j = 0; j < k; j++)
            seen |= out[j] == cand[i];
        if (!seen)
            out[k++] = cand[i];
    }
    return k;
}

/* Merge-like ops: uniform keys and runs of equal keys, every split. v < 0: cub. */
static void check_merge_like(int v, lab4_op op, size_t n)
{
    KIT_TEST_REQUIRE_GPU();
    size_t splits[4];
    int ns = splits_of(n, splits);
    for (int dups = 0; dups <= 1; dups++)
        for (int s = 0; s < ns; s++) {
            size_t na = splits[s], nb = n - na;
            int32_t *a = malloc((na + 1) * sizeof(int32_t)), *b = malloc((nb + 1) * sizeof(int32_t));
            lab4_make_sorted(a, na, n, 7 + n + (size_t)s, dups);
            lab4_make_sorted(b, nb, n, 99 + n + (size_t)s, dups);
            lab4_problem *p = lab4_problem_create(op, a, na, b, nb);
            char what[96];
            snprintf(what, sizeof what, "n=%zu |A|=%zu %s", n, na, dups ? "dups" : "uniform");
            if (v >= 0)
                kit_test_expect_pass(lab4_problem_case(p, v), lab4_variants[v].info.step, what);
            else
                kit_test_expect_pass(lab4_problem_cub_case(p), "cub", what);
            lab4_problem_destroy(p);
            free(a);
            free(b);
        }
}

static void check_lbs_offsets(const int64_t *offsets, size_t objs, const char *what)
{
    lab4_problem *p = lab4_problem_create_lbs(offsets, objs);
    kit_test_expect_pass(lab4_problem_case(p, 3), lab4_variants[3].info.step, what);
    lab4_problem_destroy(p);
}

/* n outputs over n / 4 objects (some empty), and over n / 64 (long objects). */
static void check_lbs(size_t n)
{
    KIT_TEST_REQUIRE_GPU();
    size_t objs_list[2] = { n ? (n / 4 ? n / 4 : 1) : 0, n ? (n / 64 ? n / 64 : 1) : 0 };
    for (int i = 0; i < 2; i++) {
        size_t objs = objs_list[i];
        int64_t *off = malloc((objs + 1) * sizeof(int64_t));
        lab4_make_offsets(off, objs, n, 11 + n);
        char what[96];
        snprintf(what, sizeof what, "n=%zu outputs, %zu objects", n, objs);
        check_lbs_offsets(off, objs, what);
        free(off);
    }
}

/* Every join type, dups 1 and 4, every split. */
static void check_join(size_t n)
{
    KIT_TEST_REQUIRE_GPU();
    size_t splits[4];
    int ns = splits_of(n, splits);
    static const int dups[2] = { 1, 4 };
    for (int d = 0; d < 2; d++)
        for (int s = 0; s < ns; s++) {
            size_t na = splits[s], nb = n - na;
            int32_t *a = malloc((na + 1) * sizeof(int32_t)), *b = malloc((nb + 1) * sizeof(int32_t));
            lab4_make_table(a, na, dups[d], 5 + n);
            lab4_make_table(b, nb, dups[d], 6 + n);
            lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, na, b, nb);
            for (lab4_join_type t = LAB4_INNER; t <= LAB4_OUTER; t++) {
                cr_assert(eq(int, lab4_problem_set_join(p, t), 0));
                char what[96];
                snprintf(what, sizeof what, "%s join n=%zu |A|=%zu dups=%d", lab4_join_name(t), n, na,
                         dups[d]);
                kit_test_expect_pass(lab4_problem_case(p, 4), lab4_variants[4].info.step, what);
            }
            lab4_problem_destroy(p);
            free(a);
            free(b);
        }
}

ParameterizedTestParameters(lab4_v0, sizes) { return cr_make_param_array(size_t, sizes, COUNT(sizes)); }
ParameterizedTest(size_t *n, lab4_v0, sizes) { check_merge_like(0, LAB4_MERGE, *n); }
ParameterizedTestParameters(lab4_v1, sizes) { return cr_make_param_array(size_t, sizes, COUNT(sizes)); }
ParameterizedTest(size_t *n, lab4_v1, sizes) { check_merge_like(1, LAB4_MERGE, *n); }
ParameterizedTestParameters(lab4_cub, sizes) { return cr_make_param_array(size_t, sizes, COUNT(sizes)); }
ParameterizedTest(size_t *n, lab4_cub, sizes) { check_merge_like(-1, LAB4_MERGE, *n); }
ParameterizedTestParameters(lab4_v2, sizes) { return cr_make_param_array(size_t, sizes, COUNT(sizes)); }
ParameterizedTest(size_t *n, lab4_v2, sizes) { check_merge_like(2, LAB4_SEARCH, *n); }
ParameterizedTestParameters(lab4_v3, sizes) { return cr_make_param_array(size_t, sizes, COUNT(sizes)); }
ParameterizedTest(size_t *n, lab4_v3, sizes) { check_lbs(*n); }
ParameterizedTestParameters(lab4_v4, sizes) { return cr_make_param_array(size_t, join_sizes, COUNT(join_sizes)); }
ParameterizedTest(size_t *n, lab4_v4, sizes) { check_join(*n); }

/* ---- load-balancing search: the shapes that break naive schedules ---------- */

Test(lab4_v3, empty_objects_and_one_huge_object)
{
    KIT_TEST_REQUIRE_GPU();
    enum { OBJS = 5000 };
    int64_t *off = malloc((OBJS + 1) * sizeof(int64_t));
    /* all empty: no outputs at all */
    for (int j = 0; j <= OBJS; j++)
        off[j] = 0;
    check_lbs_offsets(off, OBJS, "5000 empty objects");
    /* one object of 2^20 outputs amid empty ones */
    for (int j = 0; j <= OBJS; j++)
        off[j] = j <= 2500 ? 0 : 1 << 20;
    check_lbs_offsets(off, OBJS, "one object of 2^20 outputs amid 4999 empty ones");
    /* alternating empty and 3 */
    off[0] = 0;
    for (int j = 0; j < OBJS; j++)
        off[j + 1] = off[j] + (j % 2 ? 3 : 0);
    check_lbs_offsets(off, OBJS, "every other object empty");
    /* one single object */
    int64_t single[2] = { 0, 100000 };
    check_lbs_offsets(single, 1, "a single object of 100000 outputs");
    free(off);
}

/* ---- joins: no matches, all matches, the limit, the seed's example --------- */

static void join_all_types(const int32_t *a, size_t na, const int32_t *b, size_t nb, const char *what)
{
    lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, na, b, nb);
    for (lab4_join_type t = LAB4_INNER; t <= LAB4_OUTER; t++) {
        cr_assert(eq(int, lab4_problem_set_join(p, t), 0));
        char w[128];
        snprintf(w, sizeof w, "%s join, %s", lab4_join_name(t), what);
        kit_test_expect_pass(lab4_problem_case(p, 4), lab4_variants[4].info.step, w);
    }
    lab4_problem_destroy(p);
}

Test(lab4_v4, no_matches_and_all_matches)
{
    KIT_TEST_REQUIRE_GPU();
    enum { N = 3000 };
    int32_t *a = malloc(N * sizeof(int32_t)), *b = malloc(N * sizeof(int32_t));
    for (int i = 0; i < N; i++) {
        a[i] = 2 * i;     /* even keys */
        b[i] = 2 * i + 1; /* odd keys: nothing matches */
    }
    join_all_types(a, N, b, N, "no key in common");
    for (int i = 0; i < N; i++)
        a[i] = b[i] = 42; /* one key: N * N = 9e6 rows */
    join_all_types(a, N, b, N, "all keys equal (outer product 3000 x 3000)");
    join_all_types(a, 1, b, N, "one A row matching 3000 B rows");
    join_all_types(a, N, b, 1, "3000 A rows matching one B row");
    free(a);
    free(b);
}

/* The launcher computes the output size first and refuses to write past the
 * capacity it was given: a clean error code, the true row count, no crash. */
Test(lab4_v4, output_larger_than_capacity_is_a_clean_error)
{
    KIT_TEST_REQUIRE_GPU();
    enum { N = 1000 };
    int32_t *a = malloc(N * sizeof(int32_t));
    for (int i = 0; i < N; i++)
        a[i] = 7;
    lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, N, a, N);
    cr_assert(eq(int, lab4_problem_set_join(p, LAB4_INNER), 0));
    lab4_io *io = lab4_problem_io(p);
    size_t capacity = io->join_capacity;
    cr_assert(eq(sz, capacity, (size_t)N * N));
    io->join_capacity = 1000;
    int r = lab4_join(io, 0);
    if (r == KIT_TODO)
        cr_fail("Step 4.4 (join) is not implemented yet (TODO)");
    cr_assert(eq(int, r, LAB4_ERR_JOIN_TOO_LARGE));
    cr_assert(eq(sz, *io->join_rows, (size_t)N * N));
    cr_assert(eq(int, (int)cudaDeviceSynchronize(), 0), "the context must survive");
    io->join_capacity = capacity;
    kit_test_expect_pass(lab4_problem_case(p, 4), lab4_variants[4].info.step, "after the refused run");
    lab4_problem_destroy(p);
    free(a);
}

/* A join past LAB4_JOIN_MAX_ROWS (2^16 x 2^16 equal keys = 2^32 rows) is refused
 * with a message (the driver then exits 2) before anything is allocated for it,
 * and the problem stays usable. */
Test(lab4_v4, output_past_the_limit_is_refused)
{
    KIT_TEST_REQUIRE_GPU();
    size_t n = (size_t)1 << 16;
    int32_t *a = malloc(n * sizeof(int32_t));
    for (size_t i = 0; i < n; i++)
        a[i] = 1;
    lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, n, a, n);
    cr_assert(eq(int, lab4_problem_set_join(p, LAB4_INNER), KIT_EXIT_USAGE));
    cr_assert(eq(int, lab4_problem_set_join(p, LAB4_OUTER), KIT_EXIT_USAGE));
    lab4_problem_destroy(p);
    a[0] = 0; /* a small join with duplicates on the same process still works */
    lab4_problem *q = lab4_problem_create(LAB4_JOIN, a, 100, a, 100);
    cr_assert(eq(int, lab4_problem_set_join(q, LAB4_INNER), 0));
    kit_test_expect_pass(lab4_problem_case(q, 4), lab4_variants[4].info.step, "100 x 100 after a refusal");
    lab4_problem_destroy(q);
    free(a);
}

/* The seed's example (Baxter, "Turning the Crank", the relational join slide),
 * typed in as the seed shows it (keys are letters; the same table is in the CPU
 * suite, which also checks this transcription). The seed's table is the full
 * outer join; the other types keep its inner, left or right rows, in order. */
static const char seed_a[] = "AABEEEEFFGHHJJMM";
static const char seed_b[] = "AABBBCCFGGHILL";
static const struct {
    int a_index, b_index;
    char type; /* i(nner), l(eft), r(ight) */
} seed_rows[26] = {
    { 0, 0, 'i' },   { 0, 1, 'i' },   { 1, 0, 'i' },   { 1, 1, 'i' },   { 2, 2, 'i' },
    { 2, 3, 'i' },   { 2, 4, 'i' },   { 3, -1, 'l' },  { 4, -1, 'l' },  { 5, -1, 'l' },
    { 6, -1, 'l' },  { 7, 7, 'i' },   { 8, 7, 'i' },   { 9, 8, 'i' },   { 9, 9, 'i' },
    { 10, 10, 'i' }, { 11, 10, 'i' }, { 12, -1, 'l' }, { 13, -1, 'l' }, { 14, -1, 'l' },
    { 15, -1, 'l' }, { -1, 5, 'r' },  { -1, 6, 'r' },  { -1, 11, 'r' }, { -1, 12, 'r' },
    { -1, 13, 'r' },
};

Test(lab4_v4, seed_example_table)
{
    KIT_TEST_REQUIRE_GPU();
    int32_t a[16], b[14];
    for (int i = 0; i < 16; i++)
        a[i] = seed_a[i];
    for (int j = 0; j < 14; j++)
        b[j] = seed_b[j];
    lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, 16, b, 14);
    for (lab4_join_type t = LAB4_INNER; t <= LAB4_OUTER; t++) {
        int32_t ea[26], eb[26];
        size_t rows = 0;
        for (int r = 0; r < 26; r++) {
            char k = seed_rows[r].type;
            if (k == 'i' || (k == 'l' && (t == LAB4_LEFT || t == LAB4_OUTER)) ||
                (k == 'r' && (t == LAB4_RIGHT || t == LAB4_OUTER))) {
                ea[rows] = seed_rows[r].a_index;
                eb[rows] = seed_rows[r].b_index;
                rows++;
            }
        }
        cr_assert(eq(int, lab4_problem_set_join(p, t), 0));
        kit_test_expect_pass(lab4_problem_case(p, 4), lab4_variants[4].info.step, lab4_join_name(t));
        lab4_io *io = lab4_problem_io(p);
        cr_assert(eq(sz, *io->join_rows, rows), "%s join of the seed's tables", lab4_join_name(t));
        int32_t *ga = kit_download(io->join_a, rows * sizeof(int32_t));
        int32_t *gb = kit_download(io->join_b, rows * sizeof(int32_t));
        for (size_t r = 0; r < rows; r++) {
            cr_assert(eq(i32, ga[r], ea[r]), "%s join, row %zu: a_index", lab4_join_name(t), r);
            cr_assert(eq(i32, gb[r], eb[r]), "%s join, row %zu: b_index", lab4_join_name(t), r);
        }
        free(ga);
        free(gb);
    }
    lab4_problem_destroy(p);
}

Test(lab4_v4, join_large_tables)
{
    KIT_TEST_REQUIRE_GPU();
    size_t n = (size_t)1 << 24, na = n / 2, nb = n - na;
    int32_t *a = malloc(na * sizeof(int32_t)), *b = malloc(nb * sizeof(int32_t));
    for (int d = 1; d <= 4; d += 3) {
        lab4_make_table(a, na, d, 21);
        lab4_make_table(b, nb, d, 22);
        lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, na, b, nb);
        lab4_join_type types[2] = { LAB4_INNER, LAB4_OUTER };
        for (int t = 0; t < 2; t++) {
            cr_assert(eq(int, lab4_problem_set_join(p, types[t]), 0));
            char what[64];
            snprintf(what, sizeof what, "%s join n=2^24 dups=%d", lab4_join_name(types[t]), d);
            kit_test_expect_pass(lab4_problem_case(p, 4), lab4_variants[4].info.step, what);
        }
        lab4_problem_destroy(p);
    }
    free(a);
    free(b);
}

/* The table and the suites must not drift apart. */
Test(lab4_table, one_suite_per_variant)
{
    cr_assert(eq(int, lab4_variant_count, 5));
    cr_assert(eq(int, (int)lab4_variants[0].op, (int)LAB4_MERGE));
    cr_assert(eq(int, (int)lab4_variants[1].op, (int)LAB4_MERGE));
    cr_assert(eq(int, (int)lab4_variants[2].op, (int)LAB4_SEARCH));
    cr_assert(eq(int, (int)lab4_variants[3].op, (int)LAB4_LBS));
    cr_assert(eq(int, (int)lab4_variants[4].op, (int)LAB4_JOIN));
}
