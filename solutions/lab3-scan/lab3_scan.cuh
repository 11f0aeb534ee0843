/* lab3_scan.cuh: device building blocks shared by lab3's variants.
 *
 * All arithmetic is done on unsigned types (unsigned int for int32 data,
 * unsigned long long for int64 data): unsigned sums wrap modulo 2^32 / 2^64 by
 * definition, which is exactly what two's-complement int sums do in practice, so
 * the bits match the CPU reference without relying on signed overflow.
 *
 * Given here (complete, not an exercise): the warp and block scans once Step 3.1
 * has taught them, tile load/store through shared memory (Step 3.2 explains the
 * transpose), the tile-offset pass of the multi-pass scans, and the status-word
 * loads and stores of the single-pass scans (lab3_tile.h says how a status is
 * packed and why no fence is needed). */
#ifndef LAB3_SCAN_CUH
#define LAB3_SCAN_CUH

#include "lab3.h"

#define LAB3_FULL_MASK 0xffffffffu

/* ---- warp and block scans ----------------------------------------------------- */

/* Inclusive scan across the 32 lanes of a full warp (all lanes must call it). */
template <typename T>
static __device__ __forceinline__ T lab3_warp_inclusive_scan(T x)
{
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        T y = __shfl_up_sync(LAB3_FULL_MASK, x, d);
        if (lane >= d)
            x += y;
    }
    return x;
}

/* Sum over the 32 lanes of a full warp; every lane gets the total. */
template <typename T>
static __device__ __forceinline__ T lab3_warp_sum(T x)
{
#pragma unroll
    for (int d = 16; d > 0; d /= 2)
        x += __shfl_xor_sync(LAB3_FULL_MASK, x, d);
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
}

/* ---- tiles of NT threads x VT values --------------------------------------------
 * Loading: thread t reads items t, t + NT, t + 2NT, ... (neighbouring threads
 * read neighbouring items: coalesced) into shared memory, then takes VT
 * consecutive items tid*VT .. tid*VT + VT-1 out of it (the transpose). With odd VT
 * the 32 lanes' reads at stride VT fall in 32 different banks. Items past `count`
 * read as 0, the identity of +. */
template <int NT, int VT, typename T>
static __device__ __forceinline__ void lab3_load_tile(const T *in, size_t count, T *smem, T (&v)[VT])
{
#pragma unroll
    for (int k = 0; k < VT; k++) {
        int i = k * NT + threadIdx.x;
        smem[i] = (size_t)i < count ? in[i] : T(0);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < VT; k++)
        v[k] = smem[threadIdx.x * VT + k];
}

/* The reverse: each thread puts its VT values back where it read them (so no
 * other thread's reads can be overtaken and no barrier is needed before), then the
 * block writes the tile out coalesced. */
template <int NT, int VT, typename T>
static __device__ __forceinline__ void lab3_store_tile(T *out, size_t count, T *smem, const T (&v)[VT])
{
#pragma unroll
    for (int k = 0; k < VT; k++)
        smem[threadIdx.x * VT + k] = v[k];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < VT; k++) {
        int i = k * NT + threadIdx.x;
        if ((size_t)i < count)
            out[i] = smem[i];
    }
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

/* ---- tile status of the single-pass scans -----------------------------------------
 * Layout of ws->status (lab3_tile.h): a ticket counter in the first
 * LAB3_TICKET_BYTES, then LAB3_LOOKBACK_PAD spare entries, then one entry per
 * tile. Stores and loads are .relaxed at GPU scope: they go to L2 (never a stale
 * L1 copy) and the compiler may neither drop nor merge them (a spin loop really
 * re-reads). The select-if kernel needs ordering with its data and uses the
 * release/acquire versions instead. */

template <typename T>
static __host__ __device__ constexpr size_t lab3_status_entry_bytes()
{
    return sizeof(T) == 4 ? 8 : 16;
}

static __device__ __forceinline__ unsigned int *lab3_ticket(void *status)
{
    return (unsigned int *)status;
}

