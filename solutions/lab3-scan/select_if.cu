/* Step 3.6 (application): stream compaction (select-if) in ONE pass and IN PLACE,
 * on the machinery of Step 3.5.
 *
 * Each tile counts the items it keeps, scans those 0/1 flags across the block
 * (each kept item's rank within the tile), and finds with the warp-parallel
 * look-back how many items all earlier tiles keep: that is where its first kept
 * item goes. Kept items are gathered in shared memory in order, then written out
 * contiguously (coalesced).
 *
 * Why in place is safe here (Merrill and Garland's observation): tile t writes
 * only below the end of its own tile (no tile keeps more than it read), and it
 * writes only after its look-back has acquired every tile back to the nearest P,
 * whose own look-back acquired the ones before it (release/acquire is
 * cumulative); each tile publishes only after it has read all of its input. So no tile can
 * overwrite input a predecessor has not read yet. In a multi-pass compaction
 * the last pass's tiles run independently and have no such guarantee. Because
 * the argument is about *data* written by other blocks, the statuses here are
 * published with release stores and read with acquire loads (the scans, which
 * only pass values through the status words, can use relaxed ones).
 *
 * The status value is the count of kept items (32 bits: n < 2^32), so one 64-bit
 * word holds flag + count for both element types. */
#include "lab3_scan.cuh"

#define SEL_NT LAB3_SELECT_NT /* tile shape: lab3.h */

template <typename T>
struct select_shape {
    static constexpr int VT = sizeof(T) == 4 ? LAB3_SELECT_VT_I32 : LAB3_SELECT_VT_I64;
    static_assert(VT <= 32, "the kept items of a thread are a 32-bit mask");
    static constexpr int NV = SEL_NT * VT;
    static constexpr int PER_VEC = 16 / sizeof(T);
    static constexpr int VECS = NV / PER_VEC;
    static constexpr int VEC_ITERS = (VECS + SEL_NT - 1) / SEL_NT;
};

// BEGIN SOLUTION (Step 3.6): count status words with release/acquire, a window look-back over them, and the select kernel
/* The bits the keep predicate hashes: zero-extended, as in lab3_ref_select. */
static __device__ __forceinline__ uint64_t select_bits(unsigned int x) { return x; }
static __device__ __forceinline__ uint64_t select_bits(unsigned long long x) { return x; }

static __device__ __forceinline__ void count_status_store(void *status, long long tile, uint32_t flag,
                                                          uint32_t count)
{
    lab3_st_release(lab3_status_entry(status, tile, 8), lab3_pack32(flag, count));
}

static __device__ __forceinline__ uint32_t count_status_load(void *status, long long tile, uint32_t &count)
{
    unsigned long long w = lab3_ld_acquire(lab3_status_entry(status, tile, 8));
    count = lab3_value32(w);
    return lab3_flag32(w);
}

/* The look-back of Step 3.5 on counts, by one full warp, for tile t > 0. */
static __device__ __forceinline__ uint32_t count_lookback(void *status, long long t)
{
    const int lane = threadIdx.x & 31;
    uint32_t before = 0;
    for (long long p0 = t - 1;; p0 -= 32) {
        long long p = p0 - lane;
        uint32_t value, flag;
        do {
            flag = count_status_load(status, p, value);
            if (p < 0) {
                flag = LAB3_STATUS_P;
                value = 0;
            }
        } while (__any_sync(LAB3_FULL_MASK, flag == LAB3_STATUS_X));
        unsigned int p_lanes = __ballot_sync(LAB3_FULL_MASK, flag == LAB3_STATUS_P);
        int last = p_lanes ? __ffs(p_lanes) - 1 : 31;
        before += lab3_warp_sum(lane <= last ? value : 0u);
        if (p_lanes)
            break;
    }
    return before;
}

