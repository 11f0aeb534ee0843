/* CPU suite for the harness: sizes, statistics, random data, options (every error
 * path), comparisons and the CSV format. No GPU needed. */
#include "kit_test.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- sizes ---------------------------------------------------------------- */

Test(harness_size, accepts_decimal_powers_and_offsets)
{
    size_t v;
    cr_assert(eq(int, kit_parse_size("0", &v), 0));
    cr_assert(eq(sz, v, 0));
    cr_assert(eq(int, kit_parse_size("1048576", &v), 0));
    cr_assert(eq(sz, v, (size_t)1 << 20));
    cr_assert(eq(int, kit_parse_size("2^20", &v), 0));
    cr_assert(eq(sz, v, (size_t)1 << 20));
    cr_assert(eq(int, kit_parse_size("2^20+7", &v), 0));
    cr_assert(eq(sz, v, ((size_t)1 << 20) + 7));
    cr_assert(eq(int, kit_parse_size("2^24-1", &v), 0));
    cr_assert(eq(sz, v, ((size_t)1 << 24) - 1));
    cr_assert(eq(int, kit_parse_size("1<<30", &v), 0));
    cr_assert(eq(sz, v, (size_t)1 << 30));
}

Test(harness_size, rejects_malformed_and_overflowing_sizes)
{
    const char *bad[] = { "", "-1", "abc", "12abc", "2^", "3^4", "2^64", "2^x", "1<<", "2<<3",
                          "2^3-9", "99999999999999999999999", "2^63+2^1", " 5", "5 " };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t v = 12345;
        cr_expect(eq(int, kit_parse_size(bad[i], &v), -1), "'%s' should be rejected", bad[i]);
        cr_expect(eq(sz, v, 12345), "'%s' must leave the output alone", bad[i]);
    }
}

/* ---- tiles ---------------------------------------------------------------- */

Test(harness_tiles, tiles_cover_n_exactly)
{
    cr_assert(eq(sz, kit_div_up(0, 256), 0));
    cr_assert(eq(sz, kit_div_up(1, 256), 1));
    cr_assert(eq(sz, kit_div_up(256, 256), 1));
    cr_assert(eq(sz, kit_div_up(257, 256), 2));
    const size_t nvs[] = { 1, 32, 256, 2303, 6912, 20480 };
    const size_t ns[] = { 0, 1, 31, 2302, 2303, 2304, 100003, ((size_t)1 << 32) + 13 };
    for (size_t a = 0; a < sizeof nvs / sizeof nvs[0]; a++)
        for (size_t b = 0; b < sizeof ns / sizeof ns[0]; b++) {
            size_t nv = nvs[a], n = ns[b], tiles = kit_div_up(n, nv), sum = 0;
            cr_assert(le(sz, (tiles > 0 ? tiles - 1 : 0) * nv, n));
            cr_assert(ge(sz, tiles * nv, n));
            /* every tile but the last is full: only the last two can tell */
            for (size_t t = tiles > 2 ? tiles - 2 : 0; t < tiles; t++) {
                size_t items = kit_tile_items(n, nv, t);
                cr_assert(gt(sz, items, 0));
                cr_assert(le(sz, items, nv));
                if (t + 1 < tiles)
                    cr_assert(eq(sz, items, nv), "only the last tile is partial");
                sum += items;
            }
            cr_assert(eq(sz, (tiles > 2 ? tiles - 2 : 0) * nv + sum, n), "nv %zu n %zu", nv, n);
            cr_assert(eq(sz, kit_tile_items(n, nv, tiles), 0));
        }
}

/* ---- statistics ----------------------------------------------------------- */

Test(harness_stats, median_min_max_odd_and_even)
{
    double odd[] = { 5, 1, 4, 2, 3 };
    kit_stats s = kit_stats_of(odd, 5);
    cr_assert(eq(dbl, s.median, 3));
    cr_assert(eq(dbl, s.min, 1));
    cr_assert(eq(dbl, s.max, 5));
    double even[] = { 8, 2, 6, 4 };
    s = kit_stats_of(even, 4);
    cr_assert(eq(dbl, s.median, 5));
    cr_assert(eq(dbl, s.min, 2));
    cr_assert(eq(dbl, s.max, 8));
    double one[] = { 7 };
    s = kit_stats_of(one, 1);
    cr_assert(eq(dbl, s.median, 7));
}

