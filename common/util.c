/* util.c: errors, sizes, statistics, random data and comparisons (no GPU needed). */
#include "kit.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *kit_status_name(kit_status s)
{
    switch (s) {
    case KIT_PASS: return "PASS";
    case KIT_FAIL: return "FAIL";
    case KIT_ERROR: return "ERROR";
    case KIT_TODO_STATUS: return "TODO";
    }
    return "?";
}

void kit_die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

int kit_check_(cudaError_t err, const char *what, const char *file, int line)
{
    if (err != cudaSuccess)
        fprintf(stderr, "CUDA error at %s:%d: %s: %s (%s)\n", file, line, what,
                cudaGetErrorString(err), cudaGetErrorName(err));
    return (int)err;
}

int kit_launch_check_(const char *file, int line)
{
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) {
        const char *sync = getenv("KIT_SYNC_CHECK");
        if (sync && strcmp(sync, "1") == 0)
            err = cudaDeviceSynchronize();
    }
    return kit_check_(err, "kernel launch", file, line);
}

/* ---- sizes ---------------------------------------------------------------- */

/* Parse a non-negative decimal number at *p, advancing p. */
static int parse_decimal(const char **p, unsigned long long *out)
{
    if (!isdigit((unsigned char)**p))
        return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(*p, &end, 10);
    if (errno == ERANGE)
        return -1;
    *p = end;
    *out = v;
    return 0;
}

int kit_parse_size(const char *text, size_t *out)
{
    if (!text || !*text)
        return -1;
    const char *p = text;
    unsigned long long base;
    if (parse_decimal(&p, &base))
        return -1;
    unsigned long long value = base;
    if (*p == '^' || (p[0] == '<' && p[1] == '<')) {
        /* 2^K or 1<<K */
        int caret = *p == '^';
        p += caret ? 1 : 2;
        unsigned long long k;
        if (parse_decimal(&p, &k))
            return -1;
        if (caret && base != 2)
            return -1;
        if (!caret && base != 1)
            return -1;
        if (k >= 8 * sizeof(size_t))
            return -1;
        value = 1ull << k;
        if (*p == '+' || *p == '-') {
            int minus = *p == '-';
            p++;
            unsigned long long delta;
            if (parse_decimal(&p, &delta))
                return -1;
            if (minus) {
                if (delta > value)
                    return -1;
                value -= delta;
            } else {
                if (value + delta < value)
                    return -1;
                value += delta;
            }
        }
    }
    if (*p != '\0' || value > (unsigned long long)SIZE_MAX)
        return -1;
    *out = (size_t)value;
    return 0;
}

size_t kit_mul_or_die(size_t a, size_t b, const char *what)
{
    if (b != 0 && a > SIZE_MAX / b)
        kit_die(KIT_EXIT_USAGE, "%s: %zu x %zu does not fit in size_t", what, a, b);
    return a * b;
}

/* ---- statistics ------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

kit_stats kit_stats_of(double *samples, int n)
{
    qsort(samples, (size_t)n, sizeof(double), cmp_double);
    kit_stats s;
    s.min = samples[0];
    s.max = samples[n - 1];
    s.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    s.runs = n;
    return s;
}

/* ---- random numbers -------------------------------------------------------- */

uint64_t kit_hash64(uint64_t seed, uint64_t i)
{
    /* splitmix64 of a per-seed stream position */
    uint64_t z = seed * 0xD1B54A32D192ED03ull + (i + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t kit_rand_range(uint64_t seed, uint64_t i, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0 means the full 64-bit range */
    uint64_t r = kit_hash64(seed, i);
    return span ? (int64_t)((uint64_t)lo + r % span) : (int64_t)r;
}

double kit_rand_unit(uint64_t seed, uint64_t i)
{
    return (double)(kit_hash64(seed, i) >> 11) * 0x1.0p-53;
}

void kit_fill_i32(int32_t *a, size_t n, uint64_t seed, int32_t lo, int32_t hi)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        a[i] = (int32_t)kit_rand_range(seed, i, lo, hi);
}

void kit_fill_i64(int64_t *a, size_t n, uint64_t seed, int64_t lo, int64_t hi)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        a[i] = kit_rand_range(seed, i, lo, hi);
}

void kit_fill_f32(float *a, size_t n, uint64_t seed, float lo, float hi)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        a[i] = (float)(lo + (hi - lo) * kit_rand_unit(seed, i));
}

void kit_fill_f64(double *a, size_t n, uint64_t seed, double lo, double hi)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        a[i] = lo + (hi - lo) * kit_rand_unit(seed, i);
}

/* ---- CPU references -------------------------------------------------------- */

/* One pass of kit_radix_sort_u32: the words (and payloads) move to word_to
 * (payload_to) in the order of their 8-bit digit at bit `shift`, stably. */
