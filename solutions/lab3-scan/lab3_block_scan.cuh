/* lab3_block_scan.cuh: the scans inside a block, which every step of lab 3 is
 * built on: the warp scan and the block scan (you write them in Step 3.1), the
 * warp sum (lab 2's warp reduction, given), a thread's scan of its own values,
 * and the last pass of the multi-pass scans (Steps 3.0-3.1), which adds each
 * tile's offset to its items.
 *
 * All arithmetic is done on unsigned types (unsigned int for int32 data,
 * unsigned long long for int64 data): unsigned sums wrap modulo 2^32 / 2^64 by
 * definition, which is exactly what two's-complement int sums do in practice, so
 * the bits match the CPU reference without relying on signed overflow. */
#ifndef LAB3_BLOCK_SCAN_CUH
#define LAB3_BLOCK_SCAN_CUH

#include "kit_cuda.cuh"
#include "lab3.h"

/* Inclusive scan across the 32 lanes of a full warp (all lanes must call it). */
template <typename T>
static __device__ __forceinline__ T lab3_warp_inclusive_scan(T x)
{
    // BEGIN SOLUTION (Step 3.1): five __shfl_up_sync steps (d = 1, 2, 4, 8, 16); a lane adds what it receives only when lane >= d
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        T y = __shfl_up_sync(KIT_FULL_MASK, x, d);
        if (lane >= d)
            x += y;
    }
    return x;
    // STUB: return x;
    // END SOLUTION
}

/* Sum over the 32 lanes of a full warp; every lane gets the total (lab 2's warp
 * reduction, with __shfl_xor_sync so that no lane is left without the result). */
template <typename T>
static __device__ __forceinline__ T lab3_warp_sum(T x)
{
#pragma unroll
    for (int d = 16; d > 0; d /= 2)
        x += __shfl_xor_sync(KIT_FULL_MASK, x, d);
    return x;
}

/* Exclusive scan of one value per thread across a block of NT threads (NT a
 * multiple of 32, at most 1024). Returns the thread's exclusive prefix and sets
 * aggregate to the block's total. warp_sums: NT/32 + 1 shared entries. Two
 * barriers; call __syncthreads() before using warp_sums again. */
template <int NT, typename T>
static __device__ __forceinline__ T lab3_block_exclusive_scan(T x, T *warp_sums, T &aggregate)
{
    constexpr int WARPS = NT / 32;
    static_assert(NT % 32 == 0 && WARPS <= 32, "NT must be a multiple of 32, at most 1024");
    // BEGIN SOLUTION (Step 3.1): scan each warp; lane 31 stores the warp total in warp_sums[warp]; barrier; warp 0 scans the WARPS totals (lanes >= WARPS take 0), stores each warp's exclusive prefix and the block total in warp_sums[WARPS]; barrier; add
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    T inclusive = lab3_warp_inclusive_scan(x);
    if (lane == 31)
        warp_sums[warp] = inclusive;
    __syncthreads();
    if (warp == 0) {
        T w = lane < WARPS ? warp_sums[lane] : T(0);
        T w_inclusive = lab3_warp_inclusive_scan(w);
        if (lane < WARPS)
            warp_sums[lane] = w_inclusive - w; /* exclusive prefix of warp `lane` */
        if (lane == WARPS - 1)
            warp_sums[WARPS] = w_inclusive; /* block total */
    }
    __syncthreads();
    aggregate = warp_sums[WARPS];
    return warp_sums[warp] + inclusive - x;
    // STUB: (void)warp_sums;
    // STUB: aggregate = T(0);
    // STUB: return T(0);
    // END SOLUTION
}

/* Scan a thread's VT values in place, starting from `prefix` (the sum of
 * everything before them): inclusive, or exclusive when `exclusive` is set. */
template <int VT, typename T>
static __device__ __forceinline__ void lab3_thread_scan(T (&v)[VT], T prefix, int exclusive)
{
#pragma unroll
    for (int k = 0; k < VT; k++) {
        T x = v[k];
        v[k] = exclusive ? prefix : prefix + x;
        prefix += x;
    }
}

/* ---- the multi-pass scans' last pass ----------------------------------------------- */

/* out[i] += offsets[i / tile]: add each tile's exclusive prefix to its items. */
template <typename T>
__global__ void lab3_add_tile_offsets(T *out, size_t n, const T *offsets, unsigned tile)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += offsets[i / tile];
}

template <typename T>
static int lab3_launch_add_tile_offsets(T *out, size_t n, const T *offsets, unsigned tile,
                                        cudaStream_t stream)
{
    const int nt = 256;
    lab3_add_tile_offsets<T><<<kit_div_up(n, nt), nt, 0, stream>>>(out, n, offsets, tile);
    return KIT_LAUNCH_CHECK();
}

#endif
