/* compare.c: checking a variant's output against the CPU reference, element by
 * element, naming the first mismatch. */
#include "kit.h"

#include <math.h>

/* One loop for every element type: find the first mismatch, count them all, and
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
