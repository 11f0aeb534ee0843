/* CPU suite for lab2: the reference (checked against brute force in another
 * order and wider arithmetic), the exact f32 data (lab2_f32_grid), and the
 * launch-shape math of lab2_shape.h that the launchers and kernels use. No GPU
 * needed, and no student kernel runs here: device code is checked only by the GPU
 * suite (tests/gpu/test_lab2.c). */
#include "kit_test.h"
#include "lab2.h"
#include "lab2_shape.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- reference ------------------------------------------------------------ */

Test(lab2_ref, i64_sum_matches_a_backwards_128_bit_sum)
{
    size_t sizes[] = { 0, 1, 2, 33, 1000, (1u << 20) + 7 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        int32_t *a = malloc((n ? n : 1) * sizeof *a);
        kit_fill_i32(a, n, 5 + n, -LAB2_INT_RANGE, LAB2_INT_RANGE);
        __int128 brute = 0;
        for (size_t i = n; i-- > 0;)
            brute += a[i];
        cr_expect(eq(i64, lab2_ref_sum_i64(a, n), (int64_t)brute), "n=%zu", n);
        free(a);
    }
}

Test(lab2_ref, i64_sum_is_exact_at_the_int32_extremes)
{
    enum { N = 4097 };
    static int32_t a[N];
    for (int i = 0; i < N; i++)
        a[i] = i % 2 ? INT32_MAX : INT32_MIN;
    /* 2048 pairs of (MIN + MAX) = -1 each, then one more MIN */
    cr_assert(eq(i64, lab2_ref_sum_i64(a, N), -2048 + (int64_t)INT32_MIN));
}

Test(lab2_ref, max_and_its_identity)
{
    int32_t a[] = { -5, -3, -9, INT32_MIN, -3 };
    cr_assert(eq(i32, lab2_ref_max_i32(a, 5), -3));
    cr_assert(eq(i32, lab2_ref_max_i32(a, 0), INT32_MIN));
    cr_assert(eq(i32, lab2_ref_max_i32(a + 3, 1), INT32_MIN));
    enum { N = 100000 };
    static int32_t b[N];
    kit_fill_i32(b, N, 9, -LAB2_INT_RANGE, LAB2_INT_RANGE);
    int32_t brute = INT32_MIN;
    for (int i = N - 1; i >= 0; i--)
        brute = b[i] > brute ? b[i] : brute;
    cr_assert(eq(i32, lab2_ref_max_i32(b, N), brute));
}

Test(lab2_ref, f32_sum_matches_a_backwards_long_double_sum)
{
    size_t sizes[] = { 0, 1, 31, 1025, (1u << 20) + 7 };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        float *a = malloc((n ? n : 1) * sizeof *a);
        kit_fill_f32(a, n, 11 + n, -1.0f, 1.0f);
        long double brute = 0;
        for (size_t i = n; i-- > 0;)
            brute += a[i];
        double got = lab2_ref_sum_f32(a, n);
        /* both are exact to ~1e-12 here; a float sum would be off by ~1e-4 */
        cr_expect(fabsl((long double)got - brute) <= 1e-9L, "n=%zu: %.17g vs %.17Lg", n, got, brute);
        free(a);
    }
}

/* 2^24 + 1 + 1 + ... - 2^24: in float, each 1 added to 2^24 is rounded away. The
 * compensated reference keeps them. */
Test(lab2_ref, f32_reference_keeps_what_a_float_sum_loses)
{
    enum { N = 1002 };
    static float a[N];
    a[0] = 16777216.0f;
    for (int i = 1; i < N - 1; i++)
        a[i] = 1.0f;
    a[N - 1] = -16777216.0f;
    float naive = 0.0f;
    for (int i = 0; i < N; i++)
        naive += a[i];
    cr_assert(eq(flt, naive, 0.0f), "the naive float sum should lose every 1 (got %g)", naive);
    cr_assert(eq(dbl, lab2_ref_sum_f32(a, N), 1000.0));
}

/* ---- f32 data: exact sums (lab2_f32_grid) ----------------------------------- */

