/* CPU suite for lab1: the generators (kwarp:K really yields K distinct keys per
 * warp, zipf's rank-frequency shape, every key in range, values on the grid), the
 * parsers of --dist and --keys, the shared-memory plan, the reference and its exact
 * comparison, and the host model of Stage 1 / Stage 2 against brute force and
 * Westphal's example. */
#include "kit_test.h"
#include "lab1.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int *keys_of(size_t n, size_t bins, lab1_dist d, uint64_t seed)
{
    int *k = malloc((n + 1) * sizeof(int));
    cr_assert(k != NULL);
    lab1_generate_keys(k, n, bins, d, seed);
    for (size_t i = 0; i < n; i++)
        cr_assert(k[i] >= 0 && (size_t)k[i] < bins, "key %zu = %d outside [0, %zu)", i, k[i], bins);
    return k;
}

static int distinct_in(const int *k, int m)
{
    int count = 0;
    for (int i = 0; i < m; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= k[j] == k[i];
        count += !seen;
    }
    return count;
}

/* ---- generators ------------------------------------------------------------------ */

Test(lab1_gen, kwarp_has_exactly_k_distinct_keys_per_warp)
{
    const size_t ns[] = { 1, 5, 31, 32, 33, 1000, 4099 };
    const size_t bins_list[] = { 32, 37, 256, (size_t)1 << 20 };
    for (size_t b = 0; b < sizeof bins_list / sizeof bins_list[0]; b++)
        for (int k = 1; k <= 32; k++)
            for (size_t t = 0; t < sizeof ns / sizeof ns[0]; t++) {
                size_t n = ns[t];
                lab1_dist d = { LAB1_KWARP, k };
                int *keys = keys_of(n, bins_list[b], d, 7 + k);
                for (size_t g = 0; g * 32 < n; g++) {
                    int m = (int)(n - g * 32 < 32 ? n - g * 32 : 32);
                    int want = k < m ? k : m; /* the partial last warp: min(K, m) */
                    cr_assert(eq(int, distinct_in(keys + g * 32, m), want),
                              "kwarp:%d bins=%zu n=%zu warp %zu", k, bins_list[b], n, g);
                }
                free(keys);
            }
}

Test(lab1_gen, kwarp_with_k_equal_bins_uses_every_bin)
{
    lab1_dist d = { LAB1_KWARP, 7 };
    int *keys = keys_of(64, 7, d, 3);
    cr_assert(eq(int, distinct_in(keys, 32), 7));
    free(keys);
}

Test(lab1_gen, kwarp_pattern_differs_between_warps)
{
    lab1_dist d = { LAB1_KWARP, 2 };
    int *keys = keys_of(32 * 64, 4096, d, 11);
    int differ = 0;
    for (int g = 1; g < 64; g++)
        differ += memcmp(keys, keys + 32 * g, 32 * sizeof(int)) != 0;
    cr_assert(eq(int, differ, 63));
    free(keys);
}

Test(lab1_gen, zipf_rank_frequency_follows_one_over_rank)
{
    const size_t n = (size_t)1 << 22, bins = 256;
    lab1_dist d = { LAB1_ZIPF, 0 };
    int *keys = keys_of(n, bins, d, 5);
    int counts[256];
    lab1_ref_histogram(keys, n, (int)bins, counts);
    double harmonic = 0;
    for (size_t r = 1; r <= bins; r++)
        harmonic += 1.0 / (double)r;
    /* the first ranks carry the weight the law predicts, within 3% */
    for (int r = 1; r <= 8; r++) {
        double expected = (double)n / (harmonic * r);
        cr_expect(fabs(counts[r - 1] - expected) < 0.03 * expected, "rank %d: %d keys, the law says %.0f", r,
                  counts[r - 1], expected);
    }
    /* rank x count stays about constant: compare rank 1 with rank 100 */
    double ratio = (double)counts[0] / (100.0 * counts[99]);
    cr_expect(ratio > 0.85 && ratio < 1.15, "count(1) / (100 count(100)) = %.3f, expected ~1", ratio);
    /* and the whole curve: a least-squares slope of log(count) vs log(rank) near -1 */
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (int r = 1; r <= 128; r++) {
        double x = log(r), y = log(counts[r - 1] > 0 ? counts[r - 1] : 1);
        sx += x; sy += y; sxx += x * x; sxy += x * y; m++;
    }
    double slope = (m * sxy - sx * sy) / (m * sxx - sx * sx);
    cr_expect(fabs(slope + 1.0) < 0.05, "log-log slope %.3f, expected -1", slope);
    free(keys);
}

