/* Step 3.7: the single-pass scan as an assembly line: persistent blocks whose
 * warps each do one job (load, sum, look back, scan) on a ring of tiles in shared
 * memory, the loads being bulk copies (TMA on sm_90).
 *
 * What it fixes: a block of Step 3.5 moves no data for a good part of its life: it
 * waits for its ticket, then for its tile (one DRAM latency), and has no load in
 * flight while it scans and looks back. Here loads are in flight all the time,
 * and no tile waits for its block. Five ideas (CUB's newest single-pass scan rests
 * on the same ones):
 *   1. persistent blocks: as many as fit at once (kit_resident_blocks), each
 *      looping over tickets until it draws one past the last tile; no memset per
 *      launch (the statuses carry the launch's epoch, lab3_tile.h);
 *   2. a ring of STAGES tiles in shared memory, each filled by one bulk copy
 *      (fill_stage; the ring's barriers and phases: lab3_pipeline.cuh);
 *   3. warp specialisation: a loader, an aggregator that publishes A as soon as a
 *      tile has landed, a look-back warp (Step 3.5's window, then P) and NT
 *      consumers that scan and store. A tile that holds a ticket never waits, as
 *      X, on anything but its own load (lecture 3, "The rule that makes it work");
 *   4. per-warp prefixes: the aggregator leaves beside the stage the sum of the
 *      consumer warps' parts before each, so a consumer warp needs only a warp
 *      scan, and no block-wide barrier;
 *   5. values in registers, tiles out through shared memory: a consumer reads its
 *      VECS 16-byte vectors once (VECS odd: no bank conflicts), scans them, writes
 *      them back, and its warp stores its own part with 16-byte stores.
 * Still slow: the look-back. It is busy nearly all the time, 2-3 window reads in a
 * row per tile, and a block finishes one tile per look-back: hence tiles of 20 KB,
 * more bytes per look-back. At 2^24 a block gets about a dozen tiles, so filling
 * and draining the ring weigh more.
 * Expect: about 0.87 of memcpy at 2^24 and 0.94 at 2^28, int32, well ahead of
 * Step 3.5 and CUB (lecture 3, Step 3.7's table). */
#include "lab3_pipeline.cuh"

/* Step 3.7's ring: VECS 16-byte vectors per consumer thread, STAGES tiles
 * (lab3_shapes.h: 20 KB tiles, 5 stages where an SM has 228 KB, 3 elsewhere). */
enum { VECS = LAB3_TMA_VECS, STAGES = LAB3_ARCH.pipe_stages };
template <typename T> using scan_shape = pipeline_shape<T, VECS, STAGES>;

/* The scan's statuses: the sums, relaxed, tagged with the launch's epoch (no
 * memset before a launch: lab3_tile.h). */
template <typename T> using scan_status = lab3_pipeline_status<T, LAB3_RELAXED>;

/* The block: NT consumer threads (warps 0 .. CONSUMER_WARPS - 1, so that thread
 * ranks within the consumers are threadIdx.x), then one warp per other station. */
enum {
    CONSUMER_WARPS = NT / 32,
    LOADER_WARP = CONSUMER_WARPS,
    AGGREGATOR_WARP = CONSUMER_WARPS + 1,
    LOOKBACK_WARP = CONSUMER_WARPS + 2,
    THREADS = NT + 3 * 32
};

/* The block's dynamic shared memory (STAGES tiles, 100 KB on sm_90: more than the
 * 48 KB a block gets without asking, so the launcher opts in). Beside each stage:
 * its four barriers and what the stations hand on with it. */
template <typename T>
struct pipeline_smem {
    typedef scan_shape<T> shape;            /* Step 3.7's tile and stages */
    T stage[STAGES][shape::NV];             /* first, so 16-byte aligned (bulk copies need it) */
    stage_barrier landed[STAGES];           /* loader -> aggregator: the tile is in the stage */
    stage_barrier summed[STAGES];           /* aggregator -> look-back: A is published */
    stage_barrier ready[STAGES];            /* look-back -> consumers: the tile's prefix is known */
    stage_barrier empty[STAGES];            /* consumers -> loader: the tile is stored, refill */
    unsigned int tile_of[STAGES];           /* the tile's id; past the last tile: stop */
    T aggregate[STAGES];                    /* the tile's sum (aggregator) */
    T warp_prefix[STAGES][CONSUMER_WARPS];  /* sum of the consumer warps' parts before each (aggregator) */
    T tile_prefix[STAGES];                  /* sum of all tiles before it (look-back) */
};

/* The sum of the values in a 16-byte vector. */
template <typename T>
static __device__ __forceinline__ T vector_sum(uint4 vector)
{
    T v[16 / sizeof(T)];
    memcpy(v, &vector, sizeof vector);
    T sum = 0;
#pragma unroll
    for (int i = 0; i < (int)(16 / sizeof(T)); i++)
        sum += v[i];
    return sum;
}

/* A consumer thread's VT values (read_values, lab3_pipeline.cuh) back to where they
 * came from (no other thread has read them since). */
