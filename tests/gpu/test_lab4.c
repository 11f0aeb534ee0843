/* lab4's GPU suite: every variant against the CPU reference. One suite per
 * variant (lab4_v0 .. lab4_v5, plus lab4_cub for the library row), so
 * Criterion's --filter grades one step. The two joins (Step 4.4, v4, and the
 * fused one of Step 4.5, v5) run the same join tests, each in its own suite.
 * Sizes come from the tile shapes in lab4_shapes.h (one tile and one item either side,
 * several tiles), so retuning a tile moves its tests. Every merge-like size runs
 * the skewed splits |A| = 0, 1, n/2, n - 1, uniform keys and runs of equal keys
 * (ties across A and B), and every merge variant merges keys alone and key-value
 * pairs whose values are origins: a merge that puts B first on ties fails.
 * The worked example and the final merge also run once past 2^31 keys. */
#include "kit_test.h"
#include "lab4.h"

#include <stdlib.h>
#include <string.h>

#define COUNT(x) (sizeof(x) / sizeof((x)[0]))

static size_t merge_sizes[] = { 0, 1, 2, 31, 32, 33, 1023, 1025,
                                LAB4_MERGE_NT - 1, LAB4_MERGE_NT + 1,
                                LAB4_MERGE_NV - 1, LAB4_MERGE_NV, LAB4_MERGE_NV + 1,
                                3 * LAB4_MERGE_NV + 1, (1u << 20) + 7, 1u << 24 };
static size_t search_sizes[] = { 0, 1, 2, 31, 33, 1025,
                                 LAB4_SEARCH_NV - 1, LAB4_SEARCH_NV, LAB4_SEARCH_NV + 1,
                                 3 * LAB4_SEARCH_NV + 1, (1u << 20) + 7, 1u << 24 };
/* LBS: a tile holds NV outputs + objects together. */
typedef struct {
    size_t outs, objs;
} lbs_shape;
#define LBS_TILE_OBJS (LAB4_LBS_NV / 4)
static lbs_shape lbs_shapes[] = {
    { 0, 0 }, { 0, 1 }, { 1, 1 }, { 31, 7 }, { 33, 1 },
    { LAB4_LBS_NV - LBS_TILE_OBJS - 1, LBS_TILE_OBJS }, /* one item short of a tile */
    { LAB4_LBS_NV - LBS_TILE_OBJS, LBS_TILE_OBJS },     /* one tile */
    { LAB4_LBS_NV - LBS_TILE_OBJS + 1, LBS_TILE_OBJS }, /* one item over */
    { 3 * LAB4_LBS_NV - 99, 100 },
    { (1u << 20) + 7, ((1u << 20) + 7) / 4 }, { (1u << 20) + 7, ((1u << 20) + 7) / 64 },
    { 1u << 24, 1u << 22 }, { 1u << 24, 1u << 18 },
};
/* Joins: the search runs with the search tile (objects = |A| + |B|), the expand
 * with the join tile (rows + objects; v5 expands in the search tile). They stop at 2^20 + 7 here (the hash-join
 * reference is the slow part); join_large_tables runs 2^24 once. */
static size_t join_sizes[] = { 0, 1, 2, 31, 33, 1025,
                               LAB4_SEARCH_NV - 1, LAB4_SEARCH_NV, LAB4_SEARCH_NV + 1,
                               LAB4_JOIN_NV - 1, LAB4_JOIN_NV, LAB4_JOIN_NV + 1,
                               3 * LAB4_JOIN_NV + 1, (1u << 20) + 7 };

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

/* The case of variant v, or of CUB's merge for v < 0. */
static kit_case case_of(lab4_problem *p, int v)
{
    return v >= 0 ? lab4_problem_case(p, v) : lab4_problem_cub_case(p);
}

static const char *step_of(int v) { return v >= 0 ? lab4_variants[v].info.step : "cub"; }

/* Merge-like op with |A| = na of n, the keys uniform (dups = 0) or in runs of equal
 * keys (dups = 1); a merge also as pairs when `pairs`. v < 0: cub. */
