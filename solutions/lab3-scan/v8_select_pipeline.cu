/* Step 3.8: stream compaction (select-if) on the assembly line of Step 3.7, still
 * in ONE pass and IN PLACE.
 *
 * What it fixes: a block of Step 3.6 holds one tile from its ticket to its last
 * store, and its other warps, once they have gathered, wait at a barrier while
 * warp 0 looks back, with no load in flight (the profile: lecture 3's notebook).
 * Here Step 3.7's ring, loader and look-back (lab3_pipeline.cuh) carry a compaction:
 *   loader (1 warp)       draws a ticket, fills a stage by a bulk copy;
 *   flaggers (NT threads) test their items (lab3_keep, the expensive part: one
 *                         warp could not keep up), and each warp packs its kept
 *                         items, in order, at the front of its part of the stage;
 *                         the last warp to finish publishes the tile's count (A,
 *                         or P for tile 0) at once. Which is last: each warp adds
 *                         (1ull << 32) + its count to the stage's 64-bit tally
 *                         with one atomic, so no warp waits for another;
 *   look-back (1 warp)    Step 3.7's station; its P is a release store (below);
 *   writers (2 warps)     once the prefix is known, copy the packed parts to out.
 * Separate writers keep the flaggers from waiting on a look-back, which would hold
 * back their block's next A (Step 3.7's rule, which its first design broke).
 * In place, ordering only what must be ordered (LAB3_P_RELEASED): a release is a
 * fence before the store, and releasing A would hold A back from every look-back
 * waiting on it. A tile's kept items go to out[first .. first + kept), first = the
 * kept items of all earlier tiles, so they overwrite the input of at most two
 * tiles, first / NV and (first + kept - 1) / NV, neither after t. So A and the
 * look-back's reads are relaxed, P is released, and each writer first waits
 * (acquire, wait_inclusive) for the P of those tiles other than its own. No
 * deadlock: a tile waits only for earlier tiles, whose P never waits for a writer.
 * Still slow: int64 only draws level with CUB; int32 hashes twice the items per
 * byte, so its flaggers rather than its loads may set the pace.
 * Expect: at 2^24, keep 50%, about 1.2x CUB for int32 and 1.03x for int64
 * (lecture 3, Step 3.8's chart). */
#include "lab3_pipeline.cuh"

/* Step 3.8's ring: LAB3_SELECT_PIPE_VECS vectors per thread, stages per type
 * (lab3_shapes.h). */
template <typename T>
using select_shape = pipeline_shape<T, LAB3_SELECT_PIPE_VECS,
                                    sizeof(T) == 8 ? LAB3_SELECT_PIPE_STAGES_I64 : LAB3_SELECT_PIPE_STAGES_I32>;

/* Step 3.8's statuses: counts; A relaxed, P released (the header); epochs, as
 * Step 3.7's. */
typedef lab3_pipeline_status<uint32_t, LAB3_P_RELEASED> count_status;

/* The block: NT flagger threads (warps 0 .. FLAG_WARPS - 1, thread ranks =
 * threadIdx.x, as read_values expects), then the loader, the look-back and the
 * writers. */
enum {
    FLAG_WARPS = NT / 32,
    LOADER_WARP = FLAG_WARPS,
    LOOKBACK_WARP = FLAG_WARPS + 1,
    FIRST_WRITER_WARP = FLAG_WARPS + 2,
    WRITER_WARPS = 2,
    THREADS = NT + (2 + WRITER_WARPS) * 32
};
static_assert(FLAG_WARPS % WRITER_WARPS == 0, "each writer copies the same number of parts");

/* The ring, in the block's dynamic shared memory (declared as in Step 3.7: the
 * sheet's three lines): each stage with its barriers and what the stations hand
 * on with it. */