template <typename T, int VT>
static __device__ __forceinline__ void write_values(T *stage, const T (&v)[VT])
{
    constexpr int PER_VEC = VT / VECS;
    uint4 *mine = (uint4 *)stage + threadIdx.x * VECS;
#pragma unroll
    for (int j = 0; j < VECS; j++) {
        uint4 vector;
        memcpy(&vector, &v[j * PER_VEC], sizeof vector);
        mine[j] = vector;
    }
}

/* The aggregator (one warp): for each stage in turn, wait until its tile has
 * landed, sum it (consumer warp w's part: vectors w * 32 * VECS + j * 32 + lane,
 * conflict-free), publish A at once (P for tile 0: nothing comes before it), and
 * leave the sum and the prefix of each consumer warp's part beside the stage.
 * Why a warp of its own? A loader that also summed would wait for an empty stage
 * while the next tile sat landed and unsummed, i.e. X; and a look-back warp that
 * also summed would hold A of its block's next tile until its current look-back
 * ends. Either way tiles would publish at the pace of the stations behind. */
template <typename T>
static __device__ void aggregate_tiles(size_t tiles, scan_status<T> status, pipeline_smem<T> &sm)
{
    // BEGIN SOLUTION (Step 3.7): slot = 0, 1, ...: landed[s].wait_parity(use_parity(slot, STAGES)); t = tile_of[s]; a real tile: each lane sums its vectors of every consumer warp's part, lab3_warp_sum per part, running prefix into warp_prefix[s][w]; lane 0: set_inclusive (t == 0) or set_aggregate, aggregate[s]; fence_before_bulk_copies; all: summed[s].arrive(); past the last tile: return after arriving
    const int lane = threadIdx.x % 32;
    for (unsigned int slot = 0;; slot++) {
        const int s = slot % STAGES;
        sm.landed[s].wait_parity(use_parity(slot, STAGES));
        const unsigned int t = sm.tile_of[s];
        if (t < tiles) {
            const uint4 *stage = (const uint4 *)sm.stage[s];
            T part[CONSUMER_WARPS]; /* all the reads first, then the warp sums */
#pragma unroll
            for (int w = 0; w < CONSUMER_WARPS; w++) {
                part[w] = 0;
#pragma unroll
                for (int j = 0; j < VECS; j++)
                    part[w] += vector_sum<T>(stage[(w * VECS + j) * 32 + lane]);
            }
            T running = 0;
#pragma unroll
            for (int w = 0; w < CONSUMER_WARPS; w++) {
                if (lane == 0)
                    sm.warp_prefix[s][w] = running;
                running += lab3_warp_sum(part[w]);
            }
            if (lane == 0) {
                if (t == 0)
                    status.set_inclusive(0, running);
                else
                    status.set_aggregate(t, running);
                sm.aggregate[s] = running;
            }
            fence_before_bulk_copies(); /* done with the stage; after publishing, which need not wait for it */
        }
        (void)sm.summed[s].arrive();
        if (t >= tiles)
            return;
    }
    // STUB: (void)tiles, (void)status, (void)sm;
    // END SOLUTION
}

/* The consumers (NT threads, each warp on its own): for each stage in turn, once
 * the tile's prefix is known, scan the thread's values in registers from tile
 * prefix + warp prefix + the warp scan of the thread sums, write them back, and the
 * warp stores its part; then the stage is empty. */
template <typename T>
static __device__ void scan_tiles(T *out, size_t n, int exclusive, bool out_aligned, pipeline_smem<T> &sm)
{
    // BEGIN SOLUTION (Step 3.7): slot = 0, 1, ...: ready[s].wait_parity(use_parity(slot, STAGES)); t = tile_of[s], return when past the last tile; read_values, thread sum, lab3_warp_inclusive_scan; lab3_thread_scan from tile_prefix[s] + warp_prefix[s][warp] + the warp's exclusive prefix; write_values; __syncwarp; lab3_store_tile_vectors<32, WARP_NV> of the warp's own part only (lane = rank); fence_before_bulk_copies; empty[s].arrive()
    typedef scan_shape<T> S;
    const size_t tiles = kit_div_up(n, S::NV);
    const int warp = threadIdx.x / 32;
    for (unsigned int slot = 0;; slot++) {
        const int s = slot % STAGES;
        sm.ready[s].wait_parity(use_parity(slot, STAGES));
        const unsigned int t = sm.tile_of[s];
        if (t >= tiles)
            return;

        T v[S::VT];
        read_values(sm.stage[s], v);
        T sum = 0;
#pragma unroll
        for (int i = 0; i < S::VT; i++)
            sum += v[i];
        const T inclusive = lab3_warp_inclusive_scan(sum);
        lab3_thread_scan(v, sm.tile_prefix[s] + sm.warp_prefix[s][warp] + inclusive - sum, exclusive);
        write_values(sm.stage[s], v);
        __syncwarp(); /* the warp stores values its other lanes wrote */

        /* The warp stores its own part (32 x VECS vectors) and nothing past it: on a
         * partial tile the other warps' parts may not be scanned yet (racecheck caught
         * a version that stored them). 16-byte stores when the whole TILE is full
         * (count == NV, so every warp's part is) and out is aligned; in the last,
         * partial tile every warp stores value by value. */
        const size_t count = kit_tile_items(n, S::NV, t);
        const long long first = (long long)warp * S::WARP_NV;           /* the warp's part of the tile */
        const long long in_part = (long long)count - first;              /* values of the tile from there on */
        const size_t mine = in_part <= 0 ? 0 : in_part < S::WARP_NV ? (size_t)in_part : S::WARP_NV;
        lab3_store_tile_vectors<32, S::WARP_NV>(out + (size_t)t * S::NV + first, mine,
                                                 out_aligned && count == (size_t)S::NV, sm.stage[s] + first,
                                                 threadIdx.x % 32);
        fence_before_bulk_copies(); /* done with this stage: the bulk copy that refills it comes after */
        (void)sm.empty[s].arrive();
    }
    // STUB: (void)out, (void)n, (void)exclusive, (void)out_aligned, (void)sm;
    // END SOLUTION
}