Test(lab1_gen, sorted_single_uniform_shapes)
{
    const size_t n = 10007, bins = 100;
    lab1_dist sorted = { LAB1_SORTED, 0 }, single = { LAB1_SINGLE, 0 }, uniform = { LAB1_UNIFORM, 0 };
    int *k = keys_of(n, bins, sorted, 1);
    for (size_t i = 1; i < n; i++)
        cr_assert(k[i - 1] <= k[i]);
    cr_assert(eq(int, k[0], 0));
    cr_assert(eq(int, k[n - 1], (int)bins - 1));
    free(k);
    k = keys_of(n, bins, single, 9);
    for (size_t i = 1; i < n; i++)
        cr_assert(eq(int, k[i], k[0]));
    free(k);
    k = keys_of(n, bins, uniform, 2);
    int counts[100];
    lab1_ref_histogram(k, n, (int)bins, counts);
    for (size_t b = 0; b < bins; b++)
        cr_expect(counts[b] > 50 && counts[b] < 160, "uniform bin %zu has %d keys", b, counts[b]);
    free(k);
    /* one bin: every generator gives key 0 */
    lab1_dist all[] = { sorted, single, uniform, { LAB1_ZIPF, 0 }, { LAB1_KWARP, 1 } };
    for (int d = 0; d < 5; d++) {
        k = keys_of(100, 1, all[d], 3);
        free(k);
    }
}

Test(lab1_gen, values_on_the_grid_nonzero_and_seeded)
{
    enum { N = 100000 };
    static double a[N], b[N];
    lab1_generate_values(a, N, 4);
    lab1_generate_values(b, N, 4);
    cr_assert(eq(int, memcmp(a, b, sizeof a), 0));
    int negative = 0, at_ends = 0;
    for (int i = 0; i < N; i++) {
        double steps = a[i] / LAB1_VALUE_GRID;
        cr_assert(a[i] >= -1.0 && a[i] <= 1.0, "value %d = %g outside [-1, 1]", i, a[i]);
        cr_assert(a[i] != 0.0, "value %d is zero: dropping it would not show", i);
        cr_assert(eq(dbl, steps, floor(steps)), "value %d = %.17g is not a multiple of 2^-20", i, a[i]);
        negative += a[i] < 0;
        at_ends += fabs(a[i]) == 1.0;
    }
    cr_expect(negative > N / 2 - N / 50 && negative < N / 2 + N / 50, "%d negative values of %d", negative, N);
    cr_expect(lt(int, at_ends, 5), "uniform over 2^21 grid points: +-1 are rare");
}

/* ---- parsers ------------------------------------------------------------------------ */