static void check_merge_keys(int v, lab4_op op, size_t n, size_t na, int dups, int pairs)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_EMULATED_UP_TO(n, "the case");
    size_t nb = n - na;
    int32_t *a = malloc((na + 1) * sizeof(int32_t)), *b = malloc((nb + 1) * sizeof(int32_t));
    lab4_make_sorted(a, na, n, 7 + n + na, dups);
    lab4_make_sorted(b, nb, n, 99 + n + na, dups);
    lab4_problem *p = lab4_problem_create(op, a, na, b, nb);
    char what[96];
    snprintf(what, sizeof what, "n=%zu |A|=%zu %s keys", n, na, dups ? "dups" : "uniform");
    kit_test_expect_pass(case_of(p, v), step_of(v), what);
    if (pairs) {
        lab4_problem_use_pairs(p);
        snprintf(what, sizeof what, "n=%zu |A|=%zu %s key-value pairs", n, na, dups ? "dups" : "uniform");
        kit_test_expect_pass(case_of(p, v), step_of(v), what);
    }
    lab4_problem_destroy(p);
    free(a);
    free(b);
}

/* Both kinds of keys; a merge also as pairs. */
static void check_merge_split(int v, lab4_op op, size_t n, size_t na)
{
    for (int dups = 0; dups <= 1; dups++)
        check_merge_keys(v, op, n, na, dups, op == LAB4_MERGE);
}

/* Every split of n. */
static void check_merge_like(int v, lab4_op op, size_t n)
{
    size_t splits[4];
    int ns = splits_of(n, splits);
    for (int s = 0; s < ns; s++)
        check_merge_split(v, op, n, splits[s]);
}

#define SIZES_SUITE(suite, array, body)                                                 \
    ParameterizedTestParameters(suite, sizes) { return KIT_TEST_SIZE_PARAMS(array); }   \
    ParameterizedTest(size_t *n, suite, sizes)                                          \
    {                                                                                   \
        KIT_CASE("n=%zu", *n);                                                          \
        body;                                                                           \
    }

SIZES_SUITE(lab4_v0, merge_sizes, check_merge_like(0, LAB4_MERGE, *n))
SIZES_SUITE(lab4_v1, merge_sizes, check_merge_like(1, LAB4_MERGE, *n))
SIZES_SUITE(lab4_cub, merge_sizes, check_merge_like(-1, LAB4_MERGE, *n))
SIZES_SUITE(lab4_v2, search_sizes, check_merge_like(2, LAB4_SEARCH, *n))

/* The partition kernel's shape changes with the number of tile boundaries
 * (lab4_shapes.h, lab4_tile.cuh): the largest counts searched with 32, 16, 8 and 4
 * lanes per boundary, then with one lane in one level (the first and the last
 * such count), the first in two levels, and one whose last partition block ends
 * 6 boundaries into a level-1 group. |A| = n / 2 (the other splits take the
 * same code path). The shape depends on the boundary count alone, so the grading
 * selection (KIT_GRADE_SELECTION=1) merges one input per count, keys with runs of
 * equal keys: the full set's outputs (9 GB) would take most of a grade's time. */
static void check_partition_shapes(int v, lab4_op op, size_t nv)
{
    const size_t probes = LAB4_PARTITION_PROBES;
    const size_t boundaries[] = { probes / 32,     probes / 16, probes / 8, probes / 4,
                                  probes / 4 + 1,  probes - 1,  probes,     probes + 38 };
    KIT_TEST_EMU_SIZES_BEGIN;
    for (size_t i = 0; i < COUNT(boundaries); i++) {
        size_t n = (boundaries[i] - 2) * nv + nv / 2 + 1; /* boundaries[i] - 1 tiles */
        if (KIT_TEST_EMU_TOO_BIG(n))
            continue;
        if (kit_test_grading())
            check_merge_keys(v, op, n, n / 2, 1, 0);
        else
            check_merge_split(v, op, n, n / 2);
    }
    KIT_TEST_EMU_SIZES_END("a partition shape");
}

Test(lab4_v1, partition_shapes) { check_partition_shapes(1, LAB4_MERGE, LAB4_MERGE_NV); }
Test(lab4_v2, partition_shapes) { check_partition_shapes(2, LAB4_SEARCH, LAB4_SEARCH_NV); }

/* ---- merge stability: only the values can show it ---------------------------- */

/* Keys with many ties across A and B: 5000 + 4000 keys over 40 values. Running a
 * merge on B and A swapped puts B first on equal keys: the keys come out right,
 * and the check must still fail it, naming the tie rule. (A variant that is B
 * first itself turns stable when swapped and fails here instead.) */