/* The kernel: thread 0 sets up the 4 x STAGES barriers (init(&barrier, arrivals),
 * lab3_pipeline.cuh), then each warp runs its station until the tickets run out.
 * The ring is the block's dynamic shared memory, declared as raw bytes and used
 * as a pipeline_smem (the sheet, Step 3.7, shows the three lines). */
template <typename T>
__global__ void __launch_bounds__(THREADS, scan_shape<T>::BLOCKS_PER_SM)
    pipeline_scan(const T *in, T *out, size_t n, int exclusive, bool in_aligned, bool out_aligned,
                  scan_status<T> status, unsigned long long *stats)
{
    // BEGIN SOLUTION (Step 3.7): the ring: extern __shared__ bytes, __align__(128), cast to pipeline_smem<T> &; thread 0 inits landed, summed, ready (32 arrivals each) and empty (NT) of every stage, fence_before_bulk_copies; __syncthreads(); then by warp: consumers scan_tiles, LOADER_WARP load_tiles, AGGREGATOR_WARP aggregate_tiles, LOOKBACK_WARP look_back_tiles
    extern __shared__ __align__(128) unsigned char smem_bytes[];
    pipeline_smem<T> &sm = *reinterpret_cast<pipeline_smem<T> *>(smem_bytes);
    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; s++) {
            init(&sm.landed[s], 32);
            init(&sm.summed[s], 32);
            init(&sm.ready[s], 32);
            init(&sm.empty[s], NT);
        }
        fence_before_bulk_copies(); /* the barriers' initialisation before the copies that complete them */
    }
    __syncthreads(); /* the only block-wide barrier: from here on each warp goes its own way */

    const int warp = threadIdx.x / 32;
    const size_t tiles = kit_div_up(n, scan_shape<T>::NV);
    if (warp < CONSUMER_WARPS)
        scan_tiles(out, n, exclusive, out_aligned, sm);
    else if (warp == LOADER_WARP)
        load_tiles(in, n, in_aligned, status, sm);
    else if (warp == AGGREGATOR_WARP)
        aggregate_tiles(tiles, status, sm);
    else if (warp == LOOKBACK_WARP)
        look_back_tiles(tiles, status, stats, sm);
    // STUB: (void)in, (void)out, (void)n, (void)exclusive, (void)in_aligned, (void)out_aligned, (void)status, (void)stats;
    // END SOLUTION
}

template <typename T>
static int launch_pipeline_scan(const lab3_scan_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 3.7): the status of a new epoch (scan_status<T>::begin_epoch: no memset); kit_resident_blocks(pipeline_scan<T>, THREADS, sizeof(pipeline_smem<T>), &resident, lab3_count_with_max_shared) (asked once per GPU); grid = min(tiles, resident blocks) of THREADS threads; in_aligned and out_aligned apart
    typedef scan_shape<T> S;
    const size_t tiles = kit_div_up(io->n, S::NV);
    scan_status<T> status;
    if (int err = scan_status<T>::begin_epoch(io->ws, tiles, stream, &status))
        return err;
    const size_t smem = sizeof(pipeline_smem<T>);
    int resident = 0; /* blocks of pipeline_scan<T> the GPU holds at once */
    if (int err = kit_resident_blocks(pipeline_scan<T>, THREADS, smem, &resident, lab3_count_with_max_shared))
        return err;
    const unsigned int grid = (unsigned int)(tiles < (size_t)resident ? tiles : (size_t)resident);
    const bool in_aligned = (uintptr_t)io->in % 16 == 0, out_aligned = (uintptr_t)io->out % 16 == 0;
    pipeline_scan<T><<<grid, THREADS, smem, stream>>>((const T *)io->in, (T *)io->out, io->n, io->exclusive,
                                                       in_aligned, out_aligned, status,
                                                       io->ws->stats);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io, (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab3_pipeline_scan(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    return io->type == LAB3_I32 ? launch_pipeline_scan<unsigned int>(io, stream)
                                : launch_pipeline_scan<unsigned long long>(io, stream);
}