template <typename T>
struct select_ring {
    typedef select_shape<T> shape;
    static constexpr int STAGES = shape::STAGES;
    T stage[STAGES][shape::NV];             /* first, so 16-byte aligned (bulk copies need it) */
    stage_barrier landed[STAGES];           /* loader -> flaggers: the tile is in the stage */
    stage_barrier summed[STAGES];           /* flaggers -> look-back: the count is published */
    stage_barrier ready[STAGES];            /* look-back -> writers: the tile's prefix is known */
    stage_barrier empty[STAGES];            /* writers -> loader: the tile is stored, refill */
    unsigned int tile_of[STAGES];           /* the tile's id; past the last tile: stop */
    uint32_t aggregate[STAGES];             /* kept items of the tile (the last flagger) */
    uint32_t warp_kept[STAGES][FLAG_WARPS]; /* kept items of each flagger warp's part */
    uint32_t tile_prefix[STAGES];           /* kept items of all tiles before it (look-back) */
    unsigned long long tally[STAGES];       /* flagger warps done (high 32 bits), their kept items (low) */
};

/* The flaggers (NT threads, each warp on its own): for each stage in turn, once the
 * tile has landed, test this thread's VT items (only those below the tile's count),
 * pack the warp's kept items in order at the front of its part of the stage, and
 * add the warp to the tally; the last warp publishes the tile's count. */
template <typename T>
static __device__ void flag_tiles(size_t n, uint32_t keep_pct, count_status status, select_ring<T> &sm)
{
    // BEGIN SOLUTION (Step 3.8): slot = 0, 1, ...: landed[s].wait_parity(use_parity(slot, S::STAGES)); t = tile_of[s]; a real tile: read_values, keep mask and count (index < count && lab3_keep((uint64_t)v, keep_pct)), warp scan of the counts, __syncwarp, kept values to part[rank ..], fence_before_bulk_copies; lane 0: warp_kept[s][warp], atomicAdd(&tally[s], (1ull << 32) + warp count); the last warp: tally[s] = 0, aggregate[s], set_inclusive (t == 0) or set_aggregate; all: summed[s].arrive(); past the last tile: return after arriving
    typedef select_shape<T> S;
    const size_t tiles = kit_div_up(n, S::NV);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    for (unsigned int slot = 0;; slot++) {
        const int s = slot % S::STAGES;
        sm.landed[s].wait_parity(use_parity(slot, S::STAGES));
        const unsigned int t = sm.tile_of[s];
        if (t < tiles) {
            const size_t count = kit_tile_items(n, S::NV, t);
            T v[S::VT];
            read_values(sm.stage[s], v);
            uint32_t kept_mask = 0, kept = 0;
#pragma unroll
            for (int k = 0; k < S::VT; k++) {
                const size_t i = (size_t)threadIdx.x * S::VT + k;
                if (i < count && lab3_keep((uint64_t)v[k], keep_pct)) { /* zero-extended, as lab3_ref_select */
                    kept_mask |= 1u << k;
                    kept++;
                }
            }
            const uint32_t inclusive = lab3_warp_inclusive_scan(kept);
            const uint32_t warp_count = __shfl_sync(KIT_FULL_MASK, inclusive, 31);
            uint32_t rank = inclusive - kept;
            __syncwarp(); /* every lane has read its values before any is overwritten */
            T *part = sm.stage[s] + warp * S::WARP_NV;
#pragma unroll
            for (int k = 0; k < S::VT; k++)
                if (kept_mask >> k & 1u)
                    part[rank++] = v[k];
            fence_before_bulk_copies(); /* done with the stage: the next copy into it comes after */
            if (lane == 0) {
                sm.warp_kept[s][warp] = warp_count;
                const unsigned long long before = atomicAdd(&sm.tally[s], (1ull << 32) + warp_count);
                if (before >> 32 == FLAG_WARPS - 1) { /* the last flagger: the tile's count is known */
                    const uint32_t total = (uint32_t)before + warp_count;
                    sm.tally[s] = 0; /* for the stage's next tile */
                    sm.aggregate[s] = total;
                    if (t == 0)
                        status.set_inclusive(0, total);
                    else
                        status.set_aggregate(t, total);
                }
            }
        }
        (void)sm.summed[s].arrive();
        if (t >= tiles)
            return;
    }
    // STUB: (void)n, (void)keep_pct, (void)status, (void)sm;
    // END SOLUTION
}