/* ---- random data ------------------------------------------------------------ */

Test(harness_rng, same_seed_same_data_other_seed_other_data)
{
    enum { N = 1000 };
    int32_t a[N], b[N], c[N];
    kit_fill_i32(a, N, 7, -100, 100);
    kit_fill_i32(b, N, 7, -100, 100);
    kit_fill_i32(c, N, 8, -100, 100);
    cr_assert(eq(int, memcmp(a, b, sizeof a), 0));
    cr_assert(ne(int, memcmp(a, c, sizeof a), 0));
}

Test(harness_rng, values_in_range_with_both_signs)
{
    enum { N = 10000 };
    static int32_t a[N];
    static float f[N];
    kit_fill_i32(a, N, 3, -5, 5);
    kit_fill_f32(f, N, 3, -1000.0f, 1000.0f);
    int neg = 0, pos = 0, hit_lo = 0, hit_hi = 0;
    for (int i = 0; i < N; i++) {
        cr_assert(a[i] >= -5 && a[i] <= 5, "a[%d] = %d out of range", i, a[i]);
        cr_assert(f[i] >= -1000.0f && f[i] <= 1000.0f);
        neg += f[i] < 0;
        pos += f[i] > 0;
        hit_lo += a[i] == -5;
        hit_hi += a[i] == 5;
    }
    cr_assert(gt(int, neg, N / 3));
    cr_assert(gt(int, pos, N / 3));
    cr_assert(gt(int, hit_lo, 0), "the lower bound is inclusive");
    cr_assert(gt(int, hit_hi, 0), "the upper bound is inclusive");
}

Test(harness_rng, data_does_not_depend_on_the_chunking)
{
    /* counter-based: filling [0, N) at once equals filling it in two pieces */
    enum { N = 513 };
    int64_t whole[N], parts[N];
    kit_fill_i64(whole, N, 11, -1000000000000LL, 1000000000000LL);
    for (int i = 0; i < N; i++)
        parts[i] = kit_rand_range(11, (uint64_t)i, -1000000000000LL, 1000000000000LL);
    cr_assert(eq(int, memcmp(whole, parts, sizeof whole), 0));
}

/* ---- options ---------------------------------------------------------------- */

typedef struct { kit_variant_info info; int payload; } fake_variant;
static const fake_variant fake_variants[] = {
    { { "base", "9.0", "the baseline" }, 0 },
    { { "fast", "9.1", "the fast one" }, 1 },
};
static long long fake_bins = 256;
static int fake_trace;
static const kit_flag fake_flags[] = {
    { "--bins", KIT_FLAG_INT, "B", "bins", &fake_bins, 1, 1 << 20 },
    { "--trace", KIT_FLAG_SWITCH, NULL, "trace", &fake_trace, 0, 0 },
    { NULL, 0, NULL, NULL, NULL, 0, 0 },
};
static const char *const fake_dists[] = { "uniform", "kwarp:", NULL };

static kit_lab fake_lab(void)
{
    kit_lab lab = { .name = "lab9", .title = "a lab for tests",
                    .variants = KIT_VARIANTS(fake_variants, 2), .dists = fake_dists,
                    .flags = fake_flags, .default_n = 1000, .max_n = (size_t)1 << 30,
                    .n_unit = "items" };
    return lab;
}

static int parse(kit_options *opt, char *err, int argc, const char **argv)
{
    kit_lab lab = fake_lab();
    return kit_parse_options(&lab, argc, (char **)argv, opt, err, 256);
}

Test(harness_options, defaults)
{
    kit_options opt;
    char err[256];
    const char *argv[] = { "lab9" };
    cr_assert(eq(int, parse(&opt, err, 1, argv), 0));
    cr_assert(eq(sz, opt.n, 1000));
    cr_assert(eq(int, opt.reps, 20));
    cr_assert(eq(int, opt.warmup, 3));
    cr_assert(eq(dbl, opt.budget_s, 10));
    cr_assert(eq(str, (char *)opt.variant, "all"));
    cr_assert(eq(str, (char *)opt.dist, "uniform"));
    cr_assert(eq(int, opt.sweep, 0));
}

