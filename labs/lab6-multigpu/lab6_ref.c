/* lab6_ref.c: the data and the CPU reference ("gold") of every lab6 row. Data depend
 * only on (seed, rank, index), so every process of a run generates the same inputs
 * and can compute the whole reference itself. */
#include "lab6.h"

#include <stdlib.h>
#include <string.h>

void lab6_fill_reduce_input(void *values, size_t n, lab6_type type, uint64_t seed, int rank)
{
    uint64_t stream = seed * 1000003u + (uint64_t)rank; /* a different input on every GPU */
    if (type == LAB6_I32) {
        kit_fill_i32(values, n, stream, -(1 << 20), 1 << 20);
        return;
    }
    /* Multiples of 2^-8 below 2^8 in magnitude: a sum of up to 256 of them is a multiple
     * of 2^-8 below 2^16, which float holds exactly (24-bit significand), whatever the
     * order of the additions. So the check can be exact: tolerance 0. */
    float *f = values;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        f[i] = (float)kit_rand_range(stream, i, -(1 << 16), 1 << 16) / 256.0f;
}

void lab6_ref_allreduce(const void *const *inputs, int G, size_t n, lab6_type type, void *sum)
{
    if (type == LAB6_I32) {
        const int32_t *const *in = (const int32_t *const *)inputs;
        int32_t *out = sum;
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) {
            uint32_t s = 0; /* unsigned: wrap-around is defined */
            for (int g = 0; g < G; g++)
                s += (uint32_t)in[g][i];
            out[i] = (int32_t)s;
        }
        return;
    }
    const float *const *in = (const float *const *)inputs;
    float *out = sum;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        double s = 0;
        for (int g = 0; g < G; g++)
            s += in[g][i];
        out[i] = (float)s;
    }
}

/* ---- the applications ------------------------------------------------------------- */

const char *const lab6_sort_dists[] = { "uniform", "few", "equal", "sorted", "reverse", "lowbits", NULL };

static uint32_t sort_key(const char *dist, size_t i, size_t n, uint64_t seed)
{
    uint32_t ascending = (uint32_t)(((uint64_t)i << 32) / (n ? n : 1)); /* nondecreasing in i */
    if (!strcmp(dist, "few"))                                            /* 16 distinct keys */
        return (uint32_t)kit_hash64(seed + 1, kit_hash64(seed, i) % 16);
    if (!strcmp(dist, "equal"))
        return (uint32_t)kit_hash64(seed, 0);
    if (!strcmp(dist, "sorted"))
        return ascending;
    if (!strcmp(dist, "reverse"))
        return ~ascending;
    if (!strcmp(dist, "lowbits")) /* the high 16 bits all zero */
        return (uint32_t)kit_hash64(seed, i) & 0xffffu;
    return (uint32_t)kit_hash64(seed, i);
}

void lab6_fill_keys(uint32_t *keys, size_t n, lab6_op op, const char *dist, int bins, uint64_t seed)
{
    if (op == LAB6_SCAN) {
        kit_fill_i32((int32_t *)keys, n, seed, -(1 << 30), 1 << 30);
        return;
    }
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        keys[i] = op == LAB6_HISTOGRAM ? (uint32_t)kit_rand_range(seed, i, 0, bins - 1) : sort_key(dist, i, n, seed);
}

void lab6_ref_histogram(const uint32_t *keys, size_t n, int bins, int32_t *hist)
{
    memset(hist, 0, (size_t)bins * sizeof *hist);
    for (size_t i = 0; i < n; i++)
        hist[keys[i]]++;
}

void lab6_ref_exclusive_scan(const uint32_t *in, size_t n, uint32_t *out)
{
    uint32_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = in[i];
        out[i] = sum;
        sum += x;
    }
}

/* Least-significant-digit radix sort, 8 bits a pass, O(n), each pass split over the
 * OpenMP threads (kit_radix_sort_u32). One thread took 149 s for 2^30 sorted keys
 * (37 s for uniform keys), presumably because every digit's output then lies a power
 * of two apart from the next and the scattered writes collide in the cache. */
void lab6_ref_sort(const uint32_t *keys, size_t n, uint32_t *sorted)
{
    memcpy(sorted, keys, n * sizeof *keys);
    kit_radix_sort_u32(sorted, NULL, n);
}
