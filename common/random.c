/* random.c: counter-based random numbers and the test data filled with them: value
 * i depends only on (seed, i), whatever thread or order produces it. */
#include "kit.h"

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