static void check_b_first_fails(int v)
{
    KIT_TEST_REQUIRE_GPU();
    enum { NA = 5000, NB = 4000 };
    int32_t *a = malloc(NA * sizeof(int32_t)), *b = malloc(NB * sizeof(int32_t));
    for (int i = 0; i < NA; i++)
        a[i] = i * 40 / NA;
    for (int j = 0; j < NB; j++)
        b[j] = j * 40 / NB;
    lab4_problem *p = lab4_problem_create(LAB4_MERGE, a, NA, b, NB);
    lab4_problem_use_pairs(p);
    kit_case c = case_of(p, v);
    cr_assert(eq(int, c.prepare(c.ctx, 0), 0));
    lab4_io swapped = *lab4_problem_io(p);
    swapped.a = lab4_problem_io(p)->b;
    swapped.a_vals = lab4_problem_io(p)->b_vals;
    swapped.a_count = NB;
    swapped.b = lab4_problem_io(p)->a;
    swapped.b_vals = lab4_problem_io(p)->a_vals;
    swapped.b_count = NA;
    void *temp = NULL;
    size_t temp_bytes = v < 0 ? lab4_cub_merge_temp_bytes(NB, NA, 1) : 0;
    if (temp_bytes)
        cr_assert(eq(int, (int)cudaMalloc(&temp, temp_bytes), 0));
    int r = v >= 0 ? lab4_variants[v].run(&swapped, 0) : lab4_cub_merge(&swapped, temp, temp_bytes, 0);
    if (r == KIT_TODO)
        KIT_TEST_FAIL_TODO(step_of(v), c.variant);
    cr_assert(eq(int, r, 0));
    cr_assert(eq(int, (int)cudaDeviceSynchronize(), 0));
    char msg[512] = "";
    cr_assert(eq(int, c.check(c.ctx, msg, sizeof msg), 1),
              "%s: a merge of B before A on equal keys passed the check", c.variant);
    cr_assert(strstr(msg, "not stable") != NULL, "%s: the failure names the tie rule: %s", c.variant, msg);
    cudaFree(temp);
    lab4_problem_destroy(p);
    free(a);
    free(b);
}

Test(lab4_v0, b_first_merge_fails_the_check) { check_b_first_fails(0); }
Test(lab4_v1, b_first_merge_fails_the_check) { check_b_first_fails(1); }
Test(lab4_cub, b_first_merge_fails_the_check) { check_b_first_fails(-1); }

/* ---- past 2^31 keys -------------------------------------------------------------- */

/* Free host memory (MemAvailable), or SIZE_MAX when it cannot be read. */
static size_t host_available_bytes(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    char line[256];
    size_t kib = 0;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %zu kB", &kib) == 1)
            break;
    if (f)
        fclose(f);
    return kib ? kib * 1024 : SIZE_MAX;
}

/* One checked run (no repetition) of a merge of n = 2^31 + 2^24 + 2^20 + 12 keys,
 * |A| = 2^31 + 2^20 + 5 of them: every position, every tile offset and A's item
 * indices pass 2^31, so a kernel that keeps any of them in an int fails. Keys
 * alone (int32 origins could not name A's items). Skipped, with the reason,
 * where the device or the host cannot hold it (a skip is not a pass). */
static void check_huge_merge(int v)
{
    size_t na = ((size_t)1 << 31) + (1u << 20) + 5, nb = (1u << 24) + 7, n = na + nb;
    /* keys in and out, the partitions, and what lab4_problem_create reserves */
    KIT_TEST_REQUIRE_DEVICE_BYTES(n * (2 * sizeof(int32_t) + 1) + (n / LAB4_MIN_NV + 2) * sizeof(int64_t),
                                  "a merge past 2^31 keys");
    size_t host_bytes = 3 * n * sizeof(int32_t); /* inputs, reference, the downloaded output */
    if (host_bytes + ((size_t)4 << 30) > host_available_bytes())
        cr_skip_test("a merge of %zu keys needs %.1f GiB of host memory, %.1f GiB are available", n,
                     host_bytes / 1073741824.0, host_available_bytes() / 1073741824.0);
    int32_t *a = malloc(na * sizeof(int32_t)), *b = malloc(nb * sizeof(int32_t));
    cr_assert(a && b, "host allocation of the inputs");
    lab4_make_sorted(a, na, n, 31, 0);
    lab4_make_sorted(b, nb, n, 32, 0);
    lab4_problem *p = lab4_problem_create(LAB4_MERGE, a, na, b, nb);
    kit_test_expect_pass(lab4_problem_case(p, v), lab4_variants[v].info.step,
                         "n = 2^31 + 2^24 + 2^20 + 12 keys, |A| = 2^31 + 2^20 + 5");
    lab4_problem_destroy(p);
    free(a);
    free(b);
}

