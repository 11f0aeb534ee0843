/* kit_cuda.cuh: helpers for the labs' CUDA files (C++ templates and device
 * code, so not in kit.h, which C files include too). */
#ifndef KIT_CUDA_CUH
#define KIT_CUDA_CUH

#include "kit.h"

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

/* Ask L2 for the `bytes` bytes at p, both multiples of 16: one bulk prefetch
 * (sm_90's cp.async.bulk.prefetch.L2). It returns at once, nothing waits for it,
 * and no register or shared memory receives the bytes: a later load finds them
 * in L2. Nothing on older GPUs. Lab 3's loader (prefetch_ahead) and lab 4's
 * joins (join_prefetch_span) use it. */
static __device__ __forceinline__ void kit_prefetch_l2(const void *p, unsigned int bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(p), "r"(bytes));
#else
    (void)p, (void)bytes;
#endif
}

#endif
