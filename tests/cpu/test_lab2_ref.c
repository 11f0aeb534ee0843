/* CPU suite for lab2: the reference (checked against brute force in another
 * order and wider arithmetic), the float tolerance, and the launch-shape math of
 * lab2_shape.h that the launchers and kernels use. No GPU needed. */
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

Test(lab2_ref, f32_tolerance_is_n_eps_max)
{
    float a[] = { 0.5f, -0.75f, 0.25f, 0.0f };
    cr_assert(eq(dbl, lab2_f32_tolerance(a, 4), 4 * (double)FLT_EPSILON * 0.75));
    cr_assert(eq(dbl, lab2_f32_tolerance(a, 0), 0.0));
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

/* Replays the loops of the register-blocked / single-pass kernels on the host
 * (same helpers, same bounds) and checks that every value is read exactly once,
 * for several grids, tile shapes, value sizes and awkward counts. */
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
