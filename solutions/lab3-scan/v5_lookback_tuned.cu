/* Step 3.5: decoupled look-back tuned for the copy limit.
 *
 * A memory-bound kernel runs at the copy rate only if enough bytes are in
 * flight on every SM at every moment (latency x bandwidth, tens of KB per SM).
 * Step 3.4 falls short because each block spends much of its life not loading:
 * waiting for its ticket, scanning, looking back. Three ideas (the lecture's
 * ablation measures their shares):
 *   1. loads that cost no registers: a full tile is copied from global straight
 *      into shared memory with asynchronous 16-byte copies (cp.async, through
 *      __pipeline_memcpy_async). Registers no longer grow with the tile, so tiles
 *      can be big (VT = 27 int32 / 13 int64 values per thread, 256 threads:
 *      ~27 KB) AND seven blocks fit on an sm_90 SM (228 KB of shared memory with
 *      the largest carveout; __launch_bounds__ from lab3_shapes.h). Each thread
 *      scans its VT consecutive values where they lie (odd VT: no bank
 *      conflicts), and the tile goes out as 16-byte stores;
 *   2. one look-back per ~27 KB instead of per ~9 KB, so the fixed costs per
 *      tile (ticket, barriers, look-back) weigh less;
 *   3. a warp-parallel look-back: lane l of warp 0 reads the status of tile
 *      t-1-l, the warp polls again while some lane sees X, finds the nearest P
 *      with __ballot_sync/__ffs and adds the lanes up to it with one warp sum; no
 *      P: the window slides 32 tiles back. One L2 round trip per 32 predecessors.
 * You write the look-back (lab3_lookback_window, lab3_tile_lookback in
 * lab3_lookback.cuh) and the 16-byte stores (lab3_store_tile_vectors,
 * lab3_tile_load.cuh) in this step; Steps 3.6-3.8 reuse them.
 * Still slow: the reset memset and the ticket per launch, and each tile's serial
 * phase (load latency, scan, look-back) in which its block moves no data; other
 * blocks on the SM cover it only in part.
 * Expect: level with CUB at 2^28 (about 0.74 of memcpy for int32) and a few
 * points behind it at 2^24 (lecture 3, Step 3.5's table). */
#include "lab3_block_scan.cuh"
#include "lab3_lookback.cuh"
#include "lab3_tile_load.cuh"

#include <cuda_pipeline.h>

enum { NT = LAB3_TUNED_NT };

/* The tile of type T: NT threads x VT values (VT from lab3_shapes.h, per type). */
template <typename T>
struct tile_shape {
    static constexpr int VT = sizeof(T) == 4 ? LAB3_TUNED_VT_I32 : LAB3_TUNED_VT_I64;
    static constexpr int NV = NT * VT;
    static constexpr int PER_VEC = 16 / sizeof(T); /* values in one 16-byte vector */
    static constexpr int VECS = NV / PER_VEC;
    static_assert(VT % 2 == 1, "odd VT keeps the transposed shared-memory accesses conflict-free");
    static_assert(NV % PER_VEC == 0, "a full tile must be a whole number of 16-byte vectors");
};

/* Global -> shared. `vectors` (the caller passes aligned && count == NV: a full tile
 * and 16-byte aligned buffers): 16-byte asynchronous copies that bypass registers,
 * all issued before waiting for any; the helper trusts `vectors` and does not test
 * count. Otherwise value by value, 0 past the end (count < NV). Ends with a
 * barrier. */
template <typename T>
static __device__ __forceinline__ void load_tile_async(const T *in, size_t count, bool vectors, T *tile)
{
    // BEGIN SOLUTION (Step 3.5): full and aligned: __pipeline_memcpy_async of 16-byte vectors j = tid, tid + NT, ..., commit, wait; else tile[i] = in[i] or 0; then __syncthreads
    typedef tile_shape<T> S;
    if (vectors) {
        const uint4 *src = (const uint4 *)in;
        for (int j = threadIdx.x; j < S::VECS; j += NT)
            __pipeline_memcpy_async((uint4 *)tile + j, src + j, sizeof(uint4));
        __pipeline_commit();
        __pipeline_wait_prior(0);
    } else {
        for (int i = threadIdx.x; i < S::NV; i += NT)
            tile[i] = (size_t)i < count ? in[i] : T(0);
    }
    __syncthreads();
    // STUB: (void)in, (void)count, (void)vectors, (void)tile;
    // END SOLUTION
}