Test(lab4_v0, past_2_31_keys) { check_huge_merge(0); }
Test(lab4_v1, past_2_31_keys) { check_huge_merge(1); }

/* ---- load-balancing search ------------------------------------------------------- */

static void check_lbs_offsets(const int64_t *offsets, size_t objs, const char *what)
{
    lab4_problem *p = lab4_problem_create_lbs(offsets, objs);
    kit_test_expect_pass(lab4_problem_case(p, 3), lab4_variants[3].info.step, what);
    lab4_problem_destroy(p);
}

ParameterizedTestParameters(lab4_v3, sizes) { return KIT_TEST_PARAMS(lbs_shape, lbs_shapes, outs); }

ParameterizedTest(lbs_shape *shape, lab4_v3, sizes)
{
    KIT_CASE("outputs=%zu,objects=%zu", shape->outs, shape->objs);
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_EMULATED_UP_TO(shape->outs + shape->objs, "the case (outputs and objects)");
    int64_t *off = malloc((shape->objs + 1) * sizeof(int64_t));
    lab4_make_offsets(off, shape->objs, shape->outs, 11 + shape->outs);
    char what[96];
    snprintf(what, sizeof what, "%zu outputs, %zu objects", shape->outs, shape->objs);
    check_lbs_offsets(off, shape->objs, what);
    free(off);
}

/* The shapes that break naive schedules. */
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

/* ---- joins ------------------------------------------------------------------------- */

/* Every join type, dups 1 and 4, every split. */
static void check_join(int v, size_t n)
{
    KIT_TEST_REQUIRE_GPU();
    KIT_TEST_EMULATED_UP_TO(n, "the case");
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
                kit_test_expect_pass(lab4_problem_case(p, v), lab4_variants[v].info.step, what);
            }
            lab4_problem_destroy(p);
            free(a);
            free(b);
        }
}

SIZES_SUITE(lab4_v4, join_sizes, check_join(4, *n))
SIZES_SUITE(lab4_v5, join_sizes, check_join(5, *n))

static void join_all_types(int v, const int32_t *a, size_t na, const int32_t *b, size_t nb, const char *what)
{
    lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, na, b, nb);
    for (lab4_join_type t = LAB4_INNER; t <= LAB4_OUTER; t++) {
        cr_assert(eq(int, lab4_problem_set_join(p, t), 0));
        char w[128];
        snprintf(w, sizeof w, "%s join, %s", lab4_join_name(t), what);
        kit_test_expect_pass(lab4_problem_case(p, v), lab4_variants[v].info.step, w);
    }
    lab4_problem_destroy(p);
}

static void no_matches_and_all_matches(int v)
{
    KIT_TEST_REQUIRE_GPU();
    enum { N = 3000 };
    int32_t *a = malloc(N * sizeof(int32_t)), *b = malloc(N * sizeof(int32_t));
    for (int i = 0; i < N; i++) {
        a[i] = 2 * i;     /* even keys */
        b[i] = 2 * i + 1; /* odd keys: nothing matches */
    }
    join_all_types(v, a, N, b, N, "no key in common");
    for (int i = 0; i < N; i++)
        a[i] = b[i] = 42; /* one key: N * N = 9e6 rows */
    join_all_types(v, a, N, b, N, "all keys equal (outer product 3000 x 3000)");
    join_all_types(v, a, 1, b, N, "one A row matching 3000 B rows");
    join_all_types(v, a, N, b, 1, "3000 A rows matching one B row");
    free(a);
    free(b);
}

Test(lab4_v4, no_matches_and_all_matches) { no_matches_and_all_matches(4); }
Test(lab4_v5, no_matches_and_all_matches) { no_matches_and_all_matches(5); }

/* The three phase events (lab4_io.phase_events) are recorded on every path that
 * succeeds: empty inputs, a join without rows, and an ordinary one. An event
 * that was never recorded has no elapsed time. */
