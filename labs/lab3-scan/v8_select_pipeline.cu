/* Step 3.8: stream compaction (select-if) on the assembly line of Step 3.7, still
 * in ONE pass and IN PLACE.
 *
 * Why Step 3.6 stays behind CUB on int64 items (lecture 3 has the counters): a
 * block of Step 3.6 holds one tile from its ticket to its last store, and for part
 * of that time it moves no data: the other warps, once they have gathered, wait at
 * a barrier while warp 0 looks back (ncu: 52-57% of the warps' time at a barrier,
 * most likely that one), and no load is in flight meanwhile. Step
 * 3.7 removed the same wait from the scan; here the same ring and the same loader
 * and look-back stations (lab3_pipeline.cuh) carry a compaction:
 *
 *   loader (1 warp)       draws a ticket, fills a stage by a bulk copy (Step 3.7);
 *   flaggers (NT threads) each thread tests its VT items (lab3_keep), the warp
 *                         scans the counts and packs its kept items, in order, at
 *                         the front of its own part of the stage; the last warp to
 *                         finish publishes the tile's count (A, or P for tile 0)
 *                         at once (flag_tiles);
 *   look-back (1 warp)    Step 3.7's station; its P is a release store (below);
 *   writers (2 warps)     once the tile's prefix is known, copy the packed parts
 *                         to out, each writer half of the tile (write_tiles).
 *
 * Why the flaggers and not an aggregator warp publish A: a tile's count needs the
 * keep test of every item, the expensive part of a compaction (a 64-bit hash per
 * item here): one warp could not keep up with the loads (Step 3.7's aggregator only
 * adds). So the flaggers do the test once, keep the result (the packed parts), and
 * publish as soon as the last of them has counted. Which one is last? Each warp
 * adds (1ull << 32) + its count to the stage's 64-bit tally in shared memory with
 * one atomic; the warp that sees FLAG_WARPS - 1 finished warps before it is last,
 * and the old value's low 32 bits plus its own count is the tile's count. No barrier, so no warp
 * waits for another.
 * Why separate writers: the flaggers never wait for a look-back. If they also
 * stored, a block's next tile would get its A only after this tile's look-back,
 * and the look-backs of the tiles after it would chain on that (Step 3.7's first
 * design, lecture 3).
 *
 * In place, and what it costs. Step 3.6 makes every status a release store and
 * every status read an acquire load, so that a tile's writes come after the reads
 * of every tile it overwrites. On this pipeline that was slow (H100, 12 KB tiles,
 * x CUB at 2^24 / 2^28, plots/data/lab3_select_pipe_tune_h100.csv runs 1-2):
 * int32 1.00-1.01 / 1.05-1.06, int64 0.84-0.85 / 0.85-0.86. With every status
 * relaxed (a diagnostic: not correct in place) 1.19 / 1.29 and 1.02 / 1.05; with
 * only A relaxed 1.14 / 1.24 and 0.90 / 0.90. A release is a fence before the
 * store (MEMBAR.GPU, then ERRBAR: lab3_ncu_select_pipe64_ordered_h100.txt), and
 * the last flagger's fence held back every A, on which the look-backs of later
 * tiles wait. Yet a tile
 * overwrites very little: its kept items go to out[first .. first + kept), first
 * = the kept items of all tiles before it, and kept <= one tile's items, so the
 * values it overwrites belong to at most two tiles: u = first / NV and
 * (first + kept - 1) / NV, both <= t, since no tile keeps more than it read (and
 * at keep 50%, about t / 2: read long ago). So (LAB3_P_RELEASED):
 *   - A and the look-back's reads are relaxed: the counts travel as in the scans;
 *   - P is a release store, made after the tile has landed: by the look-back
 *     warp (loader -> flaggers -> look-back, through the barriers), or for tile
 *     0 by the last flagger;
 *   - before it stores, each writer waits for the P of the (at most two) tiles
 *     it overwrites, other than its own, with acquire loads (wait_inclusive):
 *     off the path that publishes A and P (without this wait, a diagnostic, it
 *     was at most 4% faster). Its own tile's input is in the stage, read before
 *     the writers start (the barriers).
 * No deadlock: a tile waits only for tiles before it, and their P never waits for
 * a writer (a ticket is drawn only when its copy can start, Step 3.7).
 *
 * The tile: Step 3.7's NT threads, but LAB3_SELECT_PIPE_VECS = 5 vectors each
 * (20 KB, lab3_shapes.h, as Step 3.7's tile now), in a ring of 3 stages for int32: 60 KB
 * of tiles (61.7 KB with what lies beside them), so 3 blocks per SM; 4 stages for
 * int64 where they fit (below). Against 12 KB x 5 the 20 KB tile gained
 * 6-10 points of CUB's speed for int64 and 0-8 for int32 (both GPUs, 3 stages,
 * the tune files).
 * Measured as shipped (epochs, int64 in 4 stages; plots/data/lab3_epochs_h100.csv,
 * lab3_epochs.csv, two rounds, x CUB at 2^24 / 2^28): int32 1.19 / 1.30 on an
 * H100, 1.21 / 1.32 on an H200; int64 1.05-1.07 / 1.08 and 1.00-1.02 / 1.01. With
 * the loader's L2 prefetch but a memset before every launch and 3 stages for
 * both types (goals_prefetch_h100.csv, goals_prefetch_h200.csv): int32 1.16 / 1.30
 * and 1.15-1.16 / 1.32; int64 1.02-1.03 / 1.06 and 0.98-0.99 / 0.995-0.997.
 * Before the prefetch (goals_h100.csv,
 * goals_h200.csv): int32 1.14-1.15 / 1.24 and 1.20 / 1.29, int64 0.96 / 0.98 and
 * 0.92-0.94 / 0.95. What limited int64 then (ncu on the H100, before the prefetch,
 * plots/data/lab3_ncu_select_pipe64_h100.txt), which the prefetch answers by
 * putting more bytes in flight through L2 than the 3 stages hold: the DRAM ran
 * at 58% of its peak against CUB's 62%, the flaggers waited for their tile to
 * land in 27% of the sampled warp time and the loader for an empty stage in 5%:
 * a tile holds its stage from its load to its last store, so the 3 stages of a
 * block are rarely all loading. A fourth stage of 20 KB left room for only 2
 * blocks per SM and did not pay then (0.93 / 0.95 on the H200); with no ordering
 * at all (the diagnostic) int64 reached 0.97-0.99. With the prefetch and the
 * epochs it pays for int64 (above). */
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