/* In place: before tile t stores its `kept` items at out[first ..], wait until the
 * tiles whose input they overwrite, other than t, have read it: their P, acquired
 * by every lane of the writer (the header). */
template <typename T>
static __device__ __forceinline__ void wait_overwritten_tiles(count_status status, unsigned int t, uint32_t first,
                                                              uint32_t kept)
{
    // BEGIN SOLUTION (Step 3.8): nothing when kept == 0; else for u = first / NV and u = (first + kept - 1) / NV: if u < t, status.wait_inclusive(u)
    constexpr uint32_t NV = select_shape<T>::NV;
    if (kept == 0)
        return;
    const uint32_t lowest = first / NV, highest = (first + kept - 1) / NV; /* highest <= lowest + 1 */
    if (lowest < t)
        status.wait_inclusive(lowest);
    if (highest < t && highest != lowest)
        status.wait_inclusive(highest);
    // STUB: (void)status, (void)t, (void)first, (void)kept;
    // END SOLUTION
}

/* The writers (WRITER_WARPS warps): for each stage in turn, once the tile's prefix
 * is known and the tiles it overwrites have been read (wait_overwritten_tiles),
 * copy the packed parts to out, in order from out[tile_prefix]: writer k the k-th
 * run of FLAG_WARPS / WRITER_WARPS consecutive parts. The last tile's writer 0
 * stores the total in *d_count. Then the stage is empty. */
template <typename T>
static __device__ void write_tiles(T *out, size_t n, unsigned long long *d_count, count_status status,
                                   select_ring<T> &sm)
{
    // BEGIN SOLUTION (Step 3.8): slot = 0, 1, ...: ready[s].wait_parity(use_parity(slot, S::STAGES)); t = tile_of[s], return when past the last tile; wait_overwritten_tiles(status, t, tile_prefix[s], aggregate[s]); first = tile_prefix[s]; for each flagger part w: this writer's parts (w / (FLAG_WARPS / WRITER_WARPS) == writer) copy warp_kept[s][w] values from part w to out[first ..] (j = lane, lane + 32, ...); first += warp_kept[s][w]; last tile: writer 0's lane 0 stores first in *d_count; fence_before_bulk_copies; empty[s].arrive()
    typedef select_shape<T> S;
    const size_t tiles = kit_div_up(n, S::NV);
    const int writer = threadIdx.x / 32 - FIRST_WRITER_WARP, lane = threadIdx.x % 32;
    for (unsigned int slot = 0;; slot++) {
        const int s = slot % S::STAGES;
        sm.ready[s].wait_parity(use_parity(slot, S::STAGES));
        const unsigned int t = sm.tile_of[s];
        if (t >= tiles)
            return;
        wait_overwritten_tiles<T>(status, t, sm.tile_prefix[s], sm.aggregate[s]);
        size_t first = sm.tile_prefix[s]; /* where the next part's kept items go */
        for (int w = 0; w < FLAG_WARPS; w++) {
            const uint32_t kept = sm.warp_kept[s][w];
            if (w / (FLAG_WARPS / WRITER_WARPS) == writer) {
                const T *part = sm.stage[s] + w * S::WARP_NV;
                for (uint32_t j = lane; j < kept; j += 32)
                    out[first + j] = part[j];
            }
            first += kept;
        }
        if (writer == 0 && lane == 0 && t == tiles - 1) /* the last tile: first = the total */
            *d_count = first;
        fence_before_bulk_copies(); /* done with this stage: the bulk copy that refills it comes after */
        (void)sm.empty[s].arrive();
    }
    // STUB: (void)out, (void)n, (void)d_count, (void)status, (void)sm;
    // END SOLUTION
}