Test(lab4_v4, phase_events_recorded_on_every_successful_path)
{
    KIT_TEST_REQUIRE_GPU();
    enum { N = 2000 };
    int32_t *a = malloc(N * sizeof(int32_t)), *b = malloc(N * sizeof(int32_t));
    for (int i = 0; i < N; i++) {
        a[i] = 2 * i;
        b[i] = 2 * i + (i % 3 == 0 ? 0 : 1); /* every third key matches */
    }
    static const struct {
        size_t na, nb;
        lab4_join_type type;
        const char *what;
    } runs[] = {
        { 0, 0, LAB4_INNER, "empty tables" },
        { N, 1, LAB4_INNER, "an inner join without rows" },
        { N, N, LAB4_INNER, "an inner join" },
        { N, N, LAB4_OUTER, "an outer join" },
    };
    int32_t odd[1] = { 1 }; /* matches no A key: the inner join has no rows */
    for (size_t k = 0; k < COUNT(runs); k++) {
        const int32_t *bb = k == 1 ? odd : b;
        lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, runs[k].na, bb, runs[k].nb);
        cr_assert(eq(int, lab4_problem_set_join(p, runs[k].type), 0));
        lab4_io *io = lab4_problem_io(p);
        cudaEvent_t start, ev[3];
        cr_assert(eq(int, (int)cudaEventCreate(&start), 0));
        for (int i = 0; i < 3; i++) {
            cr_assert(eq(int, (int)cudaEventCreate(&ev[i]), 0));
            io->phase_events[i] = ev[i];
        }
        cr_assert(eq(int, (int)cudaEventRecord(start, 0), 0));
        int r = lab4_join(io, 0);
        if (r == KIT_TODO)
            KIT_TEST_FAIL_TODO("4.4", "join");
        cr_assert(eq(int, r, 0), "%s", runs[k].what);
        cr_assert(eq(int, (int)cudaDeviceSynchronize(), 0));
        for (int i = 0; i < 3; i++) {
            float ms = 0;
            cr_assert(eq(int, (int)cudaEventElapsedTime(&ms, start, ev[i]), 0),
                      "%s: phase event %d was not recorded", runs[k].what, i);
            io->phase_events[i] = NULL;
            cudaEventDestroy(ev[i]);
        }
        cudaEventDestroy(start);
        lab4_problem_destroy(p);
    }
    free(a);
    free(b);
}

/* True when count int32 from d_ptr all still hold kit_poison's bytes (0xA5). */
static int still_poisoned(const int32_t *d_ptr, size_t count)
{
    int32_t *h = kit_download(d_ptr, count * sizeof(int32_t));
    int32_t poison;
    memset(&poison, 0xA5, sizeof poison);
    size_t k = 0;
    while (k < count && h[k] == poison)
        k++;
    free(h);
    return k == count;
}

/* The launcher computes the output size first and refuses to write past the
 * capacity it was given: a clean error code, the true row count, no crash. */
static void output_larger_than_capacity(int v)
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
    cr_assert(eq(int, kit_poison(io->join_a, capacity * sizeof(int32_t), 0), 0));
    cr_assert(eq(int, kit_poison(io->join_b, capacity * sizeof(int32_t), 0), 0));
    const char *step = lab4_variants[v].info.step;
    int r = lab4_variants[v].run(io, 0);
    if (r == KIT_TODO)
        KIT_TEST_FAIL_TODO(step, lab4_variants[v].info.slug);
    cr_assert(eq(int, r, LAB4_ERR_JOIN_TOO_LARGE),
              "Step %s: a join of %d rows with join_capacity 1000 must return LAB4_ERR_JOIN_TOO_LARGE", step,
              N * N);
    cr_assert(eq(sz, *io->join_rows, (size_t)N * N),
              "Step %s: on LAB4_ERR_JOIN_TOO_LARGE, *join_rows holds the true row count (lab4.h)", step);
    cr_assert(eq(int, (int)cudaDeviceSynchronize(), 0), "the context must survive");
    size_t untouched_from = v == 4 ? 0 : 1000; /* Step 4.4 writes no row, Step 4.5 none past the capacity */
    cr_assert(still_poisoned(io->join_a + untouched_from, capacity - untouched_from) &&
                  still_poisoned(io->join_b + untouched_from, capacity - untouched_from),
              "Step %s: a join refused at join_capacity 1000 wrote rows from %zu on", step, untouched_from);
    io->join_capacity = capacity;
    kit_test_expect_pass(lab4_problem_case(p, v), step, "after the refused run");
    lab4_problem_destroy(p);
    free(a);
}

Test(lab4_v4, output_larger_than_capacity_is_a_clean_error) { output_larger_than_capacity(4); }
Test(lab4_v5, output_larger_than_capacity_is_a_clean_error) { output_larger_than_capacity(5); }

