/* lab3_pipeline.cuh: the assembly line of Step 3.7, the parts that do not depend
 * on what the line computes. The pipelined scan (Step 3.7, v7_pipeline.cu) and
 * the pipelined compaction (Step 3.8, v8_select_pipeline.cu) both run persistent
 * blocks over a ring of tiles in shared memory, with
 *   - a loader warp that draws tickets and fills stages by bulk copies
 *     (fill_stage, load_tiles: you write them in Step 3.7), and
 *   - a look-back warp that waits until the tile's A is published, looks back and
 *     publishes P (look_back_tiles: Step 3.7);
 * what happens between landing and the look-back, and after it, is each step's
 * own. Below: the ring's barriers and their phases (use_parity), the two memory
 * paths into shared memory (fence_before_bulk_copies), the edges (fill_stage),
 * how the line stops (load_tiles).
 *
 * A ring (`Ring`, each step's shared-memory struct) has its pipeline_shape as
 * Ring::shape (tile and number of stages) and, per stage s: stage[s]
 * (the tile, 16-byte aligned), the barriers landed[s] (loader -> the station that
 * publishes A), summed[s] (that station -> look-back: A is published), ready[s]
 * (look-back -> the stations after it) and empty[s] (-> loader: refill), tile_of[s]
 * (the tile id; past the last tile: stop), aggregate[s] (what the tile publishes
 * as A) and tile_prefix[s] (the look-back's result).
 *
 * Why the line cannot deadlock: the loader waits only for `empty` of stages it
 * filled, and draws a ticket only when it can start the copy at once, so every
 * tile that has a ticket is loading or loaded; the station after it waits only
 * for `landed`, which the copies complete on their own. So every tile that has a
 * ticket gets its A (P for tile 0) without waiting on any other tile; a look-back,
 * which waits only for earlier tiles to leave X, always ends; the stations after
 * it wait only for the look-back, and the loader for them. No tile waits for a
 * later one: no cycle. */
#ifndef LAB3_PIPELINE_CUH
#define LAB3_PIPELINE_CUH

#include "kit_cuda.cuh"
#include "lab3_block_scan.cuh"
#include "lab3_lookback.cuh"
#include "lab3_tile_load.cuh"

#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda/ptx>

/* The worker threads of a pipeline's block (Step 3.7: consumers; Step 3.8:
 * flaggers). The tile's vectors and the ring's stages are each step's own
 * (pipeline_shape below), so that no station can take another step's. */
enum { NT = LAB3_TMA_NT };
static_assert(NT % 32 == 0 && NT >= LAB3_MIN_TILE, "whole warps, tiles no smaller than the workspace assumes");

/* A ring of type T: RING_STAGES tiles of NT worker threads x VT values, VT =
 * TILE_VECS 16-byte vectors. No defaults: Step 3.7 (scan_shape) and Step 3.8
 * (select_shape) each name theirs (lab3_shapes.h). */
template <typename T, int TILE_VECS, int RING_STAGES>
struct pipeline_shape {
    static_assert(TILE_VECS % 2 == 1, "odd VECS keeps the threads' 16-byte shared-memory accesses conflict-free");
    static_assert(RING_STAGES >= 2, "a ring needs a stage to load while another is worked on");
    static constexpr int STAGES = RING_STAGES;
    static constexpr int PER_VEC = 16 / sizeof(T); /* values in one 16-byte vector */
    static constexpr int VT = TILE_VECS * PER_VEC;
    static constexpr int NV = NT * VT;
    static constexpr int WARP_NV = 32 * VT; /* the part of a tile one worker warp owns */
    /* Blocks of this ring that fit an SM (the ring, 2 KB for its barriers, hand-over
     * fields and the 1 KB the system keeps per block): the kernel's __launch_bounds__,
     * so that registers do not limit it to fewer. The occupancy calculator, asked at
     * run time, has the last word (kit_resident_blocks). */
    static constexpr int RING_BYTES = RING_STAGES * NV * (int)sizeof(T);
    static constexpr int FIT = LAB3_ARCH.sm_shared_kb * 1024 / (RING_BYTES + 2048);
    static constexpr int BLOCKS_PER_SM = FIT > 0 ? FIT : 1;
    static_assert(NV >= LAB3_PIPE_MIN_NV, "no tile smaller than the workspace's status block allows for "
                                          "(lab3_workspace_status_bytes, lab3.h)");
};