static __device__ __forceinline__ char *lab3_status_entry(void *status, long long tile, size_t entry_bytes)
{
    return (char *)status + LAB3_TICKET_BYTES + (size_t)(tile + LAB3_LOOKBACK_PAD) * entry_bytes;
}

static __device__ __forceinline__ void lab3_st_relaxed(void *p, unsigned long long v)
{
    asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
static __device__ __forceinline__ unsigned long long lab3_ld_relaxed(const void *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
static __device__ __forceinline__ void lab3_st_release(void *p, unsigned long long v)
{
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
static __device__ __forceinline__ unsigned long long lab3_ld_acquire(const void *p)
{
    unsigned long long v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
static __device__ __forceinline__ void lab3_st_relaxed_pair(void *p, unsigned long long lo,
                                                            unsigned long long hi)
{
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(lo), "l"(hi) : "memory");
}
static __device__ __forceinline__ void lab3_ld_relaxed_pair(const void *p, unsigned long long &lo,
                                                            unsigned long long &hi)
{
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(lo), "=l"(hi) : "l"(p) : "memory");
}

/* Publish tile `tile`'s status: one 8-byte store (32-bit values) or one 16-byte
 * store (64-bit values, flag repeated in both halves). */
static __device__ __forceinline__ void lab3_status_store(void *status, long long tile, uint32_t flag,
                                                         unsigned int value)
{
    lab3_st_relaxed(lab3_status_entry(status, tile, 8), lab3_pack32(flag, value));
}
static __device__ __forceinline__ void lab3_status_store(void *status, long long tile, uint32_t flag,
                                                         unsigned long long value)
{
    lab3_pair p = lab3_pack64(flag, value);
    lab3_st_relaxed_pair(lab3_status_entry(status, tile, 16), p.lo, p.hi);
}

/* Read tile `tile`'s status: returns the flag (X, A or P) and sets value. */
static __device__ __forceinline__ uint32_t lab3_status_load(void *status, long long tile, unsigned int &value)
{
    unsigned long long w = lab3_ld_relaxed(lab3_status_entry(status, tile, 8));
    value = lab3_value32(w);
    return lab3_flag32(w);
}
static __device__ __forceinline__ uint32_t lab3_status_load(void *status, long long tile,
                                                            unsigned long long &value)
{
    unsigned long long lo, hi;
    lab3_ld_relaxed_pair(lab3_status_entry(status, tile, 16), lo, hi);
    lab3_pair p = { lo, hi };
    value = lab3_value64(p);
    return lab3_flag64(p);
}

/* Host side: zero the ticket counter and the first `tiles` status entries (and the
 * statistics when they are on) before a single-pass launch. Without it the second
 * run would find the first run's P flags and add stale prefixes. */
template <typename T>
static int lab3_status_reset(lab3_workspace *ws, size_t tiles, cudaStream_t stream)
{
    size_t bytes = LAB3_TICKET_BYTES + (LAB3_LOOKBACK_PAD + tiles) * lab3_status_entry_bytes<T>();
    if (bytes > ws->status_bytes)
        return KIT_CHECK(cudaErrorInvalidValue); /* workspace sized for fewer tiles */
    if (int err = KIT_CHECK(cudaMemsetAsync(ws->status, 0, bytes, stream)))
        return err;
    if (ws->stats)
        return KIT_CHECK(cudaMemsetAsync(ws->stats, 0, LAB3_STAT_COUNT * sizeof(unsigned long long), stream));
    return 0;
}

/* Device side: record that one tile inspected `depth` predecessors and found X
 * `waits` times (only when statistics are on). */
static __device__ __forceinline__ void lab3_stats_record(unsigned long long *stats, unsigned long long depth,
                                                         unsigned long long waits)
{
    if (stats) {
        atomicAdd(&stats[LAB3_STAT_TILES], 1ull);
        atomicAdd(&stats[LAB3_STAT_DEPTH_SUM], depth);
        atomicMax(&stats[LAB3_STAT_DEPTH_MAX], depth);
        atomicAdd(&stats[LAB3_STAT_WAITS], waits);
    }
}

#endif