Test(lab2_f32, grid_keeps_partial_sums_exact)
{
    for (size_t n = 1; n <= LAB2_MAX_N; n = n < 1000 ? n + 1 : n * 3 + 1) {
        uint64_t m = lab2_f32_grid(n);
        cr_assert(eq(u64, m & (m - 1), 0), "n=%zu: M=%llu is a power of two", n, (unsigned long long)m);
        cr_assert(m >= 16 && m <= (1u << 20), "n=%zu: M=%llu", n, (unsigned long long)m);
        /* Hoeffding: every partial sum stays below 2^24/M except with probability < 2^-150 */
        cr_assert(le(dbl, (double)n * (double)(m * m), 0x1p40), "n=%zu: n M^2 <= 2^40", n);
        if (n <= 256) /* and here in ANY order: sum |m| <= n M <= 2^24 */
            cr_assert(le(u64, n * m, 1u << 24), "n=%zu", n);
    }
    cr_assert(eq(u32, lab2_f32_grid((size_t)1 << 24), 256));
    cr_assert(eq(u32, lab2_f32_grid(((size_t)1 << 24) + 3), 128));
    cr_assert(eq(u32, lab2_f32_grid(LAB2_MAX_N), 16));
}

Test(lab2_f32, values_are_nonzero_multiples_of_one_over_m)
{
    const size_t ns[] = { 1, 7, 1000, (1u << 20) + 7 };
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        size_t n = ns[k];
        float *a = malloc(n * sizeof *a);
        lab2_fill_f32(a, n, 3 + n);
        double m = lab2_f32_grid(n);
        int negatives = 0;
        for (size_t i = 0; i < n; i++) {
            double scaled = (double)a[i] * m;
            cr_assert(scaled == floor(scaled) && scaled != 0 && fabs(scaled) <= m, "n=%zu a[%zu]=%a", n, i, a[i]);
            negatives += a[i] < 0;
        }
        if (n >= 1000) /* both signs, about as often */
            cr_assert(negatives > n * 0.45 && negatives < n * 0.55, "n=%zu: %d negatives", n, negatives);
        free(a);
    }
}

/* Float sums in the orders a GPU might use (forward, backward, a pairwise tree, one
 * accumulator per "thread" of a grid-stride loop then those in order) all equal the
 * exact reference, bit for bit; the same sums without the last one or three values
 * (the tail after the last 16-byte vector at n = 2^24 + 3) fail lab2_check_f32. */
static float sum_forward(const float *a, size_t n)
{
    float s = 0;
    for (size_t i = 0; i < n; i++)
        s += a[i];
    return s;
}
static float sum_backward(const float *a, size_t n)
{
    float s = 0;
    for (size_t i = n; i-- > 0;)
        s += a[i];
    return s;
}
static float sum_pairwise(const float *a, size_t n)
{
    if (n <= 2)
        return n == 0 ? 0.0f : n == 1 ? a[0] : a[0] + a[1];
    return sum_pairwise(a, n / 2) + sum_pairwise(a + n / 2, n - n / 2);
}
static float sum_strided(const float *a, size_t n)
{
    enum { THREADS = 1056 * 256 }; /* single-pass's grid on an H200 */
    static float acc[THREADS];
    for (size_t t = 0; t < THREADS; t++)
        acc[t] = 0;
    for (size_t i = 0; i < n; i++)
        acc[i % THREADS] += a[i];
    return sum_forward(acc, THREADS);
}

Test(lab2_f32, sums_are_exact_in_any_order_and_a_lost_value_shows)
{
    const size_t ns[] = { 1, 3, 255, 4097, (1u << 20) + 7, (1u << 24) + 3 };
    float (*const orders[])(const float *, size_t) = { sum_forward, sum_backward, sum_pairwise, sum_strided };
    char msg[256];
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        size_t n = ns[k];
        float *a = malloc(n * sizeof *a);
        lab2_fill_f32(a, n, 77);
        double exact = lab2_ref_sum_f32(a, n);
        for (size_t o = 0; o < sizeof orders / sizeof orders[0]; o++) {
            cr_assert(eq(int, lab2_check_f32(orders[o](a, n), exact, n, msg, sizeof msg), 0), "order %zu: %s", o, msg);
            cr_assert(eq(int, lab2_check_f32(orders[o](a, n - 1), exact, n, msg, sizeof msg), 1),
                      "order %zu lost the last of %zu values and passed", o, n);
            if (n > 3)
                cr_assert(eq(int, lab2_check_f32(orders[o](a, n - 3), exact, n, msg, sizeof msg), 1),
                          "order %zu lost the last 3 of %zu values and passed", o, n);
        }
        free(a);
    }
}

