/* kit_ptx.cuh: the kit's only inline PTX, for what CUDA C++ does not say exactly
 * as the labs need it. The CPU emulator replaces this file as a whole, so it holds
 * nothing else and every function keeps its signature there.
 *
 *   kit_load_relaxed / kit_store_relaxed   32- or 64-bit, relaxed at GPU scope
 *   kit_load_acquire / kit_store_release   32- or 64-bit, acquire / release at GPU scope
 *   kit_load_relaxed_pair / kit_store_relaxed_pair   two 64-bit words in one 16-byte access
 *   kit_prefetch_l2                        a bulk prefetch into L2 (sm_90)
 *   kit_lanes_agreeing                     the lanes whose test of a bit agrees with mine
 *
 * Relaxed at GPU scope: the access goes to L2 (never a stale L1 copy), it is seen
 * whole (no torn value), and the compiler may neither drop nor merge it, so a spin
 * loop really reads again. Release: every earlier access of this thread happens
 * before the store, for a thread that reads it with acquire; acquire: every later
 * access happens after the load. All work on global memory only.
 *
 * Why not cuda::atomic_ref? With nvcc 13.0 its loads and stores compile to
 * generic-address PTX (ld.acquire.gpu.b64, not ld.acquire.gpu.global.u64), so the
 * instructions would change, and it has no 16-byte access. */
#ifndef KIT_PTX_CUH
#define KIT_PTX_CUH

#include <stdint.h>

/* 32-bit (unsigned int, uint32_t) or 64-bit (unsigned long long) words. */
template <typename T>
static __device__ __forceinline__ T kit_load_relaxed(const T *p)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32- or 64-bit words");
    T v;
    if constexpr (sizeof(T) == 4)
        asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    else
        asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

template <typename T>
static __device__ __forceinline__ void kit_store_relaxed(T *p, T v)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32- or 64-bit words");
    if constexpr (sizeof(T) == 4)
        asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
    else
        asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

template <typename T>
static __device__ __forceinline__ T kit_load_acquire(const T *p)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32- or 64-bit words");
    T v;
    if constexpr (sizeof(T) == 4)
        asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    else
        asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

template <typename T>
static __device__ __forceinline__ void kit_store_release(T *p, T v)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "32- or 64-bit words");
    if constexpr (sizeof(T) == 4)
        asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
    else
        asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* Two 64-bit words, lo at p and hi after it (p 16-byte aligned), in one 16-byte
 * access. The memory model promises only that each word is seen whole, not both
 * at once (they may be seen in either order): a reader must be able to tell a
 * torn pair (lab 3 repeats a flag in both words). */
static __device__ __forceinline__ void kit_store_relaxed_pair(void *p, unsigned long long lo, unsigned long long hi)
{
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(lo), "l"(hi) : "memory");
}
static __device__ __forceinline__ void kit_load_relaxed_pair(const void *p, unsigned long long &lo,
                                                             unsigned long long &hi)
{
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(lo), "=l"(hi) : "l"(p) : "memory");
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

/* Called by all 32 lanes of a warp: the lanes whose x & bit is nonzero exactly
 * when mine is (mine included). The same as
 *     unsigned ones = __ballot_sync(KIT_FULL_MASK, (x & bit) != 0);
 *     return (x & bit) ? ones : ~ones;
 * in 2 instructions instead of 5: the vote's predicate also guards the
 * complement (lab 5 measures what that is worth, lab5_rank.cuh). */
static __device__ __forceinline__ unsigned kit_lanes_agreeing(uint32_t x, uint32_t bit)
{
    unsigned agree;
    asm("{\n\t.reg .pred mine;\n\t.reg .u32 masked;\n\t"
        "and.b32 masked, %1, %2;\n\t"
        "setp.ne.u32 mine, masked, 0;\n\t"
        "vote.sync.ballot.b32 %0, mine, 0xffffffff;\n\t"
        "@!mine not.b32 %0, %0;\n\t}"
        : "=r"(agree)
        : "r"(x), "r"(bit));
    return agree;
}

#endif