/* in may equal out: no __restrict__, and no read-only-cache loads. */
template <typename T>
__global__ void __launch_bounds__(SEL_NT) select_kernel(const T *in, T *out, size_t n, uint32_t keep_pct,
                                                        bool wide, void *status, unsigned long long *d_count)
{
    typedef select_shape<T> S;
    __shared__ __align__(16) T tile[S::NV];
    __shared__ uint32_t warp_sums[SEL_NT / 32 + 1];
    __shared__ unsigned int tile_id;
    __shared__ uint32_t tile_prefix;
    if (threadIdx.x == 0)
        tile_id = atomicAdd(lab3_ticket(status), 1u);
    __syncthreads();
    const unsigned int t = tile_id;
    size_t base = (size_t)t * S::NV;
    size_t count = lab3_tile_items(n, S::NV, t);

    /* Load the tile into shared memory (16-byte vectors when full and aligned). */
    if (wide && count == (size_t)S::NV) {
        const uint4 *src = (const uint4 *)(in + base);
        uint4 r[S::VEC_ITERS];
#pragma unroll
        for (int k = 0; k < S::VEC_ITERS; k++) {
            int j = k * SEL_NT + threadIdx.x;
            if (S::VECS % SEL_NT == 0 || j < S::VECS)
                r[k] = src[j];
        }
#pragma unroll
        for (int k = 0; k < S::VEC_ITERS; k++) {
            int j = k * SEL_NT + threadIdx.x;
            if (S::VECS % SEL_NT == 0 || j < S::VECS)
                ((uint4 *)tile)[j] = r[k];
        }
    } else {
#pragma unroll
        for (int k = 0; k < S::VT; k++) {
            int i = k * SEL_NT + threadIdx.x;
            tile[i] = (size_t)i < count ? in[base + i] : T(0);
        }
    }
    __syncthreads();

    /* Each thread: its VT consecutive items, which of them it keeps, how many. */
    T v[S::VT];
    uint32_t kept_mask = 0, kept = 0;
#pragma unroll
    for (int k = 0; k < S::VT; k++) {
        int i = threadIdx.x * S::VT + k;
        v[k] = tile[i];
        if ((size_t)i < count && lab3_keep(select_bits(v[k]), keep_pct)) {
            kept_mask |= 1u << k;
            kept++;
        }
    }
    uint32_t aggregate;
    uint32_t rank = lab3_block_exclusive_scan<SEL_NT>(kept, warp_sums, aggregate); /* barriers: all reads of tile[] done */

    if (threadIdx.x < 32) {
        if (t == 0) {
            if (threadIdx.x == 0) {
                count_status_store(status, 0, LAB3_STATUS_P, aggregate);
                tile_prefix = 0;
            }
        } else {
            if (threadIdx.x == 0)
                count_status_store(status, t, LAB3_STATUS_A, aggregate);
            uint32_t before = count_lookback(status, t);
            __syncwarp(); /* every lane's acquire happens before lane 0's release */
            if (threadIdx.x == 0) {
                count_status_store(status, t, LAB3_STATUS_P, before + aggregate);
                tile_prefix = before;
            }
        }
    }

    /* Gather the kept items in order at the front of the shared tile. */
#pragma unroll
    for (int k = 0; k < S::VT; k++)
        if (kept_mask >> k & 1u)
            tile[rank++] = v[k];
    __syncthreads();
    const uint32_t first = tile_prefix;
    for (uint32_t j = threadIdx.x; j < aggregate; j += SEL_NT)
        out[(size_t)first + j] = tile[j];
    if (threadIdx.x == 0 && base + count == n) /* the last tile knows the total */
        *d_count = (unsigned long long)first + aggregate;
}

template <typename T>
static int select_if(const lab3_select_io *io, cudaStream_t stream)
{
    typedef select_shape<T> S;
    size_t tiles = lab3_tile_count(io->n, S::NV);
    if (int err = lab3_status_reset<unsigned int>(io->ws, tiles, stream))
        return err;
    bool wide = (uintptr_t)io->in % 16 == 0;
    select_kernel<T><<<tiles, SEL_NT, 0, stream>>>((const T *)io->in, (T *)io->out, io->n, io->keep_pct, wide,
                                                   io->ws->status, io->d_count);
    return KIT_LAUNCH_CHECK();
}
// END SOLUTION

extern "C" int lab3_select_if(const lab3_select_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return KIT_CHECK(cudaMemsetAsync(io->d_count, 0, sizeof *io->d_count, stream));
    if (io->n > 0xffffffffull)
        return KIT_CHECK(cudaErrorInvalidValue); /* counts are 32-bit */
    // BEGIN SOLUTION (Step 3.6): dispatch on the element type
    return io->type == LAB3_I32 ? select_if<unsigned int>(io, stream) : select_if<unsigned long long>(io, stream);
    // STUB: return KIT_TODO;
    // END SOLUTION
}