/* What the GPU test lab2_f32.a_lost_value_fails_the_check relies on: its lost tails
 * (1, 3 and 4 values of seed 77 at n = 2^24 + 3) do not happen to sum to 0. */
Test(lab2_f32, the_gpu_tests_lost_tails_are_not_zero)
{
    const size_t n = (1u << 24) + 3;
    float *a = malloc(n * sizeof *a);
    lab2_fill_f32(a, n, 77);
    const size_t lost[] = { 1, 3, 4 };
    for (int k = 0; k < 3; k++)
        cr_assert(not(eq(dbl, lab2_ref_sum_f32(a + n - lost[k], lost[k]), 0.0)), "last %zu", lost[k]);
    free(a);
}

Test(lab2_ref, type_names_round_trip)
{
    for (int t = 0; t < LAB2_TYPE_COUNT; t++) {
        lab2_type back;
        cr_assert(eq(int, lab2_type_parse(lab2_type_name((lab2_type)t), &back), 0));
        cr_assert(eq(int, (int)back, t));
    }
    lab2_type x;
    cr_assert(eq(int, lab2_type_parse("all", &x), -1));
    cr_assert(eq(int, lab2_type_parse("I64", &x), -1));
    cr_assert(eq(sz, lab2_result_bytes(LAB2_I64), 8));
    cr_assert(eq(sz, lab2_result_bytes(LAB2_F32), 4));
    cr_assert(eq(sz, lab2_result_bytes(LAB2_MAX), 4));
}

/* ---- launch shapes -------------------------------------------------------- */

Test(lab2_shape, blocks_per_pass)
{
    cr_assert(eq(sz, lab2_pass_blocks(0, 256, 0), 0));
    cr_assert(eq(sz, lab2_pass_blocks(1, 256, 0), 1));
    cr_assert(eq(sz, lab2_pass_blocks(256, 256, 0), 1));
    cr_assert(eq(sz, lab2_pass_blocks(257, 256, 0), 2));
    cr_assert(eq(sz, lab2_pass_blocks((size_t)1 << 28, 512, 0), (size_t)1 << 19));
    /* a cap only ever lowers the grid */
    cr_assert(eq(sz, lab2_pass_blocks((size_t)1 << 28, 4096, 1056), 1056));
    cr_assert(eq(sz, lab2_pass_blocks(5000, 4096, 1056), 2));
    /* no 32-bit overflow in the sizes */
    cr_assert(eq(sz, lab2_pass_blocks(((size_t)1 << 34) + 1, 256, 0), ((size_t)1 << 26) + 1));
}

Test(lab2_shape, number_of_recursive_passes)
{
    cr_assert(eq(int, lab2_pass_count(0, 256, 0), 0));
    cr_assert(eq(int, lab2_pass_count(1, 256, 0), 1));
    cr_assert(eq(int, lab2_pass_count(256, 256, 0), 1));
    cr_assert(eq(int, lab2_pass_count(257, 256, 0), 2));
    cr_assert(eq(int, lab2_pass_count(65536, 256, 0), 2));
    cr_assert(eq(int, lab2_pass_count(65537, 256, 0), 3));
    cr_assert(eq(int, lab2_pass_count((size_t)1 << 28, 256, 0), 4));  /* 2^20, 2^12, 16, 1 */
    cr_assert(eq(int, lab2_pass_count((size_t)1 << 28, 512, 0), 4));  /* 2^19, 1024, 2, 1 */
    /* grid-stride: the first pass leaves at most the cap, one more pass finishes */
    cr_assert(eq(int, lab2_pass_count((size_t)1 << 28, 4096, 1056), 2));
    cr_assert(eq(int, lab2_pass_count((size_t)1 << 28, 4096, 1), 1));
    cr_assert(eq(int, lab2_pass_count(4096, 4096, 1056), 1));
}