/* The kernel: thread 0 sets up the barriers and zeroes the tallies, then each warp
 * runs its station until the tickets run out. in may equal out (in place): no
 * __restrict__. */
template <typename T>
__global__ void __launch_bounds__(THREADS, select_shape<T>::BLOCKS_PER_SM)
    select_pipeline_kernel(const T *in, T *out, size_t n, uint32_t keep_pct, bool in_aligned,
                           count_status status, unsigned long long *d_count)
{
    // BEGIN SOLUTION (Step 3.8): the ring as in Step 3.7, cast to select_ring<T> &; thread 0 inits landed (32 arrivals), summed (NT), ready (32) and empty (WRITER_WARPS x 32) of every stage and zeroes tally[s], fence_before_bulk_copies; __syncthreads(); then by warp: flaggers flag_tiles, LOADER_WARP load_tiles, LOOKBACK_WARP look_back_tiles (no stats), the writers write_tiles
    extern __shared__ __align__(128) unsigned char smem_bytes[];
    select_ring<T> &sm = *reinterpret_cast<select_ring<T> *>(smem_bytes);
    if (threadIdx.x == 0) {
        for (int s = 0; s < select_ring<T>::STAGES; s++) {
            init(&sm.landed[s], 32);
            init(&sm.summed[s], NT);
            init(&sm.ready[s], 32);
            init(&sm.empty[s], WRITER_WARPS * 32);
            sm.tally[s] = 0;
        }
        fence_before_bulk_copies(); /* the barriers' initialisation before the copies that complete them */
    }
    __syncthreads(); /* the only block-wide barrier */

    const int warp = threadIdx.x / 32;
    if (warp < FLAG_WARPS)
        flag_tiles(n, keep_pct, status, sm);
    else if (warp == LOADER_WARP)
        load_tiles(in, n, in_aligned, status, sm);
    else if (warp == LOOKBACK_WARP)
        look_back_tiles(kit_div_up(n, select_shape<T>::NV), status, (unsigned long long *)NULL, sm);
    else
        write_tiles(out, n, d_count, status, sm);
    // STUB: (void)in, (void)out, (void)n, (void)keep_pct, (void)in_aligned, (void)status, (void)d_count;
    // END SOLUTION
}

template <typename T>
static int select_pipeline(const lab3_select_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 3.8): count statuses of a new epoch for this step's tiles (select_shape; count_status::begin_epoch); kit_resident_blocks(select_pipeline_kernel<T>, THREADS, sizeof(select_ring<T>), &resident, lab3_count_with_max_shared); grid = min(tiles, resident) of THREADS threads; in_aligned = in is 16-byte aligned (the stores go item by item)
    const size_t tiles = kit_div_up(io->n, select_shape<T>::NV);
    count_status status;
    if (int err = count_status::begin_epoch(io->ws, tiles, stream, &status))
        return err;
    const size_t smem = sizeof(select_ring<T>);
    int resident = 0; /* blocks of select_pipeline_kernel<T> the GPU holds at once */
    if (int err = kit_resident_blocks(select_pipeline_kernel<T>, THREADS, smem, &resident, lab3_count_with_max_shared))
        return err;
    const unsigned int grid = (unsigned int)(tiles < (size_t)resident ? tiles : (size_t)resident);
    const bool in_aligned = (uintptr_t)io->in % 16 == 0;
    select_pipeline_kernel<T><<<grid, THREADS, smem, stream>>>((const T *)io->in, (T *)io->out, io->n, io->keep_pct,
                                                                in_aligned, status,
                                                                io->d_count);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io, (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab3_select_pipeline(const lab3_select_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return KIT_CHECK(cudaMemsetAsync(io->d_count, 0, sizeof *io->d_count, stream));
    if (io->n > 0xffffffffull)
        return KIT_CHECK(cudaErrorInvalidValue); /* counts are 32-bit */
    return io->type == LAB3_I32 ? select_pipeline<unsigned int>(io, stream)
                                : select_pipeline<unsigned long long>(io, stream);
}
