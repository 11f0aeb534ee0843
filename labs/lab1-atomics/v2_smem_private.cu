/* Step 1.2: privatization. Each block keeps its own copy of the bins in shared
 * memory, adds its elements there with shared-memory atomics, and merges its copy
 * into the global bins once at the end (one global atomic per non-empty bin per
 * block instead of one per element).
 *
 * A grid of a few blocks per multiprocessor walks the input with a grid-stride
 * loop, so each block's merge is paid for by many elements. Shared atomics are
 * done in the SM, close to the threads, instead of in the L2.
 * Still slow: lanes of a warp that hit the same shared bin are still serialized
 * (single, kwarp:1), and all the warps of a block contend on the block's one copy
 * of the bins.
 * Fallback: when one copy of the bins does not fit in the shared memory a block
 * may have (--bins 2^20: 4 MB of counts), the launcher calls global-atomic's;
 * the table's param column says which path ran (smem=... or global).
 * Expect: several times faster than global-atomic where keys collide; about the
 * same for uniform keys over many bins. */
#include "lab1.h"
#include "lab1_value.cuh"

#define PRIVATE_NT 256
#define PRIVATE_BLOCKS_PER_SM 8

template <typename T>
__global__ void add_smem_private(const int *__restrict__ keys, const double *__restrict__ values,
                                 size_t n, int bins, T *out)
{
    // TODO(Step 1.2): zero the block's shared bins; barrier; grid-stride loop of shared atomicAdd(&bins[key], lab1_weight<T>(values, i)); barrier; merge the non-zero bins into `out` with global atomics (about 14 lines)
}

template <typename T> static int launch(const lab1_io *io, cudaStream_t stream)
{
    // TODO(Step 1.2): if lab1_smem_copies(bins, sizeof(T), 1, io->smem_optin) is 0, fall back to global-atomic's launcher; else zero the bins (lab1_zero_bins<T>), n == 0: done, opt in above 48 KB (cudaFuncSetAttribute) and launch min(blocks needed, PRIVATE_BLOCKS_PER_SM * sms) blocks with bins * sizeof(T) bytes of dynamic shared memory (about 17 lines)
    return KIT_TODO;
}

extern "C" int lab1_smem_private_histogram(const lab1_io *io, cudaStream_t stream)
{
    return launch<int>(io, stream);
}

extern "C" int lab1_smem_private_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    return launch<double>(io, stream);
}
