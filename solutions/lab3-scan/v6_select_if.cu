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
 * word holds flag + count for both element types.
 *
 * Still slow: Step 3.5's serial phase, worse: the block's other warps, once they
 * have gathered, wait at a barrier while warp 0 looks back, and no load is in
 * flight meanwhile. Expect: at 2^24, keep 50%, a little faster than CUB's
 * compaction for int32 and about 0.8x of it for int64 (lecture 3, Step 3.6's
 * table). */
#include "lab3_block_scan.cuh"
#include "lab3_lookback.cuh"

enum { NT = LAB3_SELECT_NT };

/* The tile of type T: NT threads x VT items (VT from lab3_shapes.h, per type). */
template <typename T>
struct tile_shape {
    static constexpr int VT = sizeof(T) == 4 ? LAB3_SELECT_VT_I32 : LAB3_SELECT_VT_I64;
    static_assert(VT <= 32, "the kept items of a thread are a 32-bit mask");
    static constexpr int NV = NT * VT;
    static constexpr int PER_VEC = 16 / sizeof(T);
    static constexpr int VECS = NV / PER_VEC;
    static constexpr int VEC_ITERS = (VECS + NT - 1) / NT;
};

/* The statuses hold counts of kept items (32-bit: n < 2^32) for both item types,
 * published with release stores and read with acquire loads. */
typedef lab3_tile_status<uint32_t, LAB3_ORDERED> count_status;

/* The bits the keep predicate hashes: zero-extended, as in lab3_ref_select. */
template <typename T>
static __device__ __forceinline__ uint64_t select_bits(T x)
{
    return (uint64_t)x; /* T is unsigned: no sign extension */
}

/* Outline 1: global -> shared, coalesced. `vectors` (the kernel passes aligned &&
 * count == NV: a full tile and a 16-byte aligned input; the helper trusts it and does
 * not test count): 16-byte vectors through registers, all loads issued before the
 * first store to shared memory; otherwise value by value, 0 past the end. Ends with
 * a barrier. */
template <typename T>
static __device__ __forceinline__ void load_tile(const T *in, size_t count, bool vectors, T *tile)
{
    // BEGIN SOLUTION (Step 3.6): vectors: VEC_ITERS uint4 loads into registers (vector j = k*NT + tid, skip j >= VECS), then the stores to tile[]; else tile[i] = in[i] or 0; then __syncthreads
    typedef tile_shape<T> S;
    if (vectors) {
        const uint4 *src = (const uint4 *)in;
        uint4 r[S::VEC_ITERS];
#pragma unroll
        for (int k = 0; k < S::VEC_ITERS; k++) {
            int j = k * NT + threadIdx.x;
            if (S::VECS % NT == 0 || j < S::VECS)
                r[k] = src[j];
        }
#pragma unroll
        for (int k = 0; k < S::VEC_ITERS; k++) {
            int j = k * NT + threadIdx.x;
            if (S::VECS % NT == 0 || j < S::VECS)
                ((uint4 *)tile)[j] = r[k];
        }
    } else {
#pragma unroll
        for (int k = 0; k < S::VT; k++) {
            int i = k * NT + threadIdx.x;
            tile[i] = (size_t)i < count ? in[i] : T(0);
        }
    }
    __syncthreads();
    // STUB: (void)in, (void)count, (void)vectors, (void)tile;
    // END SOLUTION
}

/* Outline 2: this thread's VT consecutive items tile[tid*VT ..] into v, which of
 * them it keeps (bit k of the returned mask: item k; only items below count) and,
 * in `kept`, how many. */
template <typename T, int VT>
static __device__ __forceinline__ uint32_t keep_flags(const T *tile, size_t count, uint32_t keep_pct, T (&v)[VT],
                                                      uint32_t &kept)
{
    // BEGIN SOLUTION (Step 3.6): for k < VT: v[k] = tile[tid*VT + k]; keep it when its index is below count and lab3_keep(select_bits(v[k]), keep_pct)
    uint32_t kept_mask = 0;
    kept = 0;
#pragma unroll
    for (int k = 0; k < VT; k++) {
        int i = threadIdx.x * VT + k;
        v[k] = tile[i];
        if ((size_t)i < count && lab3_keep(select_bits(v[k]), keep_pct)) {
            kept_mask |= 1u << k;
            kept++;
        }
    }
    return kept_mask;
    // STUB: (void)tile, (void)count, (void)keep_pct, (void)v;
    // STUB: kept = 0;
    // STUB: return 0;
    // END SOLUTION
}

/* Outline 5: put the kept items of v, in order, at tile[rank], tile[rank + 1], ...
 * (rank: the thread's exclusive prefix of the kept counts). */
