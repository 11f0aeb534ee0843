/* Step 0.1: add 2 to every component of n float3 records, one record per thread,
 * reading the array of structures (AoS) directly.
 *
 * A float3 is 12 bytes and has no 12-byte load instruction: each thread issues three
 * 4-byte loads at addresses 12 bytes apart. One load instruction of a warp then
 * covers 32 words spread over 384 bytes, so it needs 12 sectors for 128 useful
 * bytes. The other two loads touch the same sectors, so whether they come from
 * DRAM again or from L1/L2 decides how bad this is on a given GPU.
 * Still slow on a GPU whose L1 does not cache these loads: there each load
 * instruction fetches three times the bytes it uses.
 * Expect: as fast as `copy` where L1 does cache them: the first load brings the 12
 * sectors into L1 and the other two find them there (lecture 0, the table of Steps
 * 0.1 to 0.3). */
#include "lab0.h"

enum { NT = LAB0_NT };

__global__ void add_two_aos(const float3 *__restrict__ in, float3 *__restrict__ out, size_t n)
{
    // TODO(Step 0.1): one thread per record: load its float3, add 2 to x, y and z, store it (about 8 lines)
}

extern "C" int lab0_float3_aos(const lab0_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    // TODO(Step 0.1): launch add_two_aos with one thread per record and check the launch (about 2 lines)
    (void)stream;
    return KIT_TODO;
}