/* The row count stays on the device until the launcher's last step, so the
 * expand is launched for join_capacity rows and must itself find a bigger join
 * and write nothing (Step 4.4), or nothing past the capacity (Step 4.5, whose
 * tiles write before the total is known). At the edges: capacity = rows passes,
 * rows - 1 is refused with the true count and leaves the output as it was (4.4)
 * or its last row as it was (4.5); a capacity 4x the rows
 * passes (Step 4.4's expand grid sized for it); an inner join refused at half
 * its rows writes none (4.4) or none from the capacity on (4.5); runs in a row agree (the look-back's
 * status words are reset in every run); a join of disjoint tables has 0 rows. */
static void capacity_edges_and_repeated_runs(int v)
{
    KIT_TEST_REQUIRE_GPU();
    const char *step = lab4_variants[v].info.step;
    size_t n = 3 * LAB4_SEARCH_NV + 5, na = n / 2, nb = n - na; /* several search tiles */
    int32_t *a = malloc(na * sizeof(int32_t)), *b = malloc(nb * sizeof(int32_t));
    lab4_make_table(a, na, 4, 41);
    lab4_make_table(b, nb, 4, 42);
    lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, na, b, nb);
    cr_assert(eq(int, lab4_problem_set_join(p, LAB4_OUTER), 0));
    lab4_io *io = lab4_problem_io(p);
    size_t rows = lab4_problem_join_rows(p);
    cr_assert(eq(sz, io->join_capacity, rows), "the first join type sizes the output exactly");
    cr_assert(gt(sz, rows, n), "duplicates: more rows than keys");
    kit_case c = lab4_problem_case(p, v);
    for (int run = 0; run < 3; run++)
        kit_test_expect_pass(c, step, run ? "capacity = rows, run again" : "capacity = rows");

    io->join_capacity = rows - 1;
    cr_assert(eq(int, kit_poison(io->join_a, rows * sizeof(int32_t), 0), 0));
    cr_assert(eq(int, kit_poison(io->join_b, rows * sizeof(int32_t), 0), 0));
    int r = lab4_variants[v].run(io, 0);
    if (r == KIT_TODO)
        KIT_TEST_FAIL_TODO(step, lab4_variants[v].info.slug);
    cr_assert(eq(int, r, LAB4_ERR_JOIN_TOO_LARGE), "Step %s: %zu rows with join_capacity %zu", step, rows, rows - 1);
    cr_assert(eq(sz, *io->join_rows, rows), "Step %s: on LAB4_ERR_JOIN_TOO_LARGE, *join_rows is the true count", step);
    cr_assert(eq(int, (int)cudaDeviceSynchronize(), 0), "the context must survive");
    if (v == 4)
        cr_assert(still_poisoned(io->join_a, rows) && still_poisoned(io->join_b, rows),
                  "Step 4.4: a join that does not fit writes no row (capacity = rows - 1)");
    else
        cr_assert(still_poisoned(io->join_a + rows - 1, 1) && still_poisoned(io->join_b + rows - 1, 1),
                  "Step %s: a join that does not fit writes nothing past the capacity (row %zu)", step, rows - 1);

    /* An inner join (no B rows to wait for) refused at half its rows: a limit
     * inside the tiles, so Step 4.5's tiles on both sides of it decide alone. */
    cr_assert(eq(int, lab4_problem_set_join(p, LAB4_INNER), 0));
    size_t inner_rows = lab4_problem_join_rows(p), half = inner_rows / 2;
    io->join_capacity = half;
    cr_assert(eq(int, kit_poison(io->join_a, inner_rows * sizeof(int32_t), 0), 0));
    cr_assert(eq(int, kit_poison(io->join_b, inner_rows * sizeof(int32_t), 0), 0));
    r = lab4_variants[v].run(io, 0);
    cr_assert(eq(int, r, LAB4_ERR_JOIN_TOO_LARGE), "Step %s: inner join of %zu rows with join_capacity %zu", step,
              inner_rows, half);
    cr_assert(eq(sz, *io->join_rows, inner_rows), "Step %s: the true count after a refusal", step);
    size_t from = v == 4 ? 0 : half;
    cr_assert(still_poisoned(io->join_a + from, inner_rows - from) && still_poisoned(io->join_b + from, inner_rows - from),
              "Step %s: an inner join refused at join_capacity %zu wrote rows from %zu on", step, half, from);
    cr_assert(eq(int, lab4_problem_set_join(p, LAB4_OUTER), 0));

    io->join_capacity = 4 * rows; /* more than the buffers hold: the join must write only its rows */
    r = lab4_variants[v].run(io, 0);
    cr_assert(eq(int, r, 0), "Step %s: join_capacity 4x the rows", step);
    cr_assert(eq(int, (int)cudaDeviceSynchronize(), 0));
    char msg[512] = "";
    cr_assert(eq(int, c.check(c.ctx, msg, sizeof msg), 0), "Step %s, join_capacity 4x the rows: %s", step, msg);
    io->join_capacity = rows;
    kit_test_expect_pass(c, step, "capacity = rows, after the others");
    lab4_problem_destroy(p);

    for (size_t j = 0; j < nb; j++) /* keys no A row has: lab4_make_table's keys are >= 0 */
        b[j] = -1 - (int32_t)(nb - j);
    lab4_problem *q = lab4_problem_create(LAB4_JOIN, a, na, b, nb);
    cr_assert(eq(int, lab4_problem_set_join(q, LAB4_INNER), 0));
    cr_assert(eq(sz, lab4_problem_io(q)->join_capacity, (size_t)0));
    kit_test_expect_pass(lab4_problem_case(q, v), step, "disjoint tables: 0 rows, capacity 0");
    cr_assert(eq(sz, *lab4_problem_io(q)->join_rows, (size_t)0));
    lab4_problem_destroy(q);
    free(a);
    free(b);
}