/* The barrier plan (six per tile): (1) in take_tile, the tile id is shared;
 * (2) at the end of load_tile_async, the tile is in shared memory; (3, 4) in
 * lab3_block_exclusive_scan; (5) after the look-back, tile_prefix is known; (6)
 * after the in-place scan, before the block stores other threads' values. */
template <typename T>
__global__ void __launch_bounds__(NT, LAB3_ARCH.tuned_min_blocks) tuned_scan(const T *in, T *out, size_t n, int exclusive,
                                                                       bool aligned, lab3_tile_status<T> status,
                                                                       unsigned long long *stats)
{
    // BEGIN SOLUTION (Step 3.5): tile id; vectors = aligned && count == NV; load_tile_async; thread sums; block scan; warp 0 runs lab3_tile_lookback, thread 0 puts the prefix in shared memory; barrier; scan in shared memory; barrier; lab3_store_tile_vectors
    typedef tile_shape<T> S;
    __shared__ __align__(16) T tile[S::NV];
    __shared__ T warp_sums[NT / 32 + 1];
    __shared__ T tile_prefix;
    const unsigned int t = status.take_tile();
    const size_t base = (size_t)t * S::NV;
    const size_t count = kit_tile_items(n, S::NV, t);
    const bool vectors = aligned && count == (size_t)S::NV;
    load_tile_async(in + base, count, vectors, tile);

    /* Each thread owns the VT consecutive values tile[tid*VT .. tid*VT+VT-1]. */
    T *mine = tile + threadIdx.x * S::VT;
    T sum = 0;
#pragma unroll
    for (int k = 0; k < S::VT; k++)
        sum += mine[k];
    T aggregate;
    T prefix = lab3_block_exclusive_scan<NT>(sum, warp_sums, aggregate);

    if (threadIdx.x < 32) {
        T before = lab3_tile_lookback(status, t, aggregate, stats);
        if (threadIdx.x == 0)
            tile_prefix = before;
    }
    __syncthreads();

    /* Scan the thread's values in place (only this thread touches them). */
    T running = tile_prefix + prefix;
#pragma unroll
    for (int k = 0; k < S::VT; k++) {
        T x = mine[k];
        mine[k] = exclusive ? running : running + x;
        running += x;
    }
    __syncthreads();
    lab3_store_tile_vectors<NT, S::NV>(out + base, count, vectors, tile, threadIdx.x); /* lab3_tile_load.cuh */
    // END SOLUTION
}

template <typename T>
static int lookback_tuned(const lab3_scan_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 3.5): reset status; the largest carveout so that 7 blocks fit (kit_resident_blocks(tuned_scan<T>, NT, 0, &resident, lab3_count_with_max_shared) sets it, once per GPU); aligned = in and out both 16-byte aligned (tiles are whole 16-byte vectors, so the base pointers decide); launch one block per tile
    typedef tile_shape<T> S;
    size_t tiles = kit_div_up(io->n, S::NV);
    if (int err = lab3_tile_status<T>::reset(io->ws, tiles, stream))
        return err;
    int resident = 0; /* the count is not needed (one block per tile): the query sets the carveout, so 7 fit */
    if (int err = kit_resident_blocks(tuned_scan<T>, NT, 0, &resident, lab3_count_with_max_shared))
        return err;
    bool aligned = ((uintptr_t)io->in | (uintptr_t)io->out) % 16 == 0;
    tuned_scan<T><<<tiles, NT, 0, stream>>>((const T *)io->in, (T *)io->out, io->n, io->exclusive, aligned,
                                            lab3_tile_status<T>{ io->ws->status }, io->ws->stats);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io, (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab3_lookback_tuned(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    return io->type == LAB3_I32 ? lookback_tuned<unsigned int>(io, stream)
                                : lookback_tuned<unsigned long long>(io, stream);
}