template <typename T, int VT>
static __device__ __forceinline__ void gather_kept(T *tile, const T (&v)[VT], uint32_t kept_mask, uint32_t rank)
{
    // BEGIN SOLUTION (Step 3.6): for each set bit k of kept_mask, in order: tile[rank++] = v[k]
#pragma unroll
    for (int k = 0; k < VT; k++)
        if (kept_mask >> k & 1u)
            tile[rank++] = v[k];
    // STUB: (void)tile, (void)v, (void)kept_mask, (void)rank;
    // END SOLUTION
}

/* The kernel (Step 3.6), one tile per block, in this order:
 *   1. t = status.take_tile(); load_tile(in + base, count, aligned && count == NV,
 *      tile): the tile's items into shared memory;
 *   2. keep_flags: each thread's VT items, which it keeps, how many;
 *   3. rank = lab3_block_exclusive_scan of the counts (aggregate: the tile's
 *      count). Its barriers also end every thread's reads of tile[]: from here on
 *      the tile may be overwritten, and once thread 0 has published A (step 4)
 *      later tiles may overwrite our input;
 *   4. warp 0: first = lab3_tile_lookback(status, t, aggregate, NULL), the kept
 *      items of all earlier tiles; thread 0 puts it in shared memory;
 *   5. gather_kept at the front of tile[] (all threads: the other warps need not
 *      wait for warp 0's look-back to gather); barrier; the block writes tile[0 ..
 *      aggregate) to out[first ..], coalesced. That barrier also carries what warp
 *      0 acquired in the look-back to every thread: no thread may store to out
 *      before it;
 *   6. the last tile (base + count == n) stores first + aggregate in *d_count.
 * Five barriers per tile: take_tile, end of load_tile, two in the block scan, after
 * gather_kept. in may equal out (in place): no __restrict__, no read-only-cache
 * (__ldg) loads. */
template <typename T>
__global__ void __launch_bounds__(NT) select_kernel(const T *in, T *out, size_t n, uint32_t keep_pct, bool aligned,
                                                    count_status status, unsigned long long *d_count)
{
    // BEGIN SOLUTION (Step 3.6): follow the outline above
    typedef tile_shape<T> S;
    __shared__ __align__(16) T tile[S::NV];
    __shared__ uint32_t warp_sums[NT / 32 + 1];
    __shared__ uint32_t tile_first;
    const unsigned int t = status.take_tile();
    const size_t base = (size_t)t * S::NV;
    const size_t count = kit_tile_items(n, S::NV, t);
    load_tile(in + base, count, aligned && count == (size_t)S::NV, tile);

    T v[S::VT];
    uint32_t kept;
    uint32_t kept_mask = keep_flags(tile, count, keep_pct, v, kept);
    uint32_t aggregate;
    uint32_t rank = lab3_block_exclusive_scan<NT>(kept, warp_sums, aggregate);

    if (threadIdx.x < 32) {
        uint32_t first = lab3_tile_lookback(status, t, aggregate, (unsigned long long *)NULL);
        if (threadIdx.x == 0)
            tile_first = first;
    }
    gather_kept(tile, v, kept_mask, rank);
    __syncthreads();
    const uint32_t first = tile_first;
    for (uint32_t j = threadIdx.x; j < aggregate; j += NT)
        out[(size_t)first + j] = tile[j];
    if (threadIdx.x == 0 && base + count == n) /* the last tile knows the total */
        *d_count = (unsigned long long)first + aggregate;
    // END SOLUTION
}

template <typename T>
static int select_if(const lab3_select_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 3.6): reset the COUNT statuses (count_status::reset: 8-byte entries for both item types); aligned = in is 16-byte aligned (the stores go item by item, out needs no alignment); one block of NT threads per tile
    size_t tiles = kit_div_up(io->n, tile_shape<T>::NV);
    if (int err = count_status::reset(io->ws, tiles, stream))
        return err;
    bool aligned = (uintptr_t)io->in % 16 == 0;
    select_kernel<T><<<tiles, NT, 0, stream>>>((const T *)io->in, (T *)io->out, io->n, io->keep_pct, aligned,
                                               count_status{ io->ws->status }, io->d_count);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io, (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab3_select_if(const lab3_select_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return KIT_CHECK(cudaMemsetAsync(io->d_count, 0, sizeof *io->d_count, stream));
    if (io->n > 0xffffffffull)
        return KIT_CHECK(cudaErrorInvalidValue); /* counts are 32-bit */
    return io->type == LAB3_I32 ? select_if<unsigned int>(io, stream) : select_if<unsigned long long>(io, stream);
}
