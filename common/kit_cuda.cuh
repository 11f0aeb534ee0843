/* kit_cuda.cuh: helpers for the labs' CUDA files (C++ templates and device
 * code, so not in kit.h, which C files include too). */
#ifndef KIT_CUDA_CUH
#define KIT_CUDA_CUH

#include "kit.h"
#include "kit_ptx.cuh" /* ordered loads and stores, the L2 prefetch, one warp vote */

/* Blocks of `kernel` (threads per block, smem bytes of dynamic shared memory)
 * that fit on the whole GPU at once: the grid of a persistent kernel, one that
 * loops over tiles whose number it learns on the device. At least one block per
 * SM. 0, or the CUDA error (reported). */
template <typename K>
static int kit_resident_blocks(K kernel, int threads, size_t smem, int *blocks)
{
    int dev = 0, sms = 0, per_sm = 0;
    if (int err = KIT_CHECK(cudaGetDevice(&dev)))
        return err;
    if (int err = KIT_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)))
        return err;
    if (int err = KIT_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem)))
        return err;
    *blocks = sms * (per_sm > 0 ? per_sm : 1);
    return 0;
}

#endif
