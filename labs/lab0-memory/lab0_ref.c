/* lab0_ref.c: the CPU reference ("gold") for every lab0 variant. Written
 * independently of the kernels: plain loops over the words. */
#include "lab0.h"

void lab0_ref_add_two(const float *in, float *out, size_t count)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < count; i++)
        out[i] = in[i] + 2.0f;
}

size_t lab0_strided_count(size_t words, int stride)
{
    return words == 0 ? 0 : (words - 1) / (size_t)stride + 1;
}

void lab0_ref_strided(const float *in, float *out, size_t words, int stride)
{
    size_t count = lab0_strided_count(words, stride);
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < count; j++)
        out[j] = in[j * (size_t)stride];
}

uint32_t lab0_ref_mix_a(uint32_t x)
{
    for (int k = 0; k < LAB0_BRANCH_ITERS; k++) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 16;
    }
    return x;
}

uint32_t lab0_ref_mix_b(uint32_t x)
{
    for (int k = 0; k < LAB0_BRANCH_ITERS; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
    }
    return x;
}

void lab0_ref_branch(const uint32_t *in, uint32_t *out, size_t words, int group)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < words; i++)
        out[i] = (i / (size_t)group) % 2 ? lab0_ref_mix_a(in[i]) : lab0_ref_mix_b(in[i]);
}
