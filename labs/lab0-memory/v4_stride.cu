/* Step 0.4: gather every stride-th float: out[j] = in[j * stride].
 *
 * Memory moves in 32-byte sectors (8 floats). With stride s a warp's 32 loads
 * spread over 32 * s words: for s <= 8 the same sectors are fetched as for a full
 * copy but only 1/s of each is used; from s = 8 on, every useful float costs a
 * whole sector. The GB/s column counts useful bytes only, so it shows the waste.
 * Expect (run with --stride-sweep): the time falls quickly up to s = 5, then stays
 * flat up to s = 16, not 8 (DRAM delivers 64 bytes for every sector asked for), and
 * only then falls again, roughly as 1/s (lecture 0, Step 0.4's table). */
#include "lab0.h"

enum { NT = LAB0_NT };

__global__ void gather_strided(const float *__restrict__ in, float *__restrict__ out,
                               size_t count, int stride)
{
    // TODO(Step 0.4): thread j copies in[j * stride] to out[j] (64-bit index math) (about 3 lines)
}

extern "C" int lab0_stride(const lab0_io *io, cudaStream_t stream)
{
    size_t count = lab0_strided_count(3 * io->n, io->stride);
    if (count == 0)
        return 0;
    // TODO(Step 0.4): one thread per output float (about 2 lines)
    (void)stream;
    return KIT_TODO;
}