Test(harness_options, every_flag_parses)
{
    kit_options opt;
    char err[256];
    const char *argv[] = { "lab9", "--n", "2^20+7", "--reps", "5", "--warmup", "0", "--variant",
                           "fast", "--sweep", "--csv", "out.csv", "--seed", "99", "--dist",
                           "kwarp:4", "--device", "1", "--bins", "4096", "--trace", "--budget", "0" };
    fake_trace = 0;
    cr_assert(eq(int, parse(&opt, err, 23, argv), 0), "%s", err);
    cr_assert(eq(dbl, opt.budget_s, 0));
    cr_assert(eq(sz, opt.n, ((size_t)1 << 20) + 7));
    cr_assert(eq(int, opt.reps, 5));
    cr_assert(eq(int, opt.warmup, 0));
    cr_assert(eq(str, (char *)opt.variant, "fast"));
    cr_assert(eq(int, opt.sweep, 1));
    cr_assert(eq(str, (char *)opt.csv_path, "out.csv"));
    cr_assert(eq(u64, opt.seed, 99));
    cr_assert(eq(str, (char *)opt.dist, "kwarp:4"));
    cr_assert(eq(int, opt.device, 1));
    cr_assert(eq(i64, fake_bins, 4096));
    cr_assert(eq(int, fake_trace, 1));
}

Test(harness_options, help_and_list)
{
    kit_options opt;
    char err[256];
    const char *help[] = { "lab9", "--help" };
    cr_assert(eq(int, parse(&opt, err, 2, help), 1));
    const char *list[] = { "lab9", "--list" };
    cr_assert(eq(int, parse(&opt, err, 2, list), 0));
    cr_assert(eq(int, opt.list, 1));
}

