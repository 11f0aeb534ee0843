/* lab2_ref.c: the CPU reference ("gold") of lab2, written independently of the
 * kernels: plain loops over the values. */
#include "lab2.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const type_names[LAB2_TYPE_COUNT] = { "i64", "f32", "max" };

const char *lab2_type_name(lab2_type t)
{
    return (unsigned)t < LAB2_TYPE_COUNT ? type_names[t] : "?";
}

int lab2_type_parse(const char *name, lab2_type *t)
{
    for (int i = 0; i < LAB2_TYPE_COUNT; i++)
        if (name && strcmp(name, type_names[i]) == 0) {
            *t = (lab2_type)i;
            return 0;
        }
    return -1;
}

size_t lab2_result_bytes(lab2_type t)
{
    return t == LAB2_I64 ? sizeof(int64_t) : 4;
}

/* Integer addition is associative, so any order (and any split over threads)
 * gives the one exact answer: int64 cannot overflow here (|sum| <= 2^30 * n <= 2^62). */
int64_t lab2_ref_sum_i64(const int32_t *in, size_t n)
{
    int64_t sum = 0;
#pragma omp parallel for reduction(+ : sum) schedule(static)
    for (size_t i = 0; i < n; i++)
        sum += in[i];
    return sum;
}

/* Neumaier's variant of Kahan summation: `c` collects the low-order bits each
 * addition rounds away, whichever of the two operands is larger. In double, on
 * float inputs, the result is exact to far below float precision (and exact for
 * the lab's f32 data, whose sums are multiples of 1/M far below 2^53/M). */
double lab2_ref_sum_f32(const float *in, size_t n)
{
    double sum = 0.0, c = 0.0;
    for (size_t i = 0; i < n; i++) {
        double x = in[i];
        double t = sum + x;
        if (fabs(sum) >= fabs(x))
            c += (sum - t) + x;
        else
            c += (x - t) + sum;
        sum = t;
    }
    return sum + c;
}

int32_t lab2_ref_max_i32(const int32_t *in, size_t n)
{
    int32_t best = INT32_MIN;
#pragma omp parallel for reduction(max : best) schedule(static)
    for (size_t i = 0; i < n; i++)
        if (in[i] > best)
            best = in[i];
    return best;
}

/* See lab2.h: M = 2^min(20, floor((40 - L) / 2)) with L = ceil(log2 n), so that
 * n * M^2 <= 2^L * M^2 <= 2^40 (and n * M <= 2^24 for n <= 256). */
uint32_t lab2_f32_grid(size_t n)
{
    int log2_n = 0; /* ceil(log2 n) */
    while (log2_n < 64 && ((size_t)1 << log2_n) < n)
        log2_n++;
    int e = (40 - log2_n) / 2;
    return (uint32_t)1 << (e < 0 ? 0 : e > 20 ? 20 : e);
}

/* m uniform over the 2M nonzero integers of [-M, M]: never 0, so no value can be
 * lost without changing the sum. */
void lab2_fill_f32(float *a, size_t n, uint64_t seed)
{
    const int64_t grid = lab2_f32_grid(n);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        int64_t r = kit_rand_range(seed, i, 0, 2 * grid - 1);
        int64_t m = r < grid ? r - grid : r - grid + 1;
        a[i] = (float)((double)m / (double)grid);
    }
}

int lab2_check_f32(float got, double exact, size_t n, char *msg, size_t len)
{
    if ((double)got == exact) /* false for a NaN */
        return 0;
    uint32_t grid = lab2_f32_grid(n);
    snprintf(msg, len,
             "f32 sum of %zu values (multiples of 1/%u: exact in any order): expected %.9g, got %.9g"
             " (%.6g values of 1/%u off)",
             n, grid, exact, got, ((double)got - exact) * grid, grid);
    return 1;
}
