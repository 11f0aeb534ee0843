/* Step 0.5: copy with a misaligned start: out[j] = in[j + offset].
 *
 * With offset 0 a warp's 128 bytes fill exactly 4 aligned sectors. With any other
 * offset (not a multiple of 8 floats) they straddle 5 sectors: up to 25% more
 * sectors requested for the reads, though the neighbouring warp wants the extra
 * sector too, so L2 usually serves it. The writes stay aligned.
 * Still slow, at any offset: one 4-byte float per thread keeps too few bytes in
 * flight; offset 0 reaches only about two thirds of memcpy (lecture 0, Step 0.0).
 * Expect (--stride-sweep measures offsets 0..32): a loss of a few percent at every
 * offset from 1 to 32, far less than the half-warp rules of the first CUDA GPUs
 * predicted (lecture 0, Step 0.5, and the right panel of the stride chart). */
#include "lab0.h"

enum { NT = LAB0_NT };

__global__ void copy_offset(const float *__restrict__ in, float *__restrict__ out, size_t words,
                            int offset)
{
    // TODO(Step 0.5): thread j copies in[j + offset] to out[j] (about 3 lines)
}

extern "C" int lab0_offset(const lab0_io *io, cudaStream_t stream)
{
    size_t words = 3 * io->n;
    if (words == 0)
        return 0;
    // TODO(Step 0.5): one thread per float (about 2 lines)
    (void)stream;
    return KIT_TODO;
}