/* The statuses of a pipeline: tagged with the launch's epoch (no memset before a
 * launch) and LAB3_PIPE_STATUS_SPACING bytes apart (lab3_shapes.h says why). */
template <typename V, lab3_order ORDER>
using lab3_pipeline_status = lab3_tile_status<V, ORDER, LAB3_EPOCHS, LAB3_PIPE_STATUS_SPACING>;

/* A stage's barrier (libcu++'s cuda::barrier, block scope, in shared memory).
 * Thread 0 sets each one up once, before the block's __syncthreads():
 * init(&bar, count), a free function found by argument lookup, count = the
 * arrivals that complete a phase (a warp whose 32 lanes arrive: 32). A thread
 * arrives with (void)bar.arrive() and waits with bar.wait_parity(parity); a bulk
 * copy into the stage (fill_stage) also tells it how many bytes to wait for. */
typedef cuda::barrier<cuda::thread_scope_block> stage_barrier;

/* The barriers and their phases. Each stage has four barriers, one per hand-over
 * around the ring (landed, summed, ready, empty). Slot j of a station's loop uses
 * stage j % STAGES for the u-th time, u = j / STAGES, and that use is phase u of
 * each of the stage's four barriers. A barrier only remembers the parity of its
 * phase, so a station waits for phase u by its parity u % 2: use_parity(j, STAGES
 * of ITS ring), then the barrier's wait_parity (on sm_90 mbarrier.try_wait, which
 * suspends the thread until the phase completes or a time limit passes). The
 * loader, before refilling a stage, waits for phase u - 1 of `empty` (the stage's
 * first use needs no wait). Parity is enough because no barrier can get two phases
 * ahead of the station that waits on it: phase u + 1 of any of the four needs the
 * stage to go once more round the ring, through that station's wait for phase u.
 * `stages` has no default: Steps 3.7 and 3.8 have rings of different depths, and a
 * parity computed with another ring's depth waits for the wrong phase. */
[[maybe_unused]] static __device__ __forceinline__ bool use_parity(unsigned int slot, int stages)
{
    return (slot / stages) % 2 != 0;
}

/* Two memory paths into shared memory. A bulk copy writes shared memory through
 * the "async proxy", not through the threads' loads and stores (the "generic
 * proxy"), and only a proxy fence orders the two. So every thread that reads or
 * writes a stage calls this after its last access, before its hand-over (the
 * stage is refilled by a bulk copy after the next one), and thread 0 after
 * initialising the barriers. sm_90 and later: older GPUs have no async proxy.
 * [[maybe_unused]]: the starter's stubs do not call it yet. */
[[maybe_unused]] static __device__ __forceinline__ void fence_before_bulk_copies()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
#endif
}

/* This worker thread's VT consecutive values of a stage, as 16-byte vectors. */
template <typename T, int VT>
static __device__ __forceinline__ void read_values(const T *stage, T (&v)[VT])
{
    constexpr int PER_VEC = 16 / sizeof(T), THREAD_VECS = VT / PER_VEC;
    const uint4 *mine = (const uint4 *)stage + threadIdx.x * THREAD_VECS;
#pragma unroll
    for (int j = 0; j < THREAD_VECS; j++) {
        uint4 vector = mine[j];
        memcpy(&v[j * PER_VEC], &vector, sizeof vector);
    }
}

