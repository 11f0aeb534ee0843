/* lab6's GPU suite (built only where NCCL is found): every all-reduce variant and
 * every application against the CPU reference, on a ring of one GPU and of two (the
 * two-GPU tests skip, with the reason, where fewer GPUs are present: a skip is not a
 * pass), int32 and float, each case run three times on the same buffers and
 * communicators; the sort on every distribution; one process per GPU (one rank in
 * this process, two ranks in two processes); and a corrupted value that must fail.
 * One suite per step (lab6_v0 .. lab6_v5, lab6_nccl for the library) so Criterion's
 * --filter grades one step. */
#include "kit_test.h"
#include "lab6.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define REPEATS 3
#define TEST_CHUNKS 3 /* odd: the two lanes get different numbers of chunks */

typedef struct {
    int gpus;
    size_t n;
} ring_param;

/* n: empty, one value, G-1 values, a partial warp, one past a block, a prime (no
 * segment or chunk divides it), past 2^20 and odd, 2^24. */
#define SIZES_FOR(G) \
    { G, 0 }, { G, 1 }, { G, G - 1 }, { G, 31 }, { G, 1025 }, { G, 100003 }, { G, (1u << 20) + 7 }, { G, 1u << 24 }
static ring_param params[] = { SIZES_FOR(1), SIZES_FOR(2) };

/* Open a ring of G GPUs driven by this process, or skip with the reason. */
static void open_team(lab6_team *t, int G)
{
    KIT_TEST_REQUIRE_GPU();
    int count = 0;
    cudaGetDeviceCount(&count);
    if (count < G)
        cr_skip_test("a ring of %d GPUs needs %d GPUs, %d present", G, G, count);
    char why[512];
    cr_assert(eq(int, lab6_team_open(t, 0, G, why, sizeof why), 0), "%s", why);
}

static int find(const char *slug) { return kit_variant_find(KIT_VARIANTS(lab6_variants, lab6_variant_count), slug); }

static int index_of(const char *slug)
{
    int v = find(slug);
    cr_assert(ge(int, v, 0), "no variant %s", slug);
    return v;
}

/* ---- the all-reduce ------------------------------------------------------------- */

static void check_reduce_on(lab6_team *team, int v, size_t n, int chunks)
{
    for (int type = LAB6_I32; type <= LAB6_F32; type++) {
        lab6_reduce_problem *p = lab6_reduce_create(team, n, (lab6_type)type, chunks, 42 + n);
        for (int r = 0; r < REPEATS; r++) {
            char what[128];
            snprintf(what, sizeof what, "G=%d n=%zu %s chunks=%d run %d of %d", team->gpus, n,
                     type == LAB6_I32 ? "i32" : "f32", chunks, r + 1, REPEATS);
            kit_test_expect_pass(lab6_reduce_case(p, v), lab6_variants[v].info.step, what);
        }
        lab6_reduce_destroy(p);
    }
}

static void check_reduce(const char *slug, ring_param prm)
{
    KIT_TEST_EMULATED_UP_TO(prm.n, "the case");
    lab6_team team;
    open_team(&team, prm.gpus);
    check_reduce_on(&team, index_of(slug), prm.n, TEST_CHUNKS);
    lab6_team_close(&team);
}

#define REDUCE_SUITE(SUITE, SLUG)                                                     \
    ParameterizedTestParameters(SUITE, sizes) { return KIT_TEST_PARAMS(ring_param, params, n); } \
    ParameterizedTest(ring_param *prm, SUITE, sizes)                                  \
    {                                                                                 \
        KIT_CASE("gpus=%d,n=%zu", prm->gpus, prm->n);                                 \
        check_reduce(SLUG, *prm);                                                     \
    }

REDUCE_SUITE(lab6_v0, "host-staged")
REDUCE_SUITE(lab6_v1, "gather-reduce-broadcast")
REDUCE_SUITE(lab6_v2, "ring")
REDUCE_SUITE(lab6_nccl, "nccl")

/* Every chunk count, on a size no chunk divides. */
static void check_every_chunk_count(int G)
{
    lab6_team team;
    open_team(&team, G);
    for (int chunks = 1; chunks <= LAB6_MAX_CHUNKS; chunks++)
        check_reduce_on(&team, index_of("ring"), 100003, chunks);
    lab6_team_close(&team);
}
Test(lab6_v2, every_chunk_count_one_gpu) { check_every_chunk_count(1); }
Test(lab6_v2, every_chunk_count_two_gpus) { check_every_chunk_count(2); }