/* The ring (dynamic shared memory, as in Step 3.7): each stage with its barriers
 * and what the stations hand on with it. */
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
    // TODO(Step 3.8): slot = 0, 1, ...: landed[s].wait_parity(use_parity(slot, S::STAGES)); t = tile_of[s]; a real tile: read_values, keep mask and count (index < count && lab3_keep((uint64_t)v, keep_pct)), warp scan of the counts, __syncwarp, kept values to part[rank ..], fence_before_bulk_copies; lane 0: warp_kept[s][warp], atomicAdd(&tally[s], (1ull << 32) + warp count); the last warp: tally[s] = 0, aggregate[s], set_inclusive (t == 0) or set_aggregate; all: summed[s].arrive(); past the last tile: return after arriving (about 48 lines)
    (void)n, (void)keep_pct, (void)status, (void)sm;
}

/* In place: before tile t stores its `kept` items at out[first ..], wait until the
 * tiles whose input they overwrite, other than t, have read it: their P, acquired
 * by every lane of the writer (the header). */
template <typename T>
static __device__ __forceinline__ void wait_overwritten_tiles(count_status status, unsigned int t, uint32_t first,
                                                              uint32_t kept)
{
    // TODO(Step 3.8): nothing when kept == 0; else for u = first / NV and u = (first + kept - 1) / NV: if u < t, status.wait_inclusive(u) (about 8 lines)
    (void)status, (void)t, (void)first, (void)kept;
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
    // TODO(Step 3.8): slot = 0, 1, ...: ready[s].wait_parity(use_parity(slot, S::STAGES)); t = tile_of[s], return when past the last tile; wait_overwritten_tiles(status, t, tile_prefix[s], aggregate[s]); first = tile_prefix[s]; for each flagger part w: this writer's parts (w / (FLAG_WARPS / WRITER_WARPS) == writer) copy warp_kept[s][w] values from part w to out[first ..] (j = lane, lane + 32, ...); first += warp_kept[s][w]; last tile: writer 0's lane 0 stores first in *d_count; fence_before_bulk_copies; empty[s].arrive() (about 25 lines)
    (void)out, (void)n, (void)d_count, (void)status, (void)sm;
}

/* The kernel: thread 0 sets up the barriers and zeroes the tallies, then each warp
 * runs its station until the tickets run out. in may equal out (in place): no
 * __restrict__. */
template <typename T>
__global__ void __launch_bounds__(THREADS, select_shape<T>::BLOCKS_PER_SM)
    select_pipeline_kernel(const T *in, T *out, size_t n, uint32_t keep_pct, bool in_aligned,
                           count_status status, unsigned long long *d_count)
{
    // TODO(Step 3.8): thread 0 inits landed (32 arrivals), summed (NT), ready (32) and empty (WRITER_WARPS x 32) of every stage and zeroes tally[s], fence_before_bulk_copies; __syncthreads(); then by warp: flaggers flag_tiles, LOADER_WARP load_tiles, LOOKBACK_WARP look_back_tiles (no stats), the writers write_tiles (about 22 lines)
    (void)in, (void)out, (void)n, (void)keep_pct, (void)in_aligned, (void)status, (void)d_count;
}

template <typename T>
static int select_pipeline(const lab3_select_io *io, cudaStream_t stream)
{
    // TODO(Step 3.8): count statuses of a new epoch for this step's tiles (select_shape; count_status::begin_epoch); kit_resident_blocks(select_pipeline_kernel<T>, THREADS, sizeof(select_ring<T>), &resident, lab3_count_with_max_shared); grid = min(tiles, resident) of THREADS threads; in_aligned = in is 16-byte aligned (the stores go item by item) (about 14 lines)
    (void)io, (void)stream;
    return KIT_TODO;
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
