/* lab2_ref.c: the CPU reference ("gold") of lab2, written independently of the
 * kernels: plain loops over the values. */
#include "lab2.h"

#include <float.h>
#include <math.h>
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
 * gives the one exact answer: int64 cannot overflow here (|sum| < 2^31 * n). */
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
 * float inputs, the result is exact to far below float precision. */
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

/* Every float addition rounds its result r by at most |r| * FLT_EPSILON / 2.
 * With values of random sign the partial sums stay far below n * max|x|, and the
 * rounding errors of the n - 1 additions mostly cancel; n * FLT_EPSILON * max|x|
 * is a generous envelope for any order a GPU uses (see the lecture). */
double lab2_f32_tolerance(const float *in, size_t n)
{
    float biggest = 0.0f;
#pragma omp parallel for reduction(max : biggest) schedule(static)
    for (size_t i = 0; i < n; i++)
        if (fabsf(in[i]) > biggest)
            biggest = fabsf(in[i]);
    return (double)n * FLT_EPSILON * biggest;
}
