/* lab5_sort.cuh: what every lab5 kernel file shares: the warp helpers and the
 * dispatch from a launcher's C arguments (key type, keys or pairs) to the
 * template instance that sorts them. The key type and "pairs" are template
 * parameters so the order transform and the value code cost nothing where they
 * are not needed (u32 keys: lab5_order is the identity). */
#ifndef LAB5_SORT_CUH
#define LAB5_SORT_CUH

#include "kit_cuda.cuh"
#include "lab5.h"

static __device__ __forceinline__ unsigned lab5_lane() { return threadIdx.x & 31; }

/* Sort<T, PAIRS>::run(io, stream) for io's type, with values when io has them;
 * n == 0 launches nothing. */
template <template <lab5_type, bool> class Sort>
static int lab5_dispatch(const lab5_sort_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    const bool pairs = io->values_in != NULL;
    switch (io->type) {
    case LAB5_I32: return pairs ? Sort<LAB5_I32, true>::run(io, stream) : Sort<LAB5_I32, false>::run(io, stream);
    case LAB5_F32: return pairs ? Sort<LAB5_F32, true>::run(io, stream) : Sort<LAB5_F32, false>::run(io, stream);
    default: return pairs ? Sort<LAB5_U32, true>::run(io, stream) : Sort<LAB5_U32, false>::run(io, stream);
    }
}

/* The pass loop of the sorts that scan between two kernels (split-1bit and the
 * digit sorts): per pass, count(keys, n, pass, counts) fills counts[0..scan_len),
 * CUB scans them (exclusive, in place), and scatter(keys, values, n, pass, counts,
 * keys_to, values_to) moves every key (and value) to its place. The first pass
 * reads the input; the passes ping-pong between the output and the scratch
 * buffers so that the last one writes the output (lab5_write_to_output). */
template <typename Count, typename Scatter>
static int lab5_count_scan_scatter(const lab5_sort_io *io, int passes, unsigned blocks, int threads, uint32_t *counts,
                                   size_t scan_len, Count count, Scatter scatter, cudaStream_t stream)
{
    const uint32_t *keys = io->keys_in, *values = io->values_in;
    for (int pass = 0; pass < passes; pass++) {
        bool out = lab5_write_to_output(pass, passes);
        uint32_t *keys_to = out ? io->keys_out : io->ws->keys_alt;
        uint32_t *values_to = out ? io->values_out : io->ws->values_alt;
        count<<<blocks, threads, 0, stream>>>(keys, io->n, pass, counts);
        if (int err = KIT_LAUNCH_CHECK())
            return err;
        if (int err = lab5_cub_exclusive_scan(counts, scan_len, io->ws, stream))
            return err;
        scatter<<<blocks, threads, 0, stream>>>(keys, values, io->n, pass, counts, keys_to, values_to);
        if (int err = KIT_LAUNCH_CHECK())
            return err;
        keys = keys_to;
        values = values_to;
    }
    return 0;
}

#endif