static void radix_pass_u32(const uint32_t *word, const uint32_t *payload, uint32_t *word_to, uint32_t *payload_to,
                           size_t n, int shift)
{
    int threads = omp_get_max_threads();
    size_t(*first)[256] = kit_host_alloc((size_t)threads * sizeof *first, "a radix pass's digit counts");
#pragma omp parallel num_threads(threads)
    {
        int t = omp_get_thread_num(), team = omp_get_num_threads();
        size_t begin = n * (size_t)t / (size_t)team, end = n * (size_t)(t + 1) / (size_t)team;
        size_t *mine = first[t];
        memset(mine, 0, sizeof first[t]);
        for (size_t i = begin; i < end; i++)
            mine[(word[i] >> shift) & 0xff]++;
#pragma omp barrier
#pragma omp single
        {
            size_t position = 0; /* digit-major, thread-minor: thread t's keys of digit d follow thread t-1's */
            for (int d = 0; d < 256; d++)
                for (int u = 0; u < team; u++) {
                    size_t count = first[u][d];
                    first[u][d] = position;
                    position += count;
                }
        } /* the implicit barrier: every first position is known */
        for (size_t i = begin; i < end; i++) {
            size_t to = mine[(word[i] >> shift) & 0xff]++;
            word_to[to] = word[i];
            if (payload)
                payload_to[to] = payload[i];
        }
    }
    free(first);
}

void kit_radix_sort_u32(uint32_t *word, uint32_t *payload, size_t n)
{
    uint32_t *word_to = kit_host_alloc(n * sizeof *word_to, "a radix sort's words");
    uint32_t *payload_to = payload ? kit_host_alloc(n * sizeof *payload_to, "a radix sort's payloads") : NULL;
    for (int shift = 0; shift < 32; shift += 16) { /* two passes a round: the result ends where it began */
        radix_pass_u32(word, payload, word_to, payload_to, n, shift);
        radix_pass_u32(word_to, payload_to, word, payload, n, shift + 8);
    }
    free(word_to);
    free(payload_to);
}

/* ---- comparisons -----------------------------------------------------------
 * One loop for every element type: find the first mismatch, count them all, and
 * print the first with the type's own format. `differs` may use the function's
 * tolerance parameters. */

#define KIT_COMPARE_BODY(differs, fmt, cast)                                              \
    {                                                                                     \
        size_t first = n, bad = 0;                                                        \
        for (size_t i = 0; i < n; i++) {                                                  \
            if (differs(got[i], expected[i]) && bad++ == 0)                               \
                first = i;                                                                \
        }                                                                                 \
        if (!bad)                                                                         \
            return 0;                                                                     \
        snprintf(msg, len, "first mismatch at index %zu of %zu: expected " fmt ", got " fmt \
                 " (%zu wrong)", first, n, cast expected[first], cast got[first], bad);      \
        return 1;                                                                         \
    }

#define KIT_NE(a, b) ((a) != (b))

int kit_compare_i32(const int32_t *got, const int32_t *expected, size_t n, char *msg, size_t len)
KIT_COMPARE_BODY(KIT_NE, "%d", (int))

int kit_compare_i64(const int64_t *got, const int64_t *expected, size_t n, char *msg, size_t len)
KIT_COMPARE_BODY(KIT_NE, "%lld", (long long))

int kit_compare_u32(const uint32_t *got, const uint32_t *expected, size_t n, char *msg, size_t len)
KIT_COMPARE_BODY(KIT_NE, "0x%08x", (unsigned))

/* A NaN matches only a NaN, an infinity only the same infinity; zero tolerances
 * mean bit-exact, so the sign of a zero counts too. */
static int float_differs(double got, double expected, double abs_tol, double rel_tol)
{
    if (isnan(got) || isnan(expected))
        return !(isnan(got) && isnan(expected));
    if (isinf(got) || isinf(expected) || (abs_tol == 0 && rel_tol == 0))
        return got != expected || signbit(got) != signbit(expected);
    return fabs(got - expected) > abs_tol + rel_tol * fabs(expected);
}
#define KIT_FLOAT_DIFFERS(a, b) float_differs((double)(a), (double)(b), abs_tol, rel_tol)

int kit_compare_f32(const float *got, const float *expected, size_t n, double abs_tol,
                    double rel_tol, char *msg, size_t len)
KIT_COMPARE_BODY(KIT_FLOAT_DIFFERS, "%.9g", (double))

int kit_compare_f64(const double *got, const double *expected, size_t n, double abs_tol,
                    double rel_tol, char *msg, size_t len)
KIT_COMPARE_BODY(KIT_FLOAT_DIFFERS, "%.17g", (double))
