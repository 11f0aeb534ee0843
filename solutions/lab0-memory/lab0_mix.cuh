/* lab0_mix.cuh: the two branches of the divergence variants. Each scrambles a
 * 32-bit word LAB0_BRANCH_ITERS times with integer instructions only (so the CPU
 * reference is exact); they differ in code so the compiler cannot merge them. */
#ifndef LAB0_MIX_CUH
#define LAB0_MIX_CUH
#include "lab0.h"

/* Branch A: a linear congruential step followed by a shift-xor. */
__device__ __forceinline__ uint32_t mix_a(uint32_t x)
{
#pragma unroll 8
    for (int k = 0; k < LAB0_BRANCH_ITERS; k++) {
        x = x * 1664525u + 1013904223u;
        x ^= x >> 16;
    }
    return x;
}

/* Branch B: Marsaglia's xorshift32. */
__device__ __forceinline__ uint32_t mix_b(uint32_t x)
{
#pragma unroll 8
    for (int k = 0; k < LAB0_BRANCH_ITERS; k++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
    }
    return x;
}
#endif
