/* Step 0.0 (worked example): copy 3n floats at the memory-copy limit.
 *
 * What it shows: a warp reading 32 consecutive 16-byte int4 values touches 512
 * contiguous bytes, i.e. 16 full 32-byte sectors: every byte the memory system
 * fetches is used. Each thread moves VT int4 values, loading them all before
 * storing any, so several loads are in flight per thread. Every index is 64-bit:
 * 3n floats may pass 2^32.
 * Expect: about 96% of a device-to-device cudaMemcpy from 2^24 records up
 * (lecture 0, Step 0.0's table). */
#include "lab0.h"

enum { NT = LAB0_COPY_NT, VT = LAB0_COPY_VT, NV = NT * VT };

__global__ void copy_int4(const int4 *__restrict__ in, int4 *__restrict__ out, size_t count)
{
    size_t first = (size_t)blockIdx.x * NV + threadIdx.x;
    int4 v[VT];
#pragma unroll
    for (int k = 0; k < VT; k++) {
        size_t i = first + (size_t)k * NT; /* neighbours read neighbours: coalesced */
        if (i < count)
            v[k] = in[i];
    }
#pragma unroll
    for (int k = 0; k < VT; k++) {
        size_t i = first + (size_t)k * NT;
        if (i < count)
            out[i] = v[k];
    }
}

/* The last (3n mod 4) floats that do not fill an int4. */
__global__ void copy_tail(const float *__restrict__ in, float *__restrict__ out, size_t from,
                          size_t words)
{
    size_t i = from + threadIdx.x;
    if (i < words)
        out[i] = in[i];
}

extern "C" int lab0_copy(const lab0_io *io, cudaStream_t stream)
{
    size_t words = 3 * io->n;
    size_t vectors = words / 4; /* cudaMalloc returns 256-byte aligned buffers */
    if (vectors) {
        copy_int4<<<kit_div_up(vectors, NV), NT, 0, stream>>>(
            (const int4 *)io->in, (int4 *)io->out, vectors);
        if (int err = KIT_LAUNCH_CHECK())
            return err;
    }
    if (words % 4) {
        copy_tail<<<1, 32, 0, stream>>>(io->in, io->out, vectors * 4, words);
        return KIT_LAUNCH_CHECK();
    }
    return 0;
}