Test(lab4_v4, capacity_edges_and_repeated_runs) { capacity_edges_and_repeated_runs(4); }
Test(lab4_v5, capacity_edges_and_repeated_runs) { capacity_edges_and_repeated_runs(5); }

/* One table, both store paths of Step 4.5 in one launch: the first half of
 * the keys unique (tiles whose A rows have at most one row each), the second
 * about 4 rows per key (tiles that stage chunks), so tiles of both kinds chain
 * through one look-back. Run on both joins. */
static void unique_then_duplicated_keys(int v)
{
    KIT_TEST_REQUIRE_GPU();
    size_t n = 12 * LAB4_SEARCH_NV + 7, na = n / 2, nb = n - na;
    int32_t *a = malloc(na * sizeof(int32_t)), *b = malloc(nb * sizeof(int32_t));
    int32_t *t[2] = { a, b };
    size_t count[2] = { na, nb };
    for (int side = 0; side < 2; side++) {
        size_t half = count[side] / 2;
        lab4_make_table(t[side], half, 1, 61 + side);
        lab4_make_table(t[side] + half, count[side] - half, 4, 63 + side);
        for (size_t i = half; i < count[side]; i++) /* past every key of the first half */
            t[side][i] += (int32_t)(4 * n);
    }
    join_all_types(v, a, na, b, nb, "unique keys, then about 4 rows per key");
    free(a);
    free(b);
}

Test(lab4_v4, unique_then_duplicated_keys) { unique_then_duplicated_keys(4); }
Test(lab4_v5, unique_then_duplicated_keys) { unique_then_duplicated_keys(5); }

/* One hot key among unique keys (lab4_make_hot, as the driver's --hot): its
 * 3000 x 3000 rows fall in two of Step 4.5's search tiles, both over the share
 * threshold, with the hot key in the middle of A and at A's end (where only the
 * tiles of its B rows come after). Every other tile stores its unique keys
 * directly. The whole output is compared with the CPU reference, so a wrong row
 * in any claim, the owner's or a helper's, fails; whether a helper won a claim
 * is up to the GPU's timing and is not asserted. Run on both joins. */
static void hot_key_among_unique_keys(int v)
{
    KIT_TEST_REQUIRE_GPU();
    enum { HOT = 3000 };
    size_t na = 100 * LAB4_SEARCH_NV + 5, nb = na + 11;
    int32_t *a = malloc(na * sizeof(int32_t)), *b = malloc(nb * sizeof(int32_t));
    const size_t where[2] = { na / 2, na - 1 };
    const char *what[2] = { "a 3000 x 3000 hot key in the middle", "a 3000 x 3000 hot key at A's end" };
    for (int w = 0; w < 2; w++) {
        lab4_make_table(a, na, 1, 71);
        lab4_make_table(b, nb, 1, 72);
        int32_t key = a[where[w]];
        lab4_make_hot(a, na, key, HOT);
        lab4_make_hot(b, nb, key, HOT);
        join_all_types(v, a, na, b, nb, what[w]);
    }
    free(a);
    free(b);
}