/* Indices past 2^31: 2^31 + 64 floats (8 GiB) per buffer on one GPU. */
Test(lab6_v1, huge_2_31_plus_64, .timeout = 600)
{
    size_t n = ((size_t)1 << 31) + 64;
    KIT_TEST_REQUIRE_DEVICE_BYTES(2 * n * sizeof(float), "n = 2^31+64 floats (input and output)");
    lab6_team team;
    open_team(&team, 1);
    lab6_reduce_problem *p = lab6_reduce_create(&team, n, LAB6_F32, 1, 5);
    kit_test_expect_pass(lab6_reduce_case(p, index_of("gather-reduce-broadcast")), "6.1", "n=2^31+64 f32");
    lab6_reduce_destroy(p);
    lab6_team_close(&team);
}

/* The check is exact (tolerance 0): one value off by a little must fail. */
Test(lab6_check, one_wrong_value_fails)
{
    lab6_team team;
    open_team(&team, 1);
    for (int type = LAB6_I32; type <= LAB6_F32; type++) {
        lab6_reduce_problem *p = lab6_reduce_create(&team, 1025, (lab6_type)type, 1, 3);
        kit_case c = lab6_reduce_case(p, index_of("nccl"));
        kit_test_expect_pass(c, "lib", "n=1025 before the corruption");
        cr_assert(eq(int, lab6_reduce_corrupt(p, 777), 0));
        char why[256] = "";
        cr_assert(eq(int, c.check(c.ctx, why, sizeof why), 1), "a corrupted value passed the check");
        cr_assert(not(eq(ptr, strstr(why, "index 777"), NULL)), "the message names the value: %s", why);
        lab6_reduce_destroy(p);
    }
    lab6_team_close(&team);
}

/* The sort's CPU reference (parallel LSD radix) against the C library's qsort, on
 * every distribution, at sizes that leave some threads one key more than others.
 * CPU only, but here because the reference is built only where NCCL is. */
static int compare_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

Test(lab6_check, reference_sort_matches_qsort)
{
    size_t sizes[] = { 0, 1, 2, 255, 257, 100003, ((size_t)1 << 20) + 7 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int d = 0; lab6_sort_dists[d]; d++) {
            size_t n = sizes[s];
            uint32_t *keys = malloc(n * sizeof *keys + 1), *ours = malloc(n * sizeof *ours + 1),
                     *theirs = malloc(n * sizeof *theirs + 1);
            lab6_fill_keys(keys, n, LAB6_SORT, lab6_sort_dists[d], 256, 17 + n);
            lab6_ref_sort(keys, n, ours);
            memcpy(theirs, keys, n * sizeof *keys);
            qsort(theirs, n, sizeof *theirs, compare_u32);
            cr_assert(eq(int, memcmp(ours, theirs, n * sizeof *ours), 0), "n=%zu %s", n, lab6_sort_dists[d]);
            free(keys);
            free(ours);
            free(theirs);
        }
}

/* ---- the applications ------------------------------------------------------------- */

/* The step's application on each distribution of `dists` (NULL-terminated), one
 * team for them all (opening one, NCCL's set-up, costs more than a small case). */
static void check_app(const char *slug, lab6_op op, ring_param prm, const char *const *dists)
{
    KIT_TEST_EMULATED_UP_TO(prm.n, "the case");
    lab6_team team;
    open_team(&team, prm.gpus);
    int v = index_of(slug);
    for (int d = 0; dists[d]; d++) {
        lab6_app_problem *p = lab6_app_create(&team, op, prm.n, dists[d], 256, 7 + prm.n);
        for (int r = 0; r < REPEATS; r++) {
            char what[128];
            snprintf(what, sizeof what, "G=%d n=%zu %s run %d of %d", prm.gpus, prm.n, dists[d], r + 1, REPEATS);
            kit_test_expect_pass(lab6_app_case(p, v), lab6_variants[v].info.step, what);
        }
        kit_test_expect_pass(lab6_app_case(p, LAB6_ONE_GPU), "one GPU", dists[d]); /* the row it is timed against */
        lab6_app_destroy(p);
    }
    lab6_team_close(&team);
}

