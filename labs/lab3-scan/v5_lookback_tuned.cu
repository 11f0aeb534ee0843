/* Step 3.5: decoupled look-back tuned for the copy limit.
 *
 * A memory-bound kernel runs at the copy rate only if enough bytes are in
 * flight on every SM at every moment (latency x bandwidth, tens of KB per SM).
 * Step 3.4 falls short because each block spends much of its life not loading:
 * waiting for its ticket, scanning, looking back. This step bundles three ideas
 * (the lecture's ablation measures ideas 1 and 3 together and the share of the
 * tile size; its tuning table that of registers against shared memory):
 *   1. loads that cost no registers: a full tile is copied from global straight
 *      into shared memory with asynchronous 16-byte copies (cp.async, through
 *      __pipeline_memcpy_async). Registers no longer grow with the tile, so the
 *      tiles can be big (VT = 27 int32 / 13 int64 values per thread, 256
 *      threads: ~27 KB) AND seven blocks fit on an sm_90 SM (1792 threads, 228 KB
 *      of shared memory with the largest carveout): ~190 KB of tiles per SM,
 *      most of it in flight. Each thread then scans its VT consecutive values
 *      where they lie in shared memory (odd VT: the 32 lanes' reads at stride
 *      VT hit 32 different banks), and the tile goes out as 16-byte stores;
 *   2. one look-back per ~27 KB instead of per ~9 KB, so the fixed costs per
 *      tile (ticket, barriers, look-back) weigh less;
 *   3. a warp-parallel look-back: warp 0 reads the statuses of the 32 tiles
 *      before it at once (lane l reads tile t-1-l), polls again only while some
 *      lane still sees X, then finds the nearest P with __ballot_sync/__ffs and
 *      adds the values of the lanes up to and including it with one warp
 *      reduction. With no P in the window, it slides 32 tiles back and repeats.
 *      Each window costs one L2 round trip for 32 predecessors, so even a
 *      look-back of 59-137 tiles (--stats, on an H200) costs 2 to 5 round trips.
 * The status entries, ticket and per-launch reset are those of Steps 3.3-3.4
 * (lab3_tile_status). The look-back is lab3_lookback_window and its caller
 * lab3_tile_lookback, in lab3_lookback.cuh, and the 16-byte stores
 * (lab3_store_tile_vectors, lab3_tile_load.cuh): you write them in this step; select-if (Step 3.6)
 * runs the same look-back over counts, and Step 3.7 reuses all three.
 *
 * What remains: the reset memset and the ticket atomic per launch, and the
 * serial phase of each tile (scan + look-back) during which that block moves no
 * data; other blocks on the SM cover it only partly. Expect: close to CUB at
 * large n (on an H200 at 2^28: 0.99x of CUB for int32, 0.975x for int64; 73% and
 * 80% of memcpy), a few percent behind it at 2^24 (see the lecture). */
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
    // TODO(Step 3.5): full and aligned: __pipeline_memcpy_async of 16-byte vectors j = tid, tid + NT, ..., commit, wait; else tile[i] = in[i] or 0; then __syncthreads (about 12 lines)
    (void)in, (void)count, (void)vectors, (void)tile;
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
    // TODO(Step 3.5): tile id; vectors = aligned && count == NV; load_tile_async; thread sums; block scan; warp 0 runs lab3_tile_lookback, thread 0 puts the prefix in shared memory; barrier; scan in shared memory; barrier; lab3_store_tile_vectors (about 33 lines)
}

template <typename T>
static int lookback_tuned(const lab3_scan_io *io, cudaStream_t stream)
{
    // TODO(Step 3.5): reset status; the largest carveout so that 7 blocks fit (kit_resident_blocks(tuned_scan<T>, NT, 0, &resident, lab3_count_with_max_shared) sets it, once per GPU); aligned = in and out both 16-byte aligned (tiles are whole 16-byte vectors, so the base pointers decide); launch one block per tile (about 11 lines)
    (void)io, (void)stream;
    return KIT_TODO;
}

extern "C" int lab3_lookback_tuned(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    return io->type == LAB3_I32 ? lookback_tuned<unsigned int>(io, stream)
                                : lookback_tuned<unsigned long long>(io, stream);
}
