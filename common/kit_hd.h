/* kit_hd.h: what host code, device code and the CPU tests share, in C that nvcc
 * compiles too. A lab's header of host/device logic (lab4_search.h, lab5_radix.h,
 * lab6_plan.h, ...) includes it, so the kernels and the C test that checks that
 * logic on the CPU compile the very same functions. */
#ifndef KIT_HD_H
#define KIT_HD_H

#include <stddef.h>

/* A small function that both sides compile: under nvcc host and device code, always
 * inlined (a kernel gets no call); in plain C an ordinary static inline one. Write
 * `KIT_HD size_t f(...)`, in a header. */
#ifdef __CUDACC__
#define KIT_HD static __host__ __device__ __forceinline__
#else
#define KIT_HD static inline
#endif

/* The GPU architecture being compiled (750 for sm_75, 900 for sm_90, ...), the
 * same number in nvcc's device pass and its host pass, so that a shape derived
 * from it (a ring's bytes, the blocks that fit) agrees between the launcher and
 * the kernel: the kit builds for one ARCH at a time. 0 in plain C. */
#if defined(__CUDA_ARCH__)
#define KIT_ARCH __CUDA_ARCH__
#elif defined(__CUDA_ARCH_LIST__)
#define KIT_ARCH __CUDA_ARCH_LIST__
#else
#define KIT_ARCH 0
#endif

/* Every lane of a warp, for the *_sync intrinsics when the whole warp takes part. */
#define KIT_FULL_MASK 0xffffffffu

/* Blocks (or tiles) of `per_block` items needed to cover `work` items; 0 for 0. */
KIT_HD size_t kit_div_up(size_t work, size_t per_block) { return (work + per_block - 1) / per_block; }

/* Items in tile t when n items are cut into tiles of nv: nv for every tile but
 * the last, which holds the rest; 0 past the end. */
KIT_HD size_t kit_tile_items(size_t n, size_t nv, size_t t)
{
    size_t begin = t * nv;
    if (begin >= n)
        return 0;
    return n - begin < nv ? n - begin : nv;
}

#endif
