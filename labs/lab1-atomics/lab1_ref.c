/* lab1_ref.c: the CPU reference ("gold"), the input generators and the parsers of
 * --dist and --keys. Written independently of the kernels: plain loops. */
#include "lab1.h"

#include <errno.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* ---- parsing ------------------------------------------------------------------ */

int lab1_parse_dist(const char *text, size_t bins, lab1_dist *out, char *err, size_t err_len)
{
    static const struct { const char *name; lab1_dist_kind kind; } plain[] = {
        { "uniform", LAB1_UNIFORM }, { "zipf", LAB1_ZIPF }, { "sorted", LAB1_SORTED },
        { "single", LAB1_SINGLE },
    };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        if (!strcmp(text, plain[i].name)) {
            out->kind = plain[i].kind;
            out->k = 0;
            return 0;
        }
    if (!strncmp(text, "kwarp:", 6)) {
        const char *digits = text + 6;
        char *end;
        errno = 0;
        long k = strtol(digits, &end, 10);
        if (!*digits || *end || errno || k < 1 || k > LAB1_WARP) {
            snprintf(err, err_len, "kwarp:K needs K in 1..32 (distinct keys per warp), got '%s'",
                     digits);
            return -1;
        }
        if ((size_t)k > bins) {
            snprintf(err, err_len,
                     "kwarp:%ld needs at least %ld bins (K distinct keys per warp), but --bins is %zu",
                     k, k, bins);
            return -1;
        }
        out->kind = LAB1_KWARP;
        out->k = (int)k;
        return 0;
    }
    snprintf(err, err_len, "unknown distribution '%s' (uniform, kwarp:K, zipf, sorted, single)", text);
    return -1;
}

void lab1_dist_name(lab1_dist d, char *out, size_t len)
{
    switch (d.kind) {
    case LAB1_UNIFORM: snprintf(out, len, "uniform"); break;
    case LAB1_KWARP: snprintf(out, len, "kwarp:%d", d.k); break;
    case LAB1_ZIPF: snprintf(out, len, "zipf"); break;
    case LAB1_SORTED: snprintf(out, len, "sorted"); break;
    case LAB1_SINGLE: snprintf(out, len, "single"); break;
    }
}

int lab1_parse_keys(const char *text, size_t bins, int keys[LAB1_WARP], char *err, size_t err_len)
{
    int count = 0;
    const char *p = text;
    for (;;) {
        char *end;
        errno = 0;
        long long k = strtoll(p, &end, 10);
        if (end == p || errno || (*end && *end != ',')) {
            snprintf(err, err_len, "--keys expects integers separated by commas, got '%s'", text);
            return -1;
        }
        if (count == LAB1_WARP) {
            snprintf(err, err_len, "--keys takes at most 32 keys (one warp)");
            return -1;
        }
        if (k < 0 || (unsigned long long)k >= bins) {
            snprintf(err, err_len, "key %lld is outside [0, %zu): every key must name a bin (see --bins)",
                     k, bins);
            return -1;
        }
        keys[count++] = (int)k;
        if (!*end)
            return count;
        p = end + 1;
    }
}

/* ---- generators ---------------------------------------------------------------- */

/* Stream tags so that keys, patterns and values never share random numbers. */
enum { TAG_PICK = 1, TAG_PERM = 2, TAG_FILL = 3, TAG_VALUES = 4 };
static uint64_t substream(uint64_t seed, int tag) { return kit_hash64(seed, 0xA7F1000000ull + (uint64_t)tag); }

/* One group of m <= 32 keys with exactly min(K, m) distinct values, placed at random. */
static void kwarp_group(int *out, int m, int k, size_t bins, uint64_t seed, uint64_t group)
{
    int distinct = k < m ? k : m;
    int chosen[LAB1_WARP];
    uint64_t draw = group * 4096; /* this group's private slice of the random streams */
    uint64_t pick = substream(seed, TAG_PICK), perm = substream(seed, TAG_PERM),
             fill = substream(seed, TAG_FILL);
    for (int j = 0; j < distinct; j++) {
        int fresh;
        do { /* rejection keeps the K keys distinct; K <= bins so it ends */
            chosen[j] = (int)kit_rand_range(pick, draw++, 0, (int64_t)bins - 1);
            fresh = 1;
            for (int q = 0; q < j; q++)
                fresh &= chosen[q] != chosen[j];
        } while (!fresh);
    }
    /* A random permutation of the positions: the first `distinct` get one key each
     * (so every chosen key appears), the rest draw any of the chosen keys. */
    int place[LAB1_WARP];
    for (int j = 0; j < m; j++)
        place[j] = j;
    for (int j = m - 1; j > 0; j--) {
        int r = (int)kit_rand_range(perm, group * LAB1_WARP + (uint64_t)j, 0, j);
        int t = place[j];
        place[j] = place[r];
        place[r] = t;
    }
    for (int j = 0; j < m; j++)
        out[place[j]] = j < distinct
                            ? chosen[j]
                            : chosen[kit_rand_range(fill, group * LAB1_WARP + (uint64_t)j, 0, distinct - 1)];
}