static const char *const uniform_only[] = { "uniform", NULL };

#define APP_SUITE(SUITE, BODY)                                                        \
    ParameterizedTestParameters(SUITE, sizes) { return KIT_TEST_PARAMS(ring_param, params, n); } \
    ParameterizedTest(ring_param *prm, SUITE, sizes)                                  \
    {                                                                                 \
        KIT_CASE("gpus=%d,n=%zu", prm->gpus, prm->n);                                 \
        BODY                                                                          \
    }

APP_SUITE(lab6_v3, check_app("histogram", LAB6_HISTOGRAM, *prm, uniform_only);)
APP_SUITE(lab6_v4, check_app("scan", LAB6_SCAN, *prm, uniform_only);)
APP_SUITE(lab6_v5, check_app("sort", LAB6_SORT, *prm, lab6_sort_dists);)

/* All keys equal: one GPU receives every key (equal keys are never split), the others
 * none, and the result is still right. */
Test(lab6_v5, all_equal_keys_go_to_one_gpu)
{
    size_t n = (1u << 20) + 7;
    KIT_TEST_EMULATED_UP_TO(n, "the equal keys");
    lab6_team team;
    open_team(&team, 2);
    lab6_app_problem *p = lab6_app_create(&team, LAB6_SORT, n, "equal", 256, 9);
    kit_test_expect_pass(lab6_app_case(p, index_of("sort")), "6.5", "equal keys");
    size_t a = lab6_app_out_count(p, 0), b = lab6_app_out_count(p, 1);
    cr_assert(eq(sz, a + b, n));
    cr_assert(eq(sz, a > b ? a : b, n), "one GPU holds every key (%zu and %zu)", a, b);
    lab6_app_destroy(p);
    lab6_team_close(&team);
}

/* Uniform keys: the split is even to within one digit's worth of keys. */
Test(lab6_v5, uniform_keys_split_evenly)
{
    size_t n = 1u << 22;
    KIT_TEST_EMULATED_UP_TO(n, "the even split");
    lab6_team team;
    open_team(&team, 2);
    lab6_app_problem *p = lab6_app_create(&team, LAB6_SORT, n, "uniform", 256, 11);
    kit_test_expect_pass(lab6_app_case(p, index_of("sort")), "6.5", "uniform keys");
    size_t a = lab6_app_out_count(p, 0), slack = 2 * n / LAB6_DIGITS;
    cr_assert(le(sz, a > n / 2 ? a - n / 2 : n / 2 - a, slack), "GPU 0 holds %zu of %zu keys", a, n);
    lab6_app_destroy(p);
    lab6_team_close(&team);
}

/* ---- one team, many problems, every operation (communicators reused) ------------------ */

Test(lab6_team, many_problems_on_one_team)
{
    lab6_team team;
    open_team(&team, 1);
    for (int round = 0; round < 3; round++) {
        lab6_reduce_problem *p = lab6_reduce_create(&team, 4099 + round, LAB6_F32, 2, round);
        for (int v = 0; v < lab6_variant_count; v++)
            if (lab6_variants[v].op == LAB6_ALLREDUCE)
                kit_test_expect_pass(lab6_reduce_case(p, v), lab6_variants[v].info.step, "reused team");
        lab6_reduce_destroy(p);
        for (int op = LAB6_HISTOGRAM; op < LAB6_OPS; op++) {
            lab6_app_problem *a = lab6_app_create(&team, (lab6_op)op, 30011 + round, "uniform", 100, round);
            for (int v = 0; v < lab6_variant_count; v++)
                if ((int)lab6_variants[v].op == op)
                    kit_test_expect_pass(lab6_app_case(a, v), lab6_variants[v].info.step, "reused team");
            lab6_app_destroy(a);
        }
    }
    lab6_team_close(&team);
}

Test(lab6_team, nvlink_multicast_stays_off)
{
    unsetenv("NCCL_NVLS_ENABLE");
    lab6_team team;
    open_team(&team, 1);
    const char *v = getenv("NCCL_NVLS_ENABLE");
    cr_assert(not(eq(ptr, (void *)v, NULL)));
    cr_assert(eq(str, (char *)v, "0"));
    lab6_team_close(&team);
}