/* Replays the multi-pass loop of lab2_multipass: no pass ever writes more
 * partials than the workspace holds, for every variant's block shape. */
Test(lab2_shape, workspace_holds_every_pass)
{
    const size_t items[] = { 256, 512, 4096 };
    const size_t caps[] = { 0, 0, 1056 };
    for (size_t n = 1; n < ((size_t)1 << 29); n = n * 3 + 1)
        for (int k = 0; k < 3; k++) {
            size_t count = n, capacity = lab2_partials_capacity(n);
            int passes = 0;
            do {
                count = lab2_pass_blocks(count, items[k], caps[k]);
                cr_assert(le(sz, count, capacity), "n=%zu items=%zu", n, items[k]);
                passes++;
            } while (count > 1);
            cr_assert(eq(int, passes, lab2_pass_count(n, items[k], caps[k])));
        }
    cr_assert(eq(sz, lab2_partials_capacity(0), 1));
}

/* A host copy of the loops of the reference lab2_thread_reduce_tiles (Step 2.5,
 * shared by register-blocked and single-pass), built from the same lab2_shape.h
 * helpers with the same bounds: checks that this index math reads every value
 * exactly once, for several grids, tile shapes, value sizes and awkward counts.
 * It does not run the student's device loop (only the GPU suite can). */
static void check_coverage(size_t count, size_t grid, int nt, int vt, size_t value_bytes)
{
    unsigned char *seen = calloc(count ? count : 1, 1);
    size_t per_vector = lab2_per_vector(value_bytes);
    size_t vectors = count / per_vector;
    size_t tiles = lab2_full_tiles(vectors, nt, vt);
    for (size_t block = 0; block < grid; block++)
        for (int tid = 0; tid < nt; tid++) {
            for (size_t tile = block; tile < tiles; tile += grid)
                for (int k = 0; k < vt; k++) {
                    size_t v = lab2_tile_vector(tile, k, tid, nt, vt);
                    cr_assert(lt(sz, v, vectors));
                    for (size_t j = 0; j < per_vector; j++)
                        seen[v * per_vector + j]++;
                }
            size_t thread = block * (size_t)nt + (size_t)tid, threads = grid * (size_t)nt;
            for (size_t i = tiles * (size_t)nt * (size_t)vt + thread; i < vectors; i += threads)
                for (size_t j = 0; j < per_vector; j++)
                    seen[i * per_vector + j]++;
            for (size_t i = vectors * per_vector + thread; i < count; i += threads)
                seen[i]++;
        }
    for (size_t i = 0; i < count; i++)
        cr_assert(eq(int, seen[i], 1), "value %zu of %zu read %d times (grid %zu, %dx%d, %zu-byte values)",
                  i, count, seen[i], grid, nt, vt, value_bytes);
    free(seen);
}

Test(lab2_shape, register_blocked_reads_every_value_once)
{
    const size_t counts[] = { 0, 1, 3, 4, 5, 31, 33, 127, 128, 129, 1023, 1025, 4095, 4096, 4097, 20000 };
    const size_t grids[] = { 1, 2, 7, 64 };
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++)
        for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
            check_coverage(counts[c], grids[g], 32, 4, 4);  /* small tiles: many tiles per block */
            check_coverage(counts[c], grids[g], 32, 3, 8);  /* int64 partials, odd VT */
            check_coverage(counts[c], grids[g], 256, 4, 4); /* the real shape */
        }
}

Test(lab2_shape, tile_items)
{
    cr_assert(eq(sz, lab2_tile_items(256, 4, 4), 4096));
    cr_assert(eq(sz, lab2_tile_items(256, 4, 8), 2048));
    cr_assert(eq(sz, lab2_per_vector(4), 4));
    cr_assert(eq(sz, lab2_per_vector(8), 2));
}
