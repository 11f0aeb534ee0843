/* cub_ref.cu: the library reference row, cub::DeviceReduce (CCCL).
 *
 * CUB reduces in two launches: a first kernel where a grid sized to the GPU
 * reduces tiles with vector loads and writes one partial per block, then a
 * single-block kernel over those partials. Its temporary storage (the partials)
 * is sized and allocated with the problem, outside timing. num_items is passed
 * as int up to INT_MAX (CUB's 32-bit offsets, its fast path) and as long long
 * beyond (64-bit offsets). */
#include <cub/cub.cuh>

#include "lab2.h"

template <typename Offset>
static cudaError_t cub_reduce(lab2_type type, void *temp, size_t *temp_bytes, const void *in, void *out,
                              Offset n, cudaStream_t stream)
{
    switch (type) {
    case LAB2_I64: /* the long long output makes CUB accumulate in 64 bits */
        return cub::DeviceReduce::Sum(temp, *temp_bytes, (const int *)in, (long long *)out, n, stream);
    case LAB2_F32:
        return cub::DeviceReduce::Sum(temp, *temp_bytes, (const float *)in, (float *)out, n, stream);
    case LAB2_MAX:
        return cub::DeviceReduce::Max(temp, *temp_bytes, (const int *)in, (int *)out, n, stream);
    }
    return cudaErrorInvalidValue;
}

static cudaError_t cub_reduce_n(lab2_type type, void *temp, size_t *temp_bytes, const void *in, void *out,
                                size_t n, cudaStream_t stream)
{
    if (n <= INT_MAX)
        return cub_reduce<int>(type, temp, temp_bytes, in, out, (int)n, stream);
    return cub_reduce<long long>(type, temp, temp_bytes, in, out, (long long)n, stream);
}

extern "C" size_t lab2_cub_temp_bytes(lab2_type type, size_t n)
{
    size_t bytes = 0;
    if (KIT_CHECK(cub_reduce_n(type, NULL, &bytes, NULL, NULL, n ? n : 1, 0)))
        return 0;
    return bytes;
}

extern "C" int lab2_cub(const lab2_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return lab2_write_identity(io, stream);
    size_t bytes = io->ws.cub_temp_bytes;
    if (int err = KIT_CHECK(cub_reduce_n(io->type, io->ws.cub_temp, &bytes, io->in, io->out, io->n, stream)))
        return err;
    return KIT_LAUNCH_CHECK();
}