void lab1_generate_keys(int *keys, size_t n, size_t bins, lab1_dist d, uint64_t seed)
{
    switch (d.kind) {
    case LAB1_UNIFORM:
        kit_fill_i32(keys, n, seed, 0, (int32_t)bins - 1);
        break;
    case LAB1_KWARP: {
        size_t groups = kit_div_up(n, LAB1_WARP);
#pragma omp parallel for schedule(static)
        for (size_t g = 0; g < groups; g++) {
            size_t first = g * LAB1_WARP;
            int m = (int)(n - first < LAB1_WARP ? n - first : LAB1_WARP);
            kwarp_group(keys + first, m, d.k, bins, seed, g);
        }
        break;
    }
    case LAB1_ZIPF: {
        /* Inverse CDF: cdf[r] = sum_{j <= r} 1 / (j + 1); key = first r with cdf[r] > u * total. */
        double *cdf = kit_host_alloc(bins * sizeof(double), "the zipf CDF");
        double total = 0;
        for (size_t r = 0; r < bins; r++)
            cdf[r] = total += 1.0 / (double)(r + 1);
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) {
            double u = kit_rand_unit(seed, i) * total;
            size_t lo = 0, hi = bins - 1;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (cdf[mid] > u)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            keys[i] = (int)lo;
        }
        free(cdf);
        break;
    }
    case LAB1_SORTED:
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            keys[i] = (int)((uint64_t)i * bins / n); /* < 2^32 * 2^20: no overflow */
        break;
    case LAB1_SINGLE: {
        int key = (int)kit_rand_range(seed, 0, 0, (int64_t)bins - 1);
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            keys[i] = key;
        break;
    }
    }
}

void lab1_generate_values(double *values, size_t n, uint64_t seed)
{
    const int64_t steps = (int64_t)1 << 20; /* 2^20 grid steps on each side of zero */
    uint64_t stream = substream(seed, TAG_VALUES);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        int64_t r = kit_rand_range(stream, i, -steps, steps - 1); /* 2^21 choices... */
        values[i] = (double)(r < 0 ? r : r + 1) * LAB1_VALUE_GRID; /* ...none of them 0 */
    }
}

/* ---- reference ------------------------------------------------------------------ */

/* Large inputs are counted by every OpenMP thread into its own bins, then summed;
 * below this a single thread is faster than setting that up. The private bins live
 * on the heap: an OpenMP array reduction would put bins x 8 bytes on every thread's
 * stack, and 2^20 bins overflow it. */
#define PARALLEL_FROM ((size_t)1 << 22)

static int reference_threads(size_t n) { return n >= PARALLEL_FROM ? omp_get_max_threads() : 1; }

/* threads x bins zeroed elements of `size` bytes: one row per thread. */
static void *private_bins(int threads, int bins, size_t size)
{
    void *rows = calloc((size_t)threads * (size_t)bins, size);
    if (!rows)
        kit_die(KIT_EXIT_USAGE, "out of host memory for the reference");
    return rows;
}

int lab1_ref_histogram(const int *keys, size_t n, int bins, int *counts)
{
    /* 64-bit counters, so a bin past INT32_MAX is seen instead of wrapping */
    int threads = reference_threads(n);
    int64_t *rows = private_bins(threads, bins, sizeof(int64_t));
#pragma omp parallel num_threads(threads)
    {
        int64_t *mine = rows + (size_t)omp_get_thread_num() * (size_t)bins;
#pragma omp for schedule(static)
        for (size_t i = 0; i < n; i++)
            mine[keys[i]]++;
    }
    int overflow = 0;
    for (int b = 0; b < bins; b++) {
        int64_t total = 0;
        for (int t = 0; t < threads; t++)
            total += rows[(size_t)t * (size_t)bins + (size_t)b];
        overflow |= total > INT32_MAX;
        counts[b] = (int)total;
    }
    free(rows);
    return overflow ? -1 : 0;
}

void lab1_ref_scatter_add(const int *keys, const double *values, size_t n, int bins, double *sums)
{
    /* Any order gives the same sums on the value grid, threads included. */
    int threads = reference_threads(n);
    double *rows = private_bins(threads, bins, sizeof(double));
#pragma omp parallel num_threads(threads)
    {
        double *mine = rows + (size_t)omp_get_thread_num() * (size_t)bins;
#pragma omp for schedule(static)
        for (size_t i = 0; i < n; i++)
            mine[keys[i]] += values[i];
    }
    for (int b = 0; b < bins; b++) {
        double total = 0;
        for (int t = 0; t < threads; t++)
            total += rows[(size_t)t * (size_t)bins + (size_t)b];
        sums[b] = total;
    }
    free(rows);
}

int lab1_compare_sums(const double *got, const double *expected, int bins, char *msg, size_t len)
{
    return kit_compare_f64(got, expected, (size_t)bins, 0, 0, msg, len);
}