/* Each malformed command line is refused with a message naming the problem. */
Test(harness_options, every_error_path)
{
    struct { int argc; const char *argv[4]; const char *says; } cases[] = {
        { 2, { "lab9", "--bogus" }, "unknown option" },
        { 2, { "lab9", "--n" }, "needs a value" },
        { 3, { "lab9", "--n", "-5" }, "expects a size" },
        { 3, { "lab9", "--n", "2^31" }, "must be in" },
        { 3, { "lab9", "--reps", "0" }, "must be in" },
        { 3, { "lab9", "--reps", "ten" }, "expects an integer" },
        { 3, { "lab9", "--warmup", "-1" }, "must be in" },
        { 3, { "lab9", "--variant", "nope" }, "unknown variant" },
        { 3, { "lab9", "--dist", "zipf" }, "unknown distribution" },
        { 3, { "lab9", "--seed", "x" }, "expects an integer" },
        { 3, { "lab9", "--device", "-2" }, "must be in" },
        { 3, { "lab9", "--bins", "0" }, "must be in" },
        { 3, { "lab9", "--bins", "1e3" }, "expects an integer" },
        { 3, { "lab9", "--csv", "" }, "needs a file name" },
        { 3, { "lab9", "--budget", "-1" }, "must be in" },
        { 3, { "lab9", "--budget", "ten" }, "expects an integer" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kit_options opt;
        char err[256];
        cr_expect(eq(int, parse(&opt, err, cases[i].argc, cases[i].argv), -1), "case %zu", i);
        cr_expect(strstr(err, cases[i].says) != NULL, "case %zu: '%s' should say '%s'", i, err,
                  cases[i].says);
    }
}

Test(harness_options, sweep_sizes_are_powers_of_two_up_to_the_limit)
{
    kit_lab lab = fake_lab();
    lab.max_n = (size_t)1 << 20;
    kit_options opt = { .sweep = 1 };
    size_t sizes[32];
    int count = kit_sizes(&opt, &lab, sizes);
    /* under the CPU emulator the sweep stops at KIT_EMU_MAX_DEFAULT_N (2^16) */
    cr_assert(eq(int, count, kit_emulated() ? 7 : 11));
    for (int i = 0; i < count; i++)
        cr_assert(eq(sz, sizes[i], (size_t)1 << (10 + i)));
    opt.sweep = 0;
    opt.n = 77;
    cr_assert(eq(int, kit_sizes(&opt, &lab, sizes), 1));
    cr_assert(eq(sz, sizes[0], 77));
}

Test(harness_options, variants_are_found_by_slug)
{
    kit_lab lab = fake_lab();
    cr_assert(eq(int, kit_variant_find(lab.variants, "fast"), 1));
    cr_assert(eq(int, kit_variant_find(lab.variants, "base"), 0));
    cr_assert(eq(int, kit_variant_find(lab.variants, "slow"), -1));
    cr_assert(eq(str, (char *)kit_variant_at(lab.variants, 1)->step, "9.1"));
}

/* ---- comparisons ---------------------------------------------------------------- */

Test(harness_compare, integers_report_the_first_mismatch)
{
    int32_t expected[] = { 1, 2, 3, 4, 5 };
    int32_t got[] = { 1, 2, 9, 4, 7 };
    char msg[256];
    cr_assert(eq(int, kit_compare_i32(expected, expected, 5, msg, sizeof msg), 0));
    cr_assert(eq(int, kit_compare_i32(got, expected, 5, msg, sizeof msg), 1));
    cr_assert(strstr(msg, "index 2") && strstr(msg, "expected 3") && strstr(msg, "got 9") &&
                  strstr(msg, "2 wrong"), "%s", msg);
    int64_t e64[] = { 5000000000LL }, g64[] = { 5000000001LL };
    cr_assert(eq(int, kit_compare_i64(g64, e64, 1, msg, sizeof msg), 1));
    cr_assert(strstr(msg, "5000000000") != NULL, "%s", msg);
    cr_assert(eq(int, kit_compare_i32(NULL, NULL, 0, msg, sizeof msg), 0), "empty arrays match");
}

Test(harness_compare, floats_with_and_without_tolerance)
{
    float expected[] = { 1.0f, -2.0f, 1000.0f };
    float close[] = { 1.0f, -2.0f, 1000.001f };
    char msg[256];
    cr_assert(eq(int, kit_compare_f32(close, expected, 3, 0, 0, msg, sizeof msg), 1), "exact");
    cr_assert(eq(int, kit_compare_f32(close, expected, 3, 0, 1e-5, msg, sizeof msg), 0), "relative");
    cr_assert(eq(int, kit_compare_f32(close, expected, 3, 1e-2, 0, msg, sizeof msg), 0), "absolute");
    double nan_d = 0.0 / 0.0, d_expected[] = { 1.0 }, d_got[] = { nan_d };
    cr_assert(eq(int, kit_compare_f64(d_got, d_expected, 1, 1e9, 1e9, msg, sizeof msg), 1),
              "NaN never passes");
}

/* An expected infinity is matched only by the same infinity, whatever the tolerance. */
Test(harness_compare, infinity_needs_the_same_infinity)
{
    double inf = 1.0 / 0.0;
    double expected[] = { inf }, finite[] = { 1e308 }, minus[] = { -inf }, same[] = { inf };
    char msg[256];
    cr_assert(eq(int, kit_compare_f64(finite, expected, 1, 1e-3, 1e-3, msg, sizeof msg), 1), "finite vs +inf");
    cr_assert(eq(int, kit_compare_f64(minus, expected, 1, 1e-3, 1e-3, msg, sizeof msg), 1), "-inf vs +inf");
    cr_assert(eq(int, kit_compare_f64(same, expected, 1, 1e-3, 1e-3, msg, sizeof msg), 0), "+inf vs +inf");
    cr_assert(eq(int, kit_compare_f64(expected, finite, 1, 1e-3, 1e-3, msg, sizeof msg), 1), "+inf vs finite");
    float f_inf[] = { (float)inf }, f_big[] = { 3e38f };
    cr_assert(eq(int, kit_compare_f32(f_big, f_inf, 1, 1, 1, msg, sizeof msg), 1), "float: finite vs +inf");
}

/* Bit-exact mode (zero tolerances) tells -0.0 from +0.0; a tolerance does not. */
Test(harness_compare, bit_exact_mode_sees_the_sign_of_zero)
{
    float plus[] = { 0.0f }, minus[] = { -0.0f };
    double d_plus[] = { 0.0 }, d_minus[] = { -0.0 };
    char msg[256];
    cr_assert(eq(int, kit_compare_f32(minus, plus, 1, 0, 0, msg, sizeof msg), 1), "-0 vs +0, exact");
    cr_assert(eq(int, kit_compare_f32(plus, minus, 1, 0, 0, msg, sizeof msg), 1), "+0 vs -0, exact");
    cr_assert(eq(int, kit_compare_f32(plus, plus, 1, 0, 0, msg, sizeof msg), 0), "+0 vs +0, exact");
    cr_assert(eq(int, kit_compare_f64(d_minus, d_plus, 1, 0, 0, msg, sizeof msg), 1), "double -0 vs +0");
    cr_assert(eq(int, kit_compare_f32(minus, plus, 1, 1e-6, 0, msg, sizeof msg), 0), "with a tolerance");
}

/* ---- progress notes -------------------------------------------------------------- */

Test(harness_note, a_quick_step_says_nothing_a_slow_one_says_what_runs, .init = cr_redirect_stderr)
{
    kit_note_begin("doing something quick");
    kit_note_end();
    kit_note_begin("sleeping on purpose");
    struct timespec nap = { 3, 600000000 }; /* past the 3 s threshold */
    nanosleep(&nap, NULL);
    double took = kit_note_end();
    cr_assert(ge(dbl, took, 3.5));
    fflush(stderr);
    FILE *err = cr_get_redirected_stderr();
    char text[1024] = "";
    size_t len = fread(text, 1, sizeof text - 1, err);
    text[len] = '\0';
    cr_assert(strstr(text, "quick") == NULL, "a quick step printed: %s", text);
    cr_assert(strstr(text, "still sleeping on purpose") != NULL, "no note while running: %s", text);
    cr_assert(strstr(text, "done sleeping on purpose") != NULL, "no note at the end: %s", text);
}

/* ---- CSV ------------------------------------------------------------------------ */

Test(harness_csv, header_names_the_gpu_and_rows_match_the_columns)
{
    kit_device dev = { .name = "Test GPU 9000", .sms = 7, .cc_major = 9, .cc_minor = 0 };
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    kit_csv_header(mem, &dev);
    kit_row row = { .lab = "lab9", .variant = "fast", .type = "i32", .dist = "uniform",
                    .param = "bins=256", .n = 1024, .ms = { 0.5, 0.25, 1.0, 7 }, .gbytes_s = 8.25,
                    .gitems_s = 2.048, .pct_of_memcpy = 50.5, .speedup = 2.0, .status = KIT_PASS,
                    .planned_runs = 20, .baseline = "base" };
    kit_csv_row(mem, &row);
    fclose(mem);

    char *line2 = strchr(buf, '\n') + 1;
    char *line3 = strchr(line2, '\n') + 1;
    cr_assert(eq(int, strncmp(buf, "# gpu=Test GPU 9000;", 20), 0), "%s", buf);
    cr_assert(eq(int, strncmp(line2, "lab,variant,n,type,dist,param,median_ms,min_ms,max_ms,"
                                     "gbytes_s,gitems_s,pct_of_memcpy,speedup,status,runs,baseline\n",
                                     109), 0));
    /* as many fields in a row as in the header */
    int header_commas = 0, row_commas = 0;
    for (char *c = line2; *c != '\n'; c++)
        header_commas += *c == ',';
    for (char *c = line3; *c && *c != '\n'; c++)
        row_commas += *c == ',';
    cr_assert(eq(int, row_commas, header_commas));
    cr_assert(eq(str, line3, "lab9,fast,1024,i32,uniform,bins=256,0.500000,0.250000,1.000000,"
                             "8.250,2.0480,50.50,2.0000,PASS,7,base\n"));
    free(buf);
}