/* The loader warp fills `stage` with tile t (which exists) and arrives on
 * `landed`. The whole 16-byte vectors of a 16-byte aligned `in` (all of a full
 * tile) come in ONE call made by all 32 lanes,
 *   cuda::memcpy_async(warp, stage, in + base, cuda::aligned_size_t<16>(bytes), landed)
 * where `warp` is the loader warp as a cooperative group,
 *   cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block())
 * (a cooperative_groups::thread_block_tile<32>), and libcu++ picks the copy the GPU
 * has: on sm_90 and later one lane issues ONE bulk copy of the whole tile
 * (cp.async.bulk: the Tensor Memory Accelerator, no registers) and tells `landed`
 * how many bytes to expect; on sm_80-89 the lanes issue 16-byte cp.async copies
 * that arrive on `landed` when done; on sm_75 they copy synchronously. Either way
 * `landed`'s phase completes when the 32 lanes have arrived AND every byte has
 * landed. The edges: a bulk copy needs 16-byte aligned addresses and a multiple of
 * 16 bytes. A full tile is a whole number of vectors, so with `in` aligned every
 * tile starts aligned; the lanes fill what the copy does not: the values of the
 * last tile that make no whole vector, 0 past the end, and every value of a
 * misaligned `in` (slow; the tests have a case). S: the ring's pipeline_shape. */
template <typename S, typename T>
static __device__ __forceinline__ void fill_stage(const T *in, size_t n, unsigned int t, bool in_aligned, T *stage,
                                                  stage_barrier &landed)
{
    // BEGIN SOLUTION (Step 3.7): count = kit_tile_items; bulk = whole vectors when in_aligned (else 0): cuda::memcpy_async(warp, stage, in + base, cuda::aligned_size_t<16>(bulk bytes), landed) with warp = the loader warp as a thread_block_tile<32> (above); lanes copy values bulk .. count (rounded up to a vector) and zero the vectors past it; fence_before_bulk_copies if they wrote; every lane arrives: (void)landed.arrive()
    const cooperative_groups::thread_block_tile<32> warp =
        cooperative_groups::tiled_partition<32>(cooperative_groups::this_thread_block());
    const size_t base = (size_t)t * S::NV;
    const int count = (int)kit_tile_items(n, S::NV, t);
    const int bulk = in_aligned ? count / S::PER_VEC * S::PER_VEC : 0; /* values in whole 16-byte vectors */
    if (bulk > 0)
        cuda::memcpy_async(warp, stage, in + base, cuda::aligned_size_t<16>((size_t)bulk * sizeof(T)), landed);
    if (bulk < S::NV) {
        const int lane = (int)warp.thread_rank();
        const int filled = (count + S::PER_VEC - 1) / S::PER_VEC * S::PER_VEC; /* then whole zero vectors */
        for (int i = bulk + lane; i < filled; i += 32)
            stage[i] = i < count ? in[base + i] : T(0);
        for (int j = filled / S::PER_VEC + lane; j < S::NV / S::PER_VEC; j += 32)
            ((uint4 *)stage)[j] = make_uint4(0, 0, 0, 0);
        fence_before_bulk_copies();
    }
    (void)landed.arrive();
    // STUB: (void)in, (void)n, (void)t, (void)in_aligned, (void)stage, (void)landed;
    // END SOLUTION
}

/* Lane 0 of the loader, having drawn ticket t: ask L2 for the tile that the blocks
 * will draw LAB3_PREFETCH_QUARTERS quarters of a round of tickets later (default:
 * half a round; kit_prefetch_l2, no shared memory needed). Its bytes then
 * travel from DRAM while the ring is full: more bytes in flight than the stages of
 * shared memory hold, and that tile's bulk copy should find them in L2. The caller
 * checks that `in` is 16-byte aligned; never the last tile (it may be partial) nor
 * past the end. */
template <typename S, typename T>
static __device__ __forceinline__ void prefetch_ahead(const T *in, size_t tiles, unsigned int t)
{
#if LAB3_PREFETCH_QUARTERS > 0 /* kit_prefetch_l2 itself does nothing before sm_90 */
    const size_t ahead = (size_t)t + (size_t)gridDim.x * LAB3_PREFETCH_QUARTERS / 4;
    if (ahead + 1 < tiles) /* a whole tile: the last one may be partial */
        kit_prefetch_l2(in + ahead * S::NV, (unsigned int)(S::NV * sizeof(T)));
#else
    (void)in, (void)tiles, (void)t;
#endif
}