Test(lab6_team, more_gpus_than_present_is_refused)
{
    KIT_TEST_REQUIRE_GPU();
    int count = 0;
    cudaGetDeviceCount(&count);
    lab6_team team;
    char why[512] = "";
    cr_assert(not(eq(int, lab6_team_open(&team, 0, count + 1, why, sizeof why), 0)));
    cr_assert(not(eq(ptr, strstr(why, "present"), NULL)), "%s", why);
}

/* ---- one process per GPU ------------------------------------------------------------- */

/* Rank `rank` of `ranks` on device `rank`: every NCCL-only row at two sizes. Plain
 * return codes (no Criterion calls): a forked child runs it too. 0 pass, 1 fail,
 * 2 error, 77 fewer GPUs than ranks. */
static int run_rank(int rank, int ranks, const char *id_file, char *why, size_t len)
{
    if (kit_emulated() && ranks > 1) {
        snprintf(why, len, "not run under the CPU emulator: NCCL across processes is not emulated");
        return 77;
    }
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count < ranks) {
        snprintf(why, len, "%d processes need %d GPUs, %d present", ranks, ranks, count);
        return 77;
    }
    lab6_team team;
    if (lab6_team_open_rank(&team, rank, ranks, rank, id_file, why, len))
        return 2;
    size_t sizes[] = { 1025, (1u << 20) + 7 };
    int status = 0;
    for (int s = 0; s < 2 && !status; s++) {
        lab6_reduce_problem *p = lab6_reduce_create(&team, sizes[s], LAB6_F32, 2, 1);
        kit_case c = lab6_reduce_case(p, find("nccl"));
        status = (int)kit_check_case(&c, 0, why, len);
        lab6_reduce_destroy(p);
        for (int op = LAB6_HISTOGRAM; op < LAB6_OPS && !status; op++) {
            lab6_app_problem *a = lab6_app_create(&team, (lab6_op)op, sizes[s], "uniform", 256, 2);
            for (int v = 0; v < lab6_variant_count && !status; v++)
                if ((int)lab6_variants[v].op == op) {
                    c = lab6_app_case(a, v);
                    for (int r = 0; r < REPEATS && !status; r++)
                        status = (int)kit_check_case(&c, 0, why, len);
                }
            lab6_app_destroy(a);
        }
    }
    lab6_team_close(&team);
    return status;
}

static void id_file_in_temp_dir(char *path, size_t len)
{
    char dir[] = "/tmp/lab6-test-XXXXXX";
    cr_assert(not(eq(ptr, mkdtemp(dir), NULL)));
    snprintf(path, len, "%s/nccl-id", dir);
}

Test(lab6_ranks, one_rank_through_the_id_file)
{
    KIT_TEST_REQUIRE_GPU();
    char id[256], why[512] = "";
    id_file_in_temp_dir(id, sizeof id);
    int status = run_rank(0, 1, id, why, sizeof why);
    cr_assert(eq(int, status, 0), "rank 0 of 1: %s", why);
    cr_assert(eq(int, access(id, F_OK), -1), "rank 0 removes the id file once every rank has joined");
}

/* Two processes, one GPU each. The fork comes before this process touches CUDA
 * (CUDA does not survive a fork). */
Test(lab6_ranks, two_ranks_in_two_processes, .timeout = 300)
{
    char id[256], why[512] = "";
    id_file_in_temp_dir(id, sizeof id);
    fflush(NULL);
    pid_t child = fork();
    cr_assert(ge(int, child, 0));
    if (child == 0)
        _exit(run_rank(1, 2, id, why, sizeof why));
    int status = run_rank(0, 2, id, why, sizeof why);
    int child_status = 0;
    waitpid(child, &child_status, 0);
    if (status == 77)
        cr_skip_test("%s", why);
    cr_assert(eq(int, status, 0), "rank 0 of 2: %s", why);
    cr_assert(eq(int, WIFEXITED(child_status) ? WEXITSTATUS(child_status) : -1, 0), "rank 1 of 2 failed");
}

/* The table and the suites must not drift apart. */
Test(lab6_table, one_suite_per_variant)
{
    cr_assert(eq(int, lab6_variant_count, 7));
}