Test(lab1_parse, distributions)
{
    lab1_dist d;
    char err[256];
    cr_assert(eq(int, lab1_parse_dist("uniform", 256, &d, err, sizeof err), 0));
    cr_assert(eq(int, (int)d.kind, (int)LAB1_UNIFORM));
    cr_assert(eq(int, lab1_parse_dist("kwarp:32", 256, &d, err, sizeof err), 0));
    cr_assert(eq(int, d.k, 32));
    cr_assert(eq(int, lab1_parse_dist("kwarp:1", 1, &d, err, sizeof err), 0));
    const char *bad[] = { "kwarp:", "kwarp:0", "kwarp:33", "kwarp:4x", "kwarp:-1", "zipfy", "" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect(eq(int, lab1_parse_dist(bad[i], 256, &d, err, sizeof err), -1), "'%s'", bad[i]);
    cr_assert(eq(int, lab1_parse_dist("kwarp:8", 7, &d, err, sizeof err), -1));
    cr_assert(strstr(err, "bins") != NULL, "the message names the bins: %s", err);
    char name[32];
    lab1_dist_name((lab1_dist){ LAB1_KWARP, 4 }, name, sizeof name);
    cr_assert(eq(str, name, "kwarp:4"));
}

Test(lab1_parse, keys)
{
    int keys[32];
    char err[256];
    cr_assert(eq(int, lab1_parse_keys("2,3,3,1", 4, keys, err, sizeof err), 4));
    cr_assert(eq(int, keys[3], 1));
    cr_assert(eq(int, lab1_parse_keys("4", 4, keys, err, sizeof err), -1));
    cr_assert(strstr(err, "outside") != NULL, "%s", err);
    const char *bad[] = { "", "1,,2", "1,", "a", "1 2", "-1", "1,2x" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect(eq(int, lab1_parse_keys(bad[i], 256, keys, err, sizeof err), -1), "'%s'", bad[i]);
    char many[200] = "0";
    for (int i = 1; i < 33; i++)
        strcat(many, ",1");
    cr_assert(eq(int, lab1_parse_keys(many, 256, keys, err, sizeof err), -1));
}

/* ---- shared-memory plan ------------------------------------------------------------ */

/* An H100's limits (48 KB without opting in, 227 KB with) and a kernel with 16 bytes
 * of static shared memory, like smem-warp's histogram (its ticket flag). */
static lab1_smem_budget h100_budget(size_t elem, int max_copies, size_t static_bytes)
{
    return (lab1_smem_budget){ elem, max_copies, static_bytes, (size_t)48 << 10, (size_t)227 << 10 };
}

Test(lab1_plan, copies_fill_the_plain_limit_then_opt_in)
{
    lab1_smem_budget b = h100_budget(4, 8, 0);
    cr_assert(eq(int, lab1_plan_smem(1, &b).copies, 8));
    cr_assert(eq(int, lab1_plan_smem(256, &b).copies, 8));
    cr_assert(eq(int, lab1_plan_smem(1536, &b).copies, 8)); /* exactly 48 KB with no static bytes */
    cr_assert(eq(int, lab1_plan_smem(1537, &b).copies, 4));
    cr_assert(eq(int, lab1_plan_smem(4096, &b).copies, 2));
    cr_assert(eq(int, lab1_plan_smem(12288, &b).copies, 1));
    cr_assert(eq(int, lab1_plan_smem(12288, &b).opt_in, 0));
    lab1_smem_plan p = lab1_plan_smem(12289, &b);
    cr_assert(eq(int, p.copies, 1));
    cr_assert(eq(int, p.opt_in, 1));
    cr_assert(eq(sz, p.bytes, (size_t)12289 * 4));
    cr_assert(eq(int, lab1_plan_smem(58112, &b).copies, 1)); /* 227 KB exactly */
    cr_assert(eq(int, lab1_plan_smem(58113, &b).copies, 0));
    cr_assert(eq(int, lab1_plan_smem((size_t)1 << 20, &b).copies, 0));
    lab1_smem_budget d = h100_budget(8, 1, 0);
    cr_assert(eq(int, lab1_plan_smem(4096, &d).copies, 1));
    cr_assert(eq(int, lab1_plan_smem(8192, &d).opt_in, 1));
}

/* The launch failures of issue 9: the static bytes push these sizes over a limit. */
Test(lab1_plan, static_shared_memory_counts)
{
    lab1_smem_budget b = h100_budget(4, 8, 16);
    const struct { size_t bins; int copies, opt_in; } want[] = {
        { 1535, 8, 0 }, { 1536, 4, 0 }, { 3071, 4, 0 }, { 3072, 2, 0 }, { 6141, 2, 0 }, { 6142, 2, 0 },
        { 6143, 1, 0 }, { 6144, 1, 0 }, { 12284, 1, 0 }, { 12285, 1, 1 }, { 12288, 1, 1 }, { 58108, 1, 1 },
        { 58109, 0, 0 }, { 58112, 0, 0 },
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        lab1_smem_plan p = lab1_plan_smem(want[i].bins, &b);
        cr_expect(eq(int, p.copies, want[i].copies), "bins %zu: copies", want[i].bins);
        cr_expect(eq(int, p.opt_in, want[i].opt_in), "bins %zu: opt in", want[i].bins);
    }
    /* whatever the plan, it fits: static + dynamic within the limit it launches under */
    for (size_t bins = 1; bins <= ((size_t)1 << 16); bins++) {
        lab1_smem_plan p = lab1_plan_smem(bins, &b);
        size_t limit = p.opt_in ? b.optin_limit : b.block_limit;
        if (p.copies)
            cr_assert(le(sz, p.bytes + b.static_bytes, limit), "bins %zu", bins);
        else
            cr_assert(gt(sz, bins * b.elem + b.static_bytes, b.optin_limit), "bins %zu falls back but fits", bins);
    }
}

/* ---- reference ------------------------------------------------------------------------ */

Test(lab1_ref, histogram_and_scatter_add_by_hand)
{
    int keys[] = { 2, 0, 2, 2, 1 };
    double values[] = { 0.5, -1.0, 0.25, 0x1p-20, 0.75 };
    int counts[3];
    double sums[3];
    cr_assert(eq(int, lab1_ref_histogram(keys, 5, 3, counts), 0));
    cr_assert(eq(int, counts[0], 1));
    cr_assert(eq(int, counts[2], 3));
    lab1_ref_scatter_add(keys, values, 5, 3, sums);
    cr_assert(eq(dbl, sums[2], 0.75 + 0x1p-20));
    char msg[256];
    double got[3] = { -1.0, 0.75, 0.75 + 0x1p-20 };
    cr_assert(eq(int, lab1_compare_sums(got, sums, 3, msg, sizeof msg), 0));
    got[2] = 0.75; /* the smallest element of bin 2 lost */
    cr_assert(eq(int, lab1_compare_sums(got, sums, 3, msg, sizeof msg), 1));
    cr_assert(strstr(msg, "index 2") != NULL, "the message names the bin: %s", msg);
    got[2] = NAN;
    cr_assert(eq(int, lab1_compare_sums(got, sums, 3, msg, sizeof msg), 1));
}

/* The check is exact, so it must be: the same sums in any order, and any one
 * element dropped fails, even in a bin of millions of values (with a tolerance
 * growing like count x sum|v| x eps, 8-16 lost elements passed at n = 2^28). */
Test(lab1_ref, sums_exact_in_any_order_and_one_dropped_element_fails)
{
    const size_t n = (size_t)1 << 22;
    const int bins = 3;
    int *keys = malloc(n * sizeof(int));
    double *values = malloc(n * sizeof(double));
    cr_assert(keys && values);
    lab1_generate_keys(keys, n, (size_t)bins, (lab1_dist){ LAB1_ZIPF, 0 }, 21);
    lab1_generate_values(values, n, 21);
    double expected[3], backwards[3] = { 0, 0, 0 }, got[3];
    lab1_ref_scatter_add(keys, values, n, bins, expected);
    for (size_t i = n; i-- > 0;) /* another order: the same sums, to the bit */
        backwards[keys[i]] += values[i];
    char msg[256];
    cr_assert(eq(int, lab1_compare_sums(backwards, expected, bins, msg, sizeof msg), 0), "%s", msg);
    for (int trial = 0; trial < 50; trial++) {
        size_t drop = (size_t)kit_rand_range(99, (uint64_t)trial, 0, (int64_t)n - 1);
        memcpy(got, backwards, sizeof got);
        got[keys[drop]] -= values[drop]; /* exact: the difference is on the grid too */
        cr_assert(eq(int, lab1_compare_sums(got, expected, bins, msg, sizeof msg), 1),
                  "dropping element %zu (%g in bin %d) passed", drop, values[drop], keys[drop]);
    }
    free(keys);
    free(values);
}

/* A bin past INT32_MAX keys would wrap the GPU's int32 counter: the reference says so. */
Test(lab1_ref, histogram_reports_a_count_past_int32)
{
    const size_t n = (size_t)INT32_MAX + 2;
    int *keys = calloc(n, sizeof(int)); /* every key 0 */
    if (!keys)
        cr_skip_test("needs 8 GiB of host memory");
    int counts[2];
    cr_assert(eq(int, lab1_ref_histogram(keys, n, 2, counts), -1));
    cr_assert(eq(int, lab1_ref_histogram(keys, n - 3, 2, counts), 0));
    cr_assert(eq(int, counts[0], INT32_MAX - 1));
    free(keys);
}

/* ---- host model of Stage 1 / Stage 2 ------------------------------------------------- */

/* Brute force: lane l's peers are the active lanes with its key. */
static void brute_peers(const int *keys, uint32_t active, uint32_t *peers)
{
    for (int l = 0; l < 32; l++) {
        peers[l] = 0;
        if (!(active >> l & 1u))
            continue;
        for (int m = 0; m < 32; m++)
            if ((active >> m & 1u) && keys[m] == keys[l])
                peers[l] |= 1u << m;
    }
}

static void check_model(const int *keys, uint32_t active)
{
    uint32_t peers[32], want[32];
    lab1_stage1_step steps[32];
    int iters = lab1_model_find_peers(keys, active, peers, steps);
    brute_peers(keys, active, want);
    int distinct = 0;
    for (int l = 0; l < 32; l++) {
        cr_assert(eq(u32, peers[l], want[l]), "lane %d", l);
        if ((active >> l & 1u) && lab1_lowest_lane(want[l]) == l)
            distinct++;
    }
    cr_assert(eq(int, iters, distinct), "one iteration per distinct key");
    /* Stage 2: every leader ends with its group's sum; rounds = ceil(log2(largest group)) */
    double x[32], expect[32] = { 0 };
    int largest = 0;
    for (int l = 0; l < 32; l++) {
        x[l] = (active >> l & 1u) ? l * 3 + 1 : 0;
        if (active >> l & 1u)
            expect[lab1_lowest_lane(want[l])] += x[l];
        int size = lab1_count_lanes(want[l]);
        largest = size > largest ? size : largest;
    }
    int adds = 0;
    lab1_stage2_step s2[LAB1_MAX_ROUNDS * 32];
    int rounds = lab1_model_reduce_peers(peers, active, x, s2, &adds);
    int log2_up = 0;
    while ((1 << log2_up) < largest)
        log2_up++;
    cr_assert(eq(int, rounds, log2_up), "rounds for a group of %d", largest);
    cr_assert(eq(int, adds, distinct == 0 ? 0 : lab1_count_lanes(active) - distinct),
              "one addition per non-leader lane");
    for (int l = 0; l < 32; l++)
        if ((active >> l & 1u) && lab1_lowest_lane(want[l]) == l)
            cr_assert(eq(dbl, x[l], expect[l]), "leader %d", l);
}

Test(lab1_model, seed_example_eight_lanes)
{
    /* The seed's Stage 1 example: keys 2,3,3,1,2,3,1,2 on lanes 0..7 give the votes
     * 10010001, 00100110, 01001000 (lane 7 on the left), led by lanes 0, 1, 3. */
    int keys[32] = { 2, 3, 3, 1, 2, 3, 1, 2 };
    uint32_t peers[32], want[32];
    lab1_stage1_step steps[32];
    int iters = lab1_model_find_peers(keys, 0xffu, peers, steps);
    brute_peers(keys, 0xffu, want);
    cr_assert(eq(int, iters, 3));
    for (int it = 0; it < 3; it++) {
        int leader = steps[it].leader;
        cr_assert(eq(u32, steps[it].ballot, want[leader]), "iteration %d", it);
        cr_assert(eq(int, steps[it].key, keys[leader]));
    }
    cr_assert(eq(int, steps[0].leader, 0));
    cr_assert(eq(int, steps[1].leader, 1));
    cr_assert(eq(int, steps[2].leader, 3));
    cr_assert(eq(u32, steps[0].ballot, 0x91u)); /* 10010001 */
    cr_assert(eq(u32, steps[1].ballot, 0x26u)); /* 00100110 */
    cr_assert(eq(u32, steps[2].ballot, 0x48u)); /* 01001000 */
    cr_assert(eq(u32, steps[1].unassigned, 0x6eu));
    check_model(keys, 0xffu);
}

Test(lab1_model, random_patterns_partial_and_full_warps)
{
    int keys[32];
    for (int trial = 0; trial < 2000; trial++) {
        int range = 1 + trial % 40;
        for (int l = 0; l < 32; l++)
            keys[l] = (int)kit_rand_range(trial, (uint64_t)l, 0, range - 1);
        uint32_t active;
        switch (trial % 3) {
        case 0: active = 0xffffffffu; break;
        case 1: active = (uint32_t)(((uint64_t)1 << (1 + trial % 32)) - 1); break; /* partial last warp */
        default: active = (uint32_t)kit_hash64(trial, 99) | 1u; break;
        }
        check_model(keys, active);
    }
}

Test(lab1_model, bit_helpers)
{
    cr_assert(eq(u32, lab1_lanes_below(0), 0));
    cr_assert(eq(u32, lab1_lanes_above(31), 0));
    cr_assert(eq(u32, lab1_lanes_above(0), 0xfffffffeu));
    cr_assert(eq(int, lab1_lowest_lane(0), -1));
    cr_assert(eq(int, lab1_lowest_lane(0x80000000u), 31));
    cr_assert(eq(int, lab1_peer_position(0x91u, 7), 2));
    cr_assert(eq(u32, lab1_peers_above(0x91u, 0), 0x90u));
}

/* The reference at the largest bins, serial and threaded: its private bins must not
 * live on a thread's stack (2^20 x 8 bytes overflowed it in an OpenMP array
 * reduction and crashed every GPU test that used 2^20 bins). */
Test(lab1_ref, largest_bins_serial_and_threaded)
{
    const int bins = (int)LAB1_MAX_BINS;
    const size_t sizes[] = { 1000, ((size_t)1 << 22) + 5 };
    for (int s = 0; s < 2; s++) {
        size_t n = sizes[s];
        int *keys = malloc(n * sizeof(int));
        double *values = malloc(n * sizeof(double));
        int *counts = malloc((size_t)bins * sizeof(int)), *expect = calloc((size_t)bins, sizeof(int));
        double *sums = malloc((size_t)bins * sizeof(double)), *expect_sums = calloc((size_t)bins, sizeof(double));
        lab1_dist d = { LAB1_UNIFORM, 0 };
        lab1_generate_keys(keys, n, (size_t)bins, d, 5);
        lab1_generate_values(values, n, 5);
        for (size_t i = 0; i < n; i++) {
            expect[keys[i]]++;
            expect_sums[keys[i]] += values[i];
        }
        cr_assert(eq(int, lab1_ref_histogram(keys, n, bins, counts), 0));
        lab1_ref_scatter_add(keys, values, n, bins, sums);
        char msg[256];
        cr_assert(eq(int, kit_compare_i32(counts, expect, (size_t)bins, msg, sizeof msg), 0), "n=%zu: %s", n, msg);
        cr_assert(eq(int, lab1_compare_sums(sums, expect_sums, bins, msg, sizeof msg), 0), "n=%zu: %s", n, msg);
        free(keys); free(values); free(counts); free(expect); free(sums); free(expect_sums);
    }
}