Test(lab4_v4, hot_key_among_unique_keys) { hot_key_among_unique_keys(4); }
Test(lab4_v5, hot_key_among_unique_keys) { hot_key_among_unique_keys(5); }

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

/* The lecture's example (section 8, from Baxter's "Turning the Crank" slides),
 * typed in as the slide shows it (keys are letters; the same table is in the
 * CPU suite, which also checks this transcription). The slide's table is the
 * full outer join; the other types keep its inner, left or right rows, in order. */
static const char example_a[] = "AABEEEEFFGHHJJMM";
static const char example_b[] = "AABBBCCFGGHILL";
static const struct {
    int a_index, b_index;
    char type; /* i(nner), l(eft), r(ight) */
} example_rows[26] = {
    { 0, 0, 'i' },   { 0, 1, 'i' },   { 1, 0, 'i' },   { 1, 1, 'i' },   { 2, 2, 'i' },
    { 2, 3, 'i' },   { 2, 4, 'i' },   { 3, -1, 'l' },  { 4, -1, 'l' },  { 5, -1, 'l' },
    { 6, -1, 'l' },  { 7, 7, 'i' },   { 8, 7, 'i' },   { 9, 8, 'i' },   { 9, 9, 'i' },
    { 10, 10, 'i' }, { 11, 10, 'i' }, { 12, -1, 'l' }, { 13, -1, 'l' }, { 14, -1, 'l' },
    { 15, -1, 'l' }, { -1, 5, 'r' },  { -1, 6, 'r' },  { -1, 11, 'r' }, { -1, 12, 'r' },
    { -1, 13, 'r' },
};

static void lecture_example_table(int v)
{
    KIT_TEST_REQUIRE_GPU();
    int32_t a[16], b[14];
    for (int i = 0; i < 16; i++)
        a[i] = example_a[i];
    for (int j = 0; j < 14; j++)
        b[j] = example_b[j];
    lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, 16, b, 14);
    for (lab4_join_type t = LAB4_INNER; t <= LAB4_OUTER; t++) {
        int32_t ea[26], eb[26];
        size_t rows = 0;
        for (int r = 0; r < 26; r++) {
            char k = example_rows[r].type;
            if (k == 'i' || (k == 'l' && (t == LAB4_LEFT || t == LAB4_OUTER)) ||
                (k == 'r' && (t == LAB4_RIGHT || t == LAB4_OUTER))) {
                ea[rows] = example_rows[r].a_index;
                eb[rows] = example_rows[r].b_index;
                rows++;
            }
        }
        cr_assert(eq(int, lab4_problem_set_join(p, t), 0));
        kit_test_expect_pass(lab4_problem_case(p, v), lab4_variants[v].info.step, lab4_join_name(t));
        lab4_io *io = lab4_problem_io(p);
        cr_assert(eq(sz, *io->join_rows, rows), "%s join of the lecture's tables", lab4_join_name(t));
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

Test(lab4_v4, lecture_example_table) { lecture_example_table(4); }
Test(lab4_v5, lecture_example_table) { lecture_example_table(5); }

static void join_large_tables(int v)
{
    KIT_TEST_REQUIRE_GPU();
    size_t n = (size_t)1 << 24, na = n / 2, nb = n - na;
    KIT_TEST_EMULATED_UP_TO(n, "the large join");
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
            kit_test_expect_pass(lab4_problem_case(p, v), lab4_variants[v].info.step, what);
        }
        lab4_problem_destroy(p);
    }
    free(a);
    free(b);
}

Test(lab4_v4, join_large_tables) { join_large_tables(4); }
Test(lab4_v5, large_tables) { join_large_tables(5); } /* not "join_...": the 4.4 filter *join* must not run it */

/* The table and the suites must not drift apart. */
Test(lab4_table, one_suite_per_variant)
{
    cr_assert(eq(int, lab4_variant_count, 6));
    cr_assert(eq(int, (int)lab4_variants[0].op, (int)LAB4_MERGE));
    cr_assert(eq(int, (int)lab4_variants[1].op, (int)LAB4_MERGE));
    cr_assert(eq(int, (int)lab4_variants[2].op, (int)LAB4_SEARCH));
    cr_assert(eq(int, (int)lab4_variants[3].op, (int)LAB4_LBS));
    cr_assert(eq(int, (int)lab4_variants[4].op, (int)LAB4_JOIN));
    cr_assert(eq(int, (int)lab4_variants[5].op, (int)LAB4_JOIN));
}
