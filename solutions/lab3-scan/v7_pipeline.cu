/* Step 3.7: the single-pass scan as an assembly line: persistent blocks whose
 * warps each do one job (load, sum, look back, scan) on a ring of tiles in shared
 * memory, the loads being bulk copies (TMA on sm_90).
 *
 * Step 3.5 stays at 73-88% of the copy rate at 2^28 because a block moves no
 * data for a good part of its life: it waits for its ticket, then for its tile
 * (one DRAM latency with nothing else to do), and while it scans and looks back it
 * has no load in flight at all. Other blocks on the SM cover that only partly.
 * Here loads are in flight all the time, and no tile waits for its block. Five
 * ideas (CUB's newest single-pass scan is built on the same ones):
 *
 *   1. Persistent blocks. The grid is as many blocks as fit on the GPU at once
 *      (kit_resident_blocks); each block loops over tiles until the ticket runs
 *      past the last one. The ticket and the status entries are those of Steps
 *      3.3-3.5 (lab3_tile_status), but not their memset before every launch: the
 *      statuses carry the launch's epoch and the last draw rewinds the ticket
 *      (begin_epoch, draw_ticket_rewinding; lab3_tile.h). Launching a block and
 *      setting it up are paid once per block, not once per tile.
 *
 *   2. A ring of STAGES tiles in shared memory, filled by bulk copies. One call
 *      fills a stage: cuda::memcpy_async(warp, stage, in + base,
 *      cuda::aligned_size_t<16>(bytes), landed), made by the 32 threads of the
 *      loader warp. libcu++ picks the copy the GPU has:
 *        sm_90 and later: one thread issues ONE bulk asynchronous copy of the
 *          whole 20 KB tile (cp.async.bulk: the Tensor Memory Accelerator, no
 *          registers, no other thread involved) and tells the barrier how many
 *          bytes to expect (expect_tx); the copy counts its bytes in as they land;
 *        sm_80-89: the 32 threads issue 16-byte cp.async copies that arrive on the
 *          same barrier when they are done;
 *        sm_75: the 32 threads copy, synchronously (correct, no overlap).
 *      Then the 32 threads arrive on `landed`, whose phase completes when they
 *      all have AND every byte has landed.
 *
 *   3. Warp specialisation: publish a tile's aggregate as soon as it has landed.
 *      The first version of this step had every warp do everything: a block drew
 *      the ticket of a tile when it started loading it, STAGES - 1 tiles early,
 *      but published the tile's aggregate (flag A) only when its scan got there.
 *      In between the tile sat in the status array as X, and every later tile's
 *      look-back waited on it: the whole grid moved at the pace of the slowest
 *      block's backlog, and more stages made it slower (measured on an H100:
 *      0.24-0.29 of memcpy; at 2^28, 78 window polls per tile found X). So the block
 *      is cut into four stations, each a loop over the same ring of stages:
 *        loader (1 warp)      waits until a stage is empty, draws a ticket,
 *                             starts the copy of that tile (load_tiles);
 *        aggregator (1 warp)  waits until the stage has landed, sums the tile and
 *                             publishes A at once (P for tile 0) (aggregate_tiles);
 *        look-back (1 warp)   Step 3.5's look-back (lab3_lookback_window), then
 *                             publishes P (look_back_tiles);
 *        consumers (NT threads) scan the tile and store it (scan_tiles).
 *      A tile is X only from its ticket until it has landed and been summed: a
 *      DRAM latency, as in Step 3.5, whatever the stations behind it are doing.
 *      The look-back runs off the consumers' path: while it waits on L2 for tile
 *      t, the consumers scan tile t - 1 and the loader has the next ones loading.
 *      It reads about two windows of 32 per tile (each one L2 round trip; 45-69
 *      predecessors on average, --stats), but it rarely waits.
 *      Why separate warps for loading and summing? A warp that did both would wait
 *      for an empty stage to refill while the next tile sat landed and unsummed,
 *      i.e. X: tile publishing would again wait on the consumers. And summing and
 *      looking back in one warp would make A of a block's next tile wait on the
 *      look-back of its current one; where a block holds consecutive tickets (the
 *      start of a run) those waits chain from block to block.
 *
 *   4. Per-warp prefixes from the aggregator. The aggregator reads the tile anyway,
 *      so it sums it warp by warp: consumer warp w owns 32 x VECS consecutive
 *      16-byte vectors of the stage, and the aggregator leaves, beside the stage,
 *      the sum of the warps before w. A consumer warp then needs only a warp scan:
 *      no block-wide barrier at all (__syncthreads() would wait for the other
 *      stations too), and each consumer warp goes at its own pace.
 *
 *   5. Values in registers, tiles out through shared memory. Each consumer thread
 *      reads its VT consecutive values out of the stage once, as VECS 16-byte
 *      vectors (VECS odd: the 8 lanes one 16-byte access serves at once fall in 8
 *      different groups of 4 banks, Step 3.5's odd VT one level up), scans them in
 *      registers, writes them back where it read them, and its warp stores its part
 *      of the tile with coalesced 16-byte stores. Shared memory is written or read
 *      5 times per tile (copy, aggregator, consumers' read, write back, store).
 *      Why not bulk stores (cp.async.bulk shared -> global)? A store is fire and
 *      forget: no thread waits for it, so there is no latency to hide, only ~10
 *      instructions per thread and tile to save. A bulk store would cost a proxy
 *      fence before it, a wait on its bulk group before the stage is refilled, and
 *      a second path for the last tile and for older GPUs.
 *
 * The barriers and their phases. Each stage has four barriers, one per hand-over
 * around the ring: landed (loader -> aggregator; 32 arrivals + the copy's bytes),
 * summed (aggregator -> look-back; 32), ready (look-back -> consumers; 32) and
 * empty (consumers -> loader; NT). Slot j of a station's loop uses stage
 * j % STAGES for the u-th time, u = j / STAGES, and that use is phase u of each of
 * the stage's four barriers. A barrier only remembers the parity of its phase, so
 * a station waits for phase u by its parity u % 2 (use_parity, then the barrier's
 * wait_parity); the loader, before refilling a stage, waits for phase u - 1 of
 * `empty` (the stage's first use needs no wait). Parity is enough because no barrier can get two
 * phases ahead of the station that waits on it: phase u + 1 of any of the four
 * needs the stage to go once more round the ring, through the waiting station's
 * wait for phase u.
 * The tile id travels beside the stage: the loader writes tile_of[stage] before it
 * arrives on `landed`, and every station reads it after its wait; the arrivals
 * release and the waits acquire, so each station sees the id of this use, and the
 * loader overwrites it only after `empty`, when all have read it. Every station
 * takes the stages in the same order, so tiles are loaded, summed, looked back and
 * scanned in the order of their tickets.
 * Stopping: the loader draws tickets until one is past the last tile; it puts that
 * id beside the stage and arrives on `landed` without a copy, and each station
 * passes it on and stops. Later tickets would be larger still: no copy is left in
 * flight, and no station waits for a barrier that nobody will complete.
 *
 * Why it cannot deadlock. The loader waits only for `empty` of stages it filled,
 * and draws a ticket only when it can start the copy at once: every tile that has a
 * ticket is loading or loaded. The aggregator waits only for `landed`, which the
 * copies complete on their own (in order: a landed tile may wait behind an older
 * tile of its block, also loading). So every tile that has a ticket gets A (or P)
 * without waiting on any other tile, and a look-back, which waits only for tiles
 * before it to leave X, always ends. The consumers wait only for the look-back, and
 * the loader for the consumers. No tile depends on a later one: no cycle.
 *
 * The edges. A bulk copy needs 16-byte aligned addresses and a size that is a
 * multiple of 16. A full tile is NT x VECS x 16 bytes, so when `in` is 16-byte
 * aligned, every tile starts aligned: the whole 16-byte vectors of a tile come in
 * one bulk copy, and the loader's 32 threads fill the rest (the last tile's last
 * values, 0 past the end). A misaligned `in` is loaded value by value by the loader
 * warp (slow; the tests have a case). The stores: 16-byte when `out` is aligned and
 * the tile full, value by value otherwise. Indices are size_t (n may pass 2^31),
 * tile ids 32-bit (n < 2^32).
 *
 * Two memory paths into shared memory. A bulk copy writes shared memory through
 * the "async proxy", not through the threads' loads and stores (the "generic
 * proxy"); the two are ordered only by a proxy fence. So every thread that reads or
 * writes a stage executes fence.proxy.async after its last access (the stage is
 * refilled by a bulk copy after the next hand-over), and thread 0 after
 * initialising the barriers. sm_90 only: older GPUs have no async proxy.
 *
 * Defaults (lab3_shapes.h has the tile, the stages and the prefetch distance):
 *   - tiles of 256 consumer threads x 5 vectors = 20 KB; 352 threads per block (8
 *     consumer warps + 3). The look-back sets the pace: a block's look-back warp
 *     is busy for 94-95% of each tile's time and hardly ever waits for the station
 *     before it, so a block finishes one tile per look-back (2.5-2.7 us at 2^28 on
 *     an H200, plots/data/lab3_station_times_h200.csv), whatever the tile's size.
 *     Bigger tiles carry more bytes per look-back: 20 KB tiles in 2 blocks per SM
 *     beat 12 KB tiles in 3 by 2.5-4 points of memcpy on an H200
 *     (plots/data/lab3_tile_shape_h200.csv: int32 0.87 / 0.94 at 2^24 / 2^28
 *     against 0.84 / 0.90, int64 0.90-0.92 / 0.94-0.95 against 0.88 / 0.92);
 *   - 5 stages where an SM has 228 KB (sm_90, sm_100): 100 KB per block, 2 blocks
 *     per SM; 3 stages (60 KB) elsewhere, which fits the 64 KB a block may have on
 *     sm_75, the smallest limit the kit supports. 12 KB tiles in 8 stages with 2
 *     blocks per SM (fewer look-backs at once, each faster) lost 4-9 points against
 *     12 KB tiles in 3 blocks, 20 KB tiles in 3 stages with 3 blocks were within
 *     about a point of them (2-4 points below the shipped shape);
 *   - the registers: __launch_bounds__ from the blocks that fit
 *     (pipeline_shape::BLOCKS_PER_SM): 2 on sm_90, 78 (int64) and 80 (int32)
 *     registers per thread, no spill (12 KB tiles in 3 blocks: 56, 12 bytes
 *     spilled);
 *   - the first defaults came from a tuning run on an H100 with 12 KB tiles
 *     (plots/data/lab3_tma_tune_h100.csv: at 2^28 int32, 3 blocks x 5 stages of
 *     12 KB 0.93 of memcpy, 2 x 8 stages 0.96, 3 x 3 stages of 20 KB 0.91, tiles of
 *     4 KB 0.75); the 20 KB tiles have not run on an H100;
 *   - the loader's L2 prefetch half a round of tickets ahead (prefetch_ahead in
 *     lab3_pipeline.cuh, LAB3_PREFETCH_QUARTERS = 2): in L2, more bytes are in
 *     flight than the stages hold (plots/data/lab3_prefetch_tune_*.csv);
 *   - the statuses 64 bytes apart, not packed (LAB3_PIPE_STATUS_SPACING,
 *     lab3_shapes.h): on an H200 the look-back's reads of packed statuses slowed
 *     the ring (plots/data/lab3_status_spacing_h200.csv).
 * Measured with 12 KB tiles (plots/data/lab3_epochs_h100.csv, lab3_epochs.csv;
 * exclusive, 2^24 / 2^28, the slower of two rounds; statuses packed): int32 0.95
 * / 1.00 of memcpy on an H100, 0.83 / 0.89 on an H200; int64 0.99 / 1.00 and 0.88
 * / 0.91. Statuses 64 bytes apart, H200 only (lab3_status_spacing_h200.csv):
 * int32 0.83-0.85 / 0.90-0.91, int64 0.88-0.89 / 0.92. With the memset before
 * every launch (goals_prefetch_h100.csv, goals_prefetch_h200.csv): int32 0.93 /
 * 0.99 and 0.80 / 0.89, int64 0.97 / 0.99 and 0.86 / 0.90. Before the prefetch
 * (goals_h100.csv, goals_h200.csv): int32 0.87 / 0.93 and 0.75 / 0.85, int64 0.92
 * / 0.96 and 0.85 / 0.90. Against CUB's scan in the same goal runs with the
 * prefetch and the memset: 1.10x to 1.23x (1.05x to 1.15x before the prefetch;
 * lecture 3).
 * With 20 KB tiles (H200 only, lab3_tile_shape_h200.csv, four rounds in two runs):
 * int32 0.87 / 0.94, int64 0.90-0.92 / 0.94-0.95; with every prefix taken as 0 (no
 * look-back, a wrong scan timed only; lab3_tiles20_prefetch_ablation_h200.csv)
 * int32 0.91 / 0.97, int64 0.93 / 0.97.
 * What still limits it: the look-back, two to three window reads per tile (2.4
 * with 20 KB tiles at 2^28), one after the other, each one L2 round trip under
 * load (0.6-0.8 us), and one look-back at a time per block; at small n also the
 * start and the end of the run (at 2^24 int32 a block has about 12 tiles). Reading
 * two windows per poll made fewer reads, each slower, and the same look-back time;
 * two look-back warps per block were slower (lab3_lookback_two_windows_h200.csv,
 * lab3_lookback_warps_h200.csv). Its reads, not its waits, cost: one window read
 * per tile, waiting for nothing, costs as much (lab3_status_reads_h200.csv), which
 * is why the statuses are spaced out. */
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
 * leave the sum and the prefix of each consumer warp's part beside the stage. */
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
         * a version that stored them). */
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

/* The kernel: thread 0 sets up the 4 x STAGES barriers, then each warp runs its
 * station until the tickets run out. */
template <typename T>
__global__ void __launch_bounds__(THREADS, scan_shape<T>::BLOCKS_PER_SM)
    pipeline_scan(const T *in, T *out, size_t n, int exclusive, bool in_aligned, bool out_aligned,
                  scan_status<T> status, unsigned long long *stats)
{
    // BEGIN SOLUTION (Step 3.7): thread 0 inits landed, summed, ready (32 arrivals each) and empty (NT) of every stage, fence_before_bulk_copies; __syncthreads(); then by warp: consumers scan_tiles, LOADER_WARP load_tiles, AGGREGATOR_WARP aggregate_tiles, LOOKBACK_WARP look_back_tiles
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