/* The loader (one warp): for each stage in turn, wait until it is empty (its
 * previous tile stored), draw a ticket, start the copy (fill_stage). Drawing the
 * ticket only once the copy can start keeps a tile's X short. The tile id travels
 * beside the stage: lane 0 writes tile_of[s] before the lanes arrive on `landed`,
 * and every station reads it after its wait (arrivals release, waits acquire), and
 * the loader overwrites it only after `empty`, when all have read it. Stopping: the
 * loader draws until it gets a ticket past the last tile, puts that id beside the
 * stage and arrives on `landed` without a copy; each station passes it on and
 * stops. Later tickets would be larger still: no copy is left in flight, and no
 * station waits for a barrier that nobody will complete. */
template <typename T, typename Status, typename Ring>
static __device__ void load_tiles(const T *in, size_t n, bool in_aligned, Status status, Ring &sm)
{
    // BEGIN SOLUTION (Step 3.7): S = the ring's shape; slot = 0, 1, ...: s = slot % S::STAGES; from slot S::STAGES on, empty[s].wait_parity(use_parity(slot - S::STAGES, S::STAGES)); lane 0 draws the ticket (draw_ticket_rewinding: the launch's last draw sets the counter back to 0), writes tile_of[s] and, when in_aligned, prefetch_ahead<S>; __shfl_sync shares the ticket; a real tile: fill_stage<S>, past the last: landed[s].arrive() and return
    typedef typename Ring::shape S;
    const size_t tiles = kit_div_up(n, S::NV);
    const int lane = threadIdx.x % 32;
    for (unsigned int slot = 0;; slot++) {
        const int s = slot % S::STAGES;
        if (slot >= S::STAGES)
            sm.empty[s].wait_parity(use_parity(slot - S::STAGES, S::STAGES));
        unsigned int t = 0;
        if (lane == 0) {
            t = status.draw_ticket_rewinding(tiles);
            sm.tile_of[s] = t; /* before lane 0 arrives on landed[s], which passes it on */
            if (in_aligned)
                prefetch_ahead<S>(in, tiles, t);
        }
        t = __shfl_sync(KIT_FULL_MASK, t, 0);
        if (t >= tiles) { /* tell the stations to stop */
            (void)sm.landed[s].arrive();
            return;
        }
        fill_stage<S>(in, n, t, in_aligned, sm.stage[s], sm.landed[s]);
    }
    // STUB: (void)in, (void)n, (void)in_aligned, (void)status, (void)sm;
    // END SOLUTION
}

/* The look-back (one warp): for each stage in turn, once A is published, find the
 * tile's exclusive prefix (Step 3.5's lab3_lookback_window, which also counts
 * --stats), publish P and leave the prefix beside the stage. */
template <typename Status, typename Ring>
static __device__ void look_back_tiles(size_t tiles, Status status, unsigned long long *stats, Ring &sm)
{
    typedef typename Status::value_type V;
    // BEGIN SOLUTION (Step 3.7): slot = 0, 1, ...: s = slot % STAGES of the ring (Ring::shape::STAGES); summed[s].wait_parity(use_parity(slot, that STAGES)); t = tile_of[s]; a real tile: before = 0 for tile 0, else lab3_lookback_window, __syncwarp() when Status::order is LAB3_ORDERED, and lane 0 set_inclusive(t, before + aggregate[s]); lane 0: tile_prefix[s] = before; all: ready[s].arrive(); past the last tile: return after arriving
    constexpr int RING_STAGES = Ring::shape::STAGES;
    const bool lane0 = threadIdx.x % 32 == 0;
    for (unsigned int slot = 0;; slot++) {
        const int s = slot % RING_STAGES;
        sm.summed[s].wait_parity(use_parity(slot, RING_STAGES));
        const unsigned int t = sm.tile_of[s];
        if (t < tiles) {
            V before = 0; /* tile 0: the station before has published its P */
            if (t > 0) {
                before = lab3_lookback_window(status, t, stats);
                if (Status::order == LAB3_ORDERED) /* every lane's acquires before lane 0's release (Step 3.6) */
                    __syncwarp();
                if (lane0)
                    status.set_inclusive(t, before + sm.aggregate[s]);
            }
            if (lane0)
                sm.tile_prefix[s] = before;
        }
        (void)sm.ready[s].arrive();
        if (t >= tiles)
            return;
    }
    // STUB: (void)tiles, (void)status, (void)stats, (void)sm;
    // END SOLUTION
}

#endif
