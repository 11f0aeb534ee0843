/* kit_cuda.cuh: the device header every lab's CUDA files include: kit.h (with
 * kit_hd.h's KIT_HD, KIT_FULL_MASK and kit_div_up), kit_ptx.cuh (ordered loads
 * and stores, the L2 prefetch, one warp vote) and the C++ side of the harness. */
#ifndef KIT_CUDA_CUH
#define KIT_CUDA_CUH

#include "kit.h"
#include "kit_ptx.cuh"

/* Blocks of `kernel` (threads per block, smem bytes of dynamic shared memory)
 * that the current GPU holds at once: the grid of a persistent kernel. Asked once
 * per device (and query) and remembered (kit_resident_blocks_on, kit.h). `query` may set the
 * kernel's attributes before it counts (more than 48 KB of dynamic shared memory,
 * a carveout); the default only counts. 0, or the CUDA error (reported). */
template <typename K>
static int kit_resident_blocks(K kernel, int threads, size_t smem, int *blocks,
                               kit_resident_query query = kit_count_resident_blocks)
{
    int device = 0;
    if (int err = KIT_CHECK(cudaGetDevice(&device)))
        return err;
    return kit_resident_blocks_on(device, (const void *)kernel, threads, smem, query, blocks);
}

#endif
