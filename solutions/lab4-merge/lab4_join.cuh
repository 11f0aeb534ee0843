/* lab4_join.cuh: the parts of a sort-merge join that both joins share, the
 * one of Step 4.4 (v4_join.cu: count, then a load-balanced expand) and the
 * fused one of Step 4.5 (v5_join_fused.cu: count and expand in one tile).
 *
 * Both start the same way: Merge Path tiles of A and B (SEARCH_NV keys each),
 * one block per tile, and in each tile
 *   1. the sorted search of step 4.2, once, A first: the lower bound of every A
 *      row in B and a match flag for every B row; an A row has a match when the
 *      B key at its lower bound is its own, and finds its upper bound from
 *      there (an exponential search over the tile's B keys, one read for a run
 *      of one key);
 *   2. the rows every table row produces (lab4_join_count) and their exclusive
 *      scan over the tile;
 *   3. a decoupled look-back (lab 3), run by a whole warp per running count,
 *      for the rows of all earlier tiles: rows with an A side (warp 0) and B
 *      rows kept alone (warp 1).
 * They differ in what they store next. */
#ifndef LAB4_JOIN_CUH
#define LAB4_JOIN_CUH
#include "kit_cuda.cuh"
#include "lab4.h"
#include "lab4_tile.cuh"

#include <cub/cub.cuh>
#include <cuda/atomic>

/* The search + count + scan tile is the sorted search's shape. */
enum { SEARCH_NT = LAB4_SEARCH_NT, SEARCH_VT = LAB4_SEARCH_VT, SEARCH_NV = SEARCH_NT * SEARCH_VT };
static_assert(SEARCH_NV >= LAB4_MIN_NV, "tiles smaller than the partition arrays allow");
static_assert(SEARCH_NT >= 96 && SEARCH_NT % 32 == 0, "the two look-backs run in warps 0 and 1, the prefetch in 2");

/* ---- one search + count + scan tile --------------------------------------------------- */

/* The tile's block scan: cub's warp-scans algorithm, whose storage is one
 * total per warp (96 bytes) where the default raking one keeps every thread's
 * value (2,336 bytes): Step 4.5 needs those bytes to fit 5 blocks an SM
 * (v5_join_fused.cu). */
typedef cub::BlockScan<int64_t, SEARCH_NT, cub::BLOCK_SCAN_WARP_SCANS> join_block_scan;

/* The tile's shared memory. Until the scan writes offset (SEARCH_NV int64_t),
 * its bytes hold two int32_t arrays of SEARCH_NV each, for join_count_tile:
 *   keys  = (int32_t *)s.offset: the tile's A keys at [0, tile_a), then its B
 *           keys at [tile_a, tile_n), as lab4_load_tile leaves them;
 *   lower_s = keys + SEARCH_NV (the second half): lower_s[i] = A item i's
 *           lower bound in B.
 * The scan overwrites both: read them for the last time before it, and keep
 * what the items need after it (their row counts) in registers. An A item's
 * slot of first holds its first match; the B items' slots hold the B items'
 * match flags, one byte each (join_b_matched): first's B slots are 4 bytes an
 * item, so a tile's B flags always fit in them, and no A item's first match is
 * ever written over them. (A separate array of flags would cost a byte an
 * item, 2,816 bytes a tile, which Step 4.5's chunk takes instead.) */
struct join_tile_shared {
    typename join_block_scan::TempStorage scan;
    int64_t offset[SEARCH_NV]; /* the rows of the tile's items before item i (exclusive scan) */
    int32_t first[SEARCH_NV];  /* A item: its first match in B, or -1; B items: their flags */
    int64_t tile, run_end, prefix[2];
};

/* The match flags of the tile's B items, in first's B slots (B item j, slot
 * a + j, at byte j from the first B slot): 1 when some A row has its key. */
static __device__ __forceinline__ uint8_t *join_b_matched(join_tile_shared &s, int a)
{
    return (uint8_t *)(s.first + a);
}
static __device__ __forceinline__ const uint8_t *join_b_matched(const join_tile_shared &s, int a)
{
    return (const uint8_t *)(s.first + a);
}

/* What a tile knows after join_count_tile. Items are the tile's A rows, then its
 * B rows (slots 0 .. a - 1, then a .. n - 1). */
struct join_tile {
    int64_t t;          /* the tile's number, from the ticket */
    lab4_merge_range r; /* its A and B intervals */
    int a, n;           /* A items, all items */
    int64_t rows;       /* the rows its items produce */
    int64_t a_rows;     /* of those, the rows with an A side (the A items' rows come first):
                           s.offset[a], or rows when the tile has no B item (slot a is
                           then not written) */
    bool one_row_each;  /* no A item produces more than one row (unique keys do not) */
};

/* Steps 1 and 2 of the file's header (the search; the rows and their scan),
 * in three steps, for the tile the ticket gives this block
 * (all SEARCH_NT threads call it; tile t owns the merge items of partitions[t] ..
 * [t + 1], A's first). Shared item slots as in search_tiles (v2): A item i at i,
 * B item j at tile_a + j.
 *   1. the ticket (thread 0: atomicAdd; not blockIdx, see join_look_back); the
 *      keys and the halo (as v2). Thread 0 also looks past the tile: when the
 *      tile's last A key equals the next B key, b[r.b_end], the B run of that
 *      key goes on beyond the tile, and the upper bound of every A item with
 *      that key is lab4_upper_bound_from(b, b_count, r.b_end, key), stored in
 *      s.run_end (-1 otherwise). Barrier.
 *   2. ONE sorted search (v2's, A first: upper = 0), each thread from its
 *      diagonal (lab4_tile_merge_path_search: int indices): the A items'
 *      lower bounds into lower_s (join_tile_shared), flags of the B items
 *      (join_b_matched) when the join keeps B rows. A bound's slot is
 *      tile-local (lower_s[i] for A item i) and its value a global index into
 *      B (a_base, b_base = r.a_begin, r.b_begin): s.first needs it global, and
 *      the tile's B key at it is keys[tile_a + lower_s[i] - r.b_begin] (when that
 *      is below tile_n). Neither B's bounds nor A's flags are stored
 *      (b_bound, a_match NULL): step 3 reads an A item's match where it looks
 *      for its upper bound anyway; nor B's flags for an inner or left join
 *      (b_match NULL too), whose B items produce no row.
 *      Barrier.
 *   3. rows: thread t owns the tile's items t*VT .. t*VT + VT - 1 (in slot order:
 *      stride VT, odd, so a warp's lanes hit different banks). An A item finds
 *      its upper bound where it stands: its B run, if any, starts at its lower
 *      bound, inside the tile or just past it. s.run_end is the upper bound of
 *      the key that continues past the tile (keys[i] == halo.b_next); any
 *      other A item has a match when the tile's B key at its lower bound is its
 *      key (one read, the flag the search did not store), and then
 *      lab4_tile_upper_bound_from on the tile's B keys from just past it
 *      (tile-local: lower_s[i] - r.b_begin + 1; add r.b_begin to the answer)
 *      finds the run's end (one more read when the run has one key).
 *      (This replaces a second, B-first search: its merge path search and walk
 *      cost as much as the first, for an answer most rows get in one read.)
 *      Each item's rows with lab4_join_count (A item: upper - lower matches; B
 *      item: its flag, 0 when the join keeps no B row); an A item's first
 *      match (lower, or -1 without matches) to s.first[i], over no B flag
 *      (join_tile_shared). Then the tile's exclusive scan of the rows
 *      (cub::BlockScan over the thread sums, then each thread its items) into
 *      s.offset[slot]. The scan writes over keys and lower_s, so each thread
 *      keeps its VT items' row counts in a register array (int32_t
 *      item_rows[SEARCH_VT], constant indices once unrolled) from the count to
 *      its own offsets. The barrier after it (__syncthreads_or) also tells
 *      whether any A item produces more than one row (tile.one_row_each).
 * Returns the tile, the same in every thread. */
static __device__ join_tile join_count_tile(const int32_t *__restrict__ a, int64_t a_count,
                                            const int32_t *__restrict__ b, int64_t b_count,
                                            const int64_t *__restrict__ partitions, int keep_a,
                                            int keep_b, unsigned int *ticket, join_tile_shared &s)
{
    join_tile tile;
    // BEGIN SOLUTION (Step 4.4): the three steps above: ticket; keys, halo and s.run_end; one A-first search (global lower bounds into lower_s; B's flags into join_b_matched when keep_b, else NULL); rows per item (A's match and upper bound from the tile's B keys) kept in registers, first matches, BlockScan into s.offset; fill in tile
    /* Steps 1-3 only: dead before s.offset is written. lower_s: A's lower bounds. */
    int32_t *keys = (int32_t *)s.offset, *lower_s = keys + SEARCH_NV;

    if (threadIdx.x == 0)
        s.tile = atomicAdd(ticket, 1u);
    __syncthreads();
    tile.t = s.tile;
    lab4_merge_range r = lab4_merge_tile_range(partitions, tile.t, SEARCH_NV, a_count, b_count);
    int64_t a0 = r.a_begin, b0 = r.b_begin;
    int tile_a = (int)(r.a_end - a0), tile_b = (int)(r.b_end - b0), tile_n = tile_a + tile_b;

    /* 1. keys, halo, and the one run that may continue past the tile */
    lab4_load_tile<SEARCH_NT, SEARCH_VT>(a + a0, tile_a, b + b0, tile_b, keys);
    lab4_halo halo = lab4_tile_halo(a, b, b_count, r);
    if (threadIdx.x == 0)
        s.run_end = halo.has_b_next && tile_a > 0 && a[r.a_end - 1] == halo.b_next
                        ? lab4_upper_bound_from(b, b_count, r.b_end, halo.b_next)
                        : -1;
    __syncthreads();

    /* 2. one search, A first: lower bounds, and the flags of the B items when the
     * join keeps B rows (only they read them; NULL: the search skips them) */
    uint8_t *b_matched = keep_b ? join_b_matched(s, tile_a) : NULL;
    int diag = min((int)threadIdx.x * SEARCH_VT, tile_n);
    int split = lab4_tile_merge_path_search(keys, tile_a, keys + tile_a, tile_b, diag, 0);
    lab4_serial_search(keys, tile_a, tile_b, split, diag - split, min(SEARCH_VT, tile_n - diag),
                       SEARCH_VT, 0, a0, b0, halo, lower_s, NULL, NULL, b_matched);
    __syncthreads();

    /* 3. rows of this thread's items (matches and upper bounds from the tile's B
     * keys), first matches, the tile's scan */
    const int32_t *b_keys = keys + tile_a;
    const int64_t run_end = s.run_end;
    int32_t item_rows[SEARCH_VT]; /* one item's rows: at most |B| < 2^31; their sums need 64 bits */
    int64_t thread_rows = 0;
    bool many_rows = false; /* an A item of this thread produces more than one row */
#pragma unroll
    for (int k = 0; k < SEARCH_VT; k++) {
        int i = (int)threadIdx.x * SEARCH_VT + k;
        int32_t c = 0;
        if (i < tile_a) {
            int64_t lower = lower_s[i], upper = lower;
            int32_t key = keys[i];
            int at = (int)(lower - b0); /* the tile's B key at the lower bound, if any */
            if (run_end >= 0 && key == halo.b_next)
                upper = run_end;
            else if (at < tile_b && b_keys[at] == key)
                upper = b0 + lab4_tile_upper_bound_from(b_keys, tile_b, at + 1, key);
            c = (int32_t)lab4_join_count(1, upper - lower, 0, keep_a, keep_b);
            s.first[i] = upper > lower ? (int32_t)lower : -1;
            many_rows |= c > 1;
        } else if (keep_b && i < tile_n)
            c = (int32_t)lab4_join_count(0, 0, b_matched[i - tile_a], keep_a, keep_b);
        item_rows[k] = c;
        thread_rows += c;
    }
    int64_t before;
    /* keys and lower_s (in s.offset's bytes) were read for the last time above: the
     * scan's own barrier (every warp's total is in shared memory before any
     * thread gets its result) ends steps 1-3 */
    join_block_scan(s.scan).ExclusiveSum(thread_rows, before, tile.rows);
#pragma unroll
    for (int k = 0; k < SEARCH_VT; k++) {
        int i = (int)threadIdx.x * SEARCH_VT + k;
        if (i < tile_n)
            s.offset[i] = before;
        before += item_rows[k];
    }
    tile.one_row_each = !__syncthreads_or(many_rows);
    tile.r = r;
    tile.a = tile_a;
    tile.n = tile_n;
    tile.a_rows = tile_a < tile_n ? s.offset[tile_a] : tile.rows;
    // STUB: (void)a; (void)a_count; (void)b; (void)b_count; (void)partitions; (void)keep_a;
    // STUB: (void)keep_b; (void)ticket; (void)s;
    // STUB: tile = join_tile{};
    // END SOLUTION
    return tile;
}

/* ---- the look-back ------------------------------------------------------------------ */

/* A look-back status word: the flag in the top two bits, the running count of
 * rows below (62 bits; a row count is at most |A| |B| <= 2^60), so that one
 * 64-bit load reads both and relaxed atomics suffice (lab 3, lab3_tile.h). */
#define LOOK_BACK_X 0ull /* nothing published yet */
#define LOOK_BACK_A 1ull /* the tile's own count (its aggregate) */
#define LOOK_BACK_P 2ull /* the count of the tile and all before it (its inclusive prefix) */
#define LOOK_BACK_VALUE ((1ull << 62) - 1)
typedef cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> status_ref;

/* The tile's rows in running count `chain`: 0, the rows with an A side; 1, the
 * kept B rows. */
static __device__ __forceinline__ int64_t join_chain_rows(const join_tile &tile, int chain)
{
    return chain == 0 ? tile.a_rows : tile.rows - tile.a_rows;
}

/* The running counts a join needs: a join that keeps no B row alone (inner,
 * left) has none in any tile, so it runs only count 0 (its second look-back
 * would only add zeros). */
static __device__ __forceinline__ int join_chains(int keep_b) { return keep_b ? 2 : 1; }

/* A tile publishes its aggregates as soon as its scan has them, before anything
 * else it does: the tiles after it can then get past it sooner. Thread 0 stores
 * A | join_chain_rows(tile, 0) in status_a[t] and, when the join keeps B rows,
 * thread 32 A | join_chain_rows(tile, 1) in status_b[t], relaxed (tile 0
 * stores nothing: it publishes its P at once). */
static __device__ void join_publish_aggregates(const join_tile &tile, int keep_b, unsigned long long *status_a,
                                               unsigned long long *status_b)
{
    if (tile.t == 0 || threadIdx.x % 32 != 0 || (int)threadIdx.x / 32 >= join_chains(keep_b))
        return;
    const int chain = (int)threadIdx.x / 32;
    status_ref((chain == 0 ? status_a : status_b)[tile.t])
        .store(LOOK_BACK_A << 62 | (unsigned long long)join_chain_rows(tile, chain), cuda::memory_order_relaxed);
}

/* One running count of the decoupled look-back (Merrill and Garland; lab 3,
 * Step 3.4), for tile t, called by all 32 lanes of one warp (a whole warp, not
 * one thread: the rest of the block waits at a barrier meanwhile, and a warp
 * reads 32 predecessors per round trip where a thread reads one). The tile's
 * aggregate (flag A) is already published (join_publish_aggregates). Window by
 * window from tile t - 1 down: lane l reads tile t - 1 - l (a tile
 * before 0 counts as P with value 0), the warp polls while any lane sees X
 * (__nanosleep between polls; __any_sync), finds the nearest lane with a P
 * (__ballot_sync, lowest set bit), adds the values of the lanes up to that one
 * (a __shfl_xor_sync sum: every lane gets it) and stops there, or adds all 32
 * and moves 32 tiles back. Lane 0 then publishes P = the sum + aggregate.
 * Returns the sum, in every lane: the rows of all tiles before t. The wait
 * ends: tiles take their numbers from a ticket in the order they start, so every
 * predecessor is already running and publishes its A before it looks back.
 * Loads and stores: status_ref(status[p]).load / .store with
 * cuda::memory_order_relaxed (flag and value are one word). */
static __device__ int64_t join_look_back(unsigned long long *status, int64_t t, int64_t aggregate)
{
    // BEGIN SOLUTION (Step 4.4): windows of 32 predecessors t-1-lane: poll while any lane sees X, ballot the P lanes, sum the values up to the nearest P (shuffles), stop there or go 32 back; lane 0 publishes P = sum + aggregate; return the sum
    const int lane = threadIdx.x % 32;
    int64_t before = 0;
    for (int64_t end = t; end > 0; end -= 32) {
        int64_t p = end - 1 - lane;
        unsigned long long word =
            p >= 0 ? status_ref(status[p]).load(cuda::memory_order_relaxed) : LOOK_BACK_P << 62;
        while (__any_sync(KIT_FULL_MASK, word >> 62 == LOOK_BACK_X)) {
            __nanosleep(64);
            if (word >> 62 == LOOK_BACK_X)
                word = status_ref(status[p]).load(cuda::memory_order_relaxed);
        }
        unsigned p_lanes = __ballot_sync(KIT_FULL_MASK, word >> 62 == LOOK_BACK_P);
        int nearest_p = p_lanes ? __ffs(p_lanes) - 1 : 31; /* lanes past it are not needed */
        int64_t value = lane <= nearest_p ? (int64_t)(word & LOOK_BACK_VALUE) : 0;
        for (int d = 16; d > 0; d /= 2)
            value += __shfl_xor_sync(KIT_FULL_MASK, value, d);
        before += value;
        if (p_lanes)
            break;
    }
    if (lane == 0)
        status_ref(status[t]).store(LOOK_BACK_P << 62 | (unsigned long long)(before + aggregate),
                                    cuda::memory_order_relaxed);
    return before;
    // STUB: (void)status; (void)t; (void)aggregate;
    // STUB: return 0;
    // END SOLUTION
}

/* Step 3 of the file's header (all threads call it, after
 * join_publish_aggregates): the rows of all tiles before this one, from A rows
 * (warp 0, on status_a) and, when the join keeps B rows, from kept B rows
 * (warp 1, on status_b; 0 otherwise: join_chains), into s.prefix[0] and
 * s.prefix[1], then a barrier. The last tile also writes the totals:
 * *a_rows_total (all rows with an A side) and *rows (all rows). */
static __device__ void join_rows_before(const join_tile &tile, int64_t tiles, int keep_b,
                                        unsigned long long *status_a, unsigned long long *status_b,
                                        int64_t *a_rows_total, int64_t *rows, join_tile_shared &s)
{
    // BEGIN SOLUTION (Step 4.4): warp w < join_chains(keep_b) runs join_look_back on its chain (aggregate: join_chain_rows), its lane 0 stores the sum in s.prefix[w] (0 for a chain not run); barrier; the last tile's thread 0 writes both totals
    const int warp = (int)threadIdx.x / 32;
    if (warp < join_chains(keep_b)) {
        int64_t rows_before = join_look_back(warp == 0 ? status_a : status_b, tile.t, join_chain_rows(tile, warp));
        if (threadIdx.x % 32 == 0)
            s.prefix[warp] = rows_before;
    } else if (threadIdx.x == 32)
        s.prefix[1] = 0;
    __syncthreads();
    if (tile.t == tiles - 1 && threadIdx.x == 0) {
        *a_rows_total = s.prefix[0] + tile.a_rows;
        *rows = s.prefix[0] + s.prefix[1] + tile.rows;
    }
    // STUB: (void)tile; (void)tiles; (void)keep_b; (void)status_a; (void)status_b; (void)a_rows_total;
    // STUB: (void)rows; (void)s;
    // END SOLUTION
}

/* ---- the keys of a later tile --------------------------------------------------------- */

/* Ask L2 for the keys in [begin, end): their 16-byte aligned part, in one
 * kit_prefetch_l2 (nothing on GPUs before sm_90). */
static __device__ __forceinline__ void join_prefetch_span(const int32_t *begin, const int32_t *end)
{
    uintptr_t first = ((uintptr_t)begin + 15) & ~(uintptr_t)15, last = (uintptr_t)end & ~(uintptr_t)15;
    if (last > first)
        kit_prefetch_l2((const void *)first, (unsigned int)(last - first));
}

/* While warp 0 (and warp 1 for right and outer joins) looks back
 * (join_rows_before), the block's other warps only wait: warp 2's lane 0 asks
 * L2 for the A and B keys of tile t + ahead (its bounds from the partitions,
 * which exist before the kernel starts).
 * Tickets go out in order, one per block that starts, so with `ahead` the
 * blocks resident on the GPU, tile t + ahead is drawn about when this block
 * ends, and its block's first loads then wait for L2, not for DRAM (the same
 * idea as lab 3's Step 3.7). Nothing past the last tile. It helps most with
 * unique keys (lab 4 notebook, section 4.7). */
static __device__ void join_prefetch_keys(const int32_t *a, int64_t a_count, const int32_t *b, int64_t b_count,
                                          const int64_t *partitions, int64_t tiles, int64_t t)
{
    if (threadIdx.x != 2 * 32 || t >= tiles) /* warp 2, lane 0 */
        return;
    lab4_merge_range r = lab4_merge_tile_range(partitions, t, SEARCH_NV, a_count, b_count);
    join_prefetch_span(a + r.a_begin, a + r.a_end);
    join_prefetch_span(b + r.b_begin, b + r.b_end);
}

/* The prefetch's distance for a kernel of SEARCH_NT threads: the blocks of it
 * resident on the GPU x LAB4_PREFETCH_QUARTERS / 4. Call it in every launcher
 * call: kit_resident_blocks asks the GPU the first time only (per GPU, for the
 * whole process) and answers from memory after. */
template <typename K> static int join_prefetch_ahead(K kernel, int64_t *ahead)
{
    int resident = 0, err = kit_resident_blocks(kernel, SEARCH_NT, 0, &resident);
    *ahead = (int64_t)resident * LAB4_PREFETCH_QUARTERS / 4;
    return err;
}

/* The tile's kept B rows (a right or outer join's B rows without partner), in
 * order, into b_rows: B item j (slot tile.a + j) at (kept B rows of earlier
 * tiles: s.prefix[1]) + s.offset[slot] - tile.a_rows. Coalesced, thread t takes
 * slots tile.a + t, + SEARCH_NT, ... */
static __device__ void join_store_b_items(const join_tile &tile, const join_tile_shared &s, int keep_a,
                                          int keep_b, int32_t *__restrict__ b_rows)
{
    if (!keep_b)
        return;
    const uint8_t *b_matched = join_b_matched(s, tile.a);
    for (int i = tile.a + (int)threadIdx.x; i < tile.n; i += SEARCH_NT)
        if (lab4_join_count(0, 0, b_matched[i - tile.a], keep_a, keep_b))
            b_rows[s.prefix[1] + s.offset[i] - tile.a_rows] = (int32_t)(tile.r.b_begin + i - tile.a);
}

/* Output row `row`: the pair lab4_join_row gives for object obj and rank
 * (lab4_search.h), stored to out_a[row] and out_b[row]. */
static __device__ __forceinline__ void join_store_row(int64_t obj, int64_t rank, int64_t a_count,
                                                      int32_t first_b, int64_t row, int32_t *__restrict__ out_a,
                                                      int32_t *__restrict__ out_b)
{
    int32_t a_index, b_index;
    lab4_join_row(obj, rank, a_count, first_b, &a_index, &b_index);
    out_a[row] = a_index;
    out_b[row] = b_index;
}

/* The kept B rows after all rows with an A side: b_rows[u] becomes output row
 * a_rows + u, (-1, b_rows[u]), for u < rows - a_rows. A grid-stride loop over
 * every thread of the grid. */
static __device__ void join_write_b_rows(const int32_t *__restrict__ b_rows, int64_t a_count, int64_t a_rows,
                                         int64_t rows, int32_t *__restrict__ out_a,
                                         int32_t *__restrict__ out_b)
{
    // BEGIN SOLUTION (Step 4.4): grid-stride over u; join_store_row(a_count + b_rows[u], 0, a_count, -1, a_rows + u, ...)
    for (int64_t u = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; u < rows - a_rows;
         u += (int64_t)gridDim.x * blockDim.x)
        join_store_row(a_count + b_rows[u], 0, a_count, -1, a_rows + u, out_a, out_b);
    // STUB: (void)b_rows; (void)a_count; (void)a_rows; (void)rows; (void)out_a; (void)out_b;
    // END SOLUTION
}

/* ---- Step 4.5's shared tiles ---------------------------------------------------------- */

/* A tile of Step 4.5 with many rows shares its chunks with other blocks: its
 * record (in ws.status, after the look-back's words). */
struct join_shared_tile {
    int64_t a_begin;       /* the tile's first A item */
    int64_t a_rows_before; /* rows with an A side before the tile: its output row 0 */
    int64_t a_rows;        /* the tile's rows with an A side */
    int32_t a;             /* the tile's A items */
    uint32_t next_claim;   /* claims (of a few chunks each) handed out so far (atomicAdd) */
    uint32_t ready;        /* 1 once the record and the tile's scan are in global memory */
};
static_assert(sizeof(join_shared_tile) == LAB4_SHARED_TILE_WORDS * sizeof(unsigned long long),
              "lab4_join_status_words counts LAB4_SHARED_TILE_WORDS words per record");

/* ---- host side ------------------------------------------------------------------------ */

/* The search tiles of a join of n keys. */
static inline int64_t join_search_tiles(int64_t n) { return (int64_t)kit_div_up((size_t)n, SEARCH_NV); }

/* The words in ws.status (lab4_join_status_words): the ticket, then one
 * look-back status word per search tile for each running count (rows with an A
 * side, kept B rows), then Step 4.5's shared tiles. */
struct join_status {
    unsigned int *ticket;
    unsigned long long *a, *b;
    unsigned int *share_count; /* Step 4.5: records in share_records */
    join_shared_tile *share_records;
};

/* Before the tile kernel (the launcher has checked the sizes with
 * join_sizes_fit): the search's tile boundaries (the merge's partition kernel,
 * A first on ties) and a clean slate for the look-back: the ticket and both
 * status words of every tile start at 0 (X) in every run, or the second run
 * would find the first run's prefixes (Step 4.5's shared tiles too: none, none
 * ready). Sets *status to the words' places. */
static inline int join_search_prepare(const lab4_io *io, int64_t tiles, join_status *status,
                                      cudaStream_t stream)
{
    status->ticket = (unsigned int *)io->ws.status;
    status->a = io->ws.status + 1;
    status->b = status->a + tiles;
    status->share_count = (unsigned int *)(status->b + tiles);
    status->share_records = (join_shared_tile *)(status->b + tiles + 1);
    int err = lab4_launch_merge_partitions(io->a, (int64_t)io->a_count, io->b, (int64_t)io->b_count,
                                           SEARCH_NV, 0, tiles, io->partitions, stream);
    if (err)
        return err;
    return KIT_CHECK(cudaMemsetAsync(io->ws.status, 0,
                                     lab4_join_status_words(io->a_count + io->b_count) * sizeof(unsigned long long),
                                     stream));
}

/* Whether the search's tiles + 1 partition boundaries and the look-back's
 * status words fit the scratch the caller gave (every launcher checks before
 * it launches anything, lab4.h). */
static inline bool join_sizes_fit(const lab4_io *io, int64_t tiles)
{
    return (size_t)tiles + 1 <= io->partition_capacity &&
           lab4_join_status_words(io->a_count + io->b_count) <= io->ws.status_words;
}

/* The join's flags: keep A rows without partner (left, outer), B rows (right, outer). */
static inline void join_keeps(const lab4_io *io, int *keep_a, int *keep_b)
{
    *keep_a = io->join == LAB4_LEFT || io->join == LAB4_OUTER;
    *keep_b = io->join == LAB4_RIGHT || io->join == LAB4_OUTER;
}

/* The capacity as the kernels compare it with the device's row count. */
static inline int64_t join_capacity(const lab4_io *io)
{
    return io->join_capacity < (size_t)INT64_MAX ? (int64_t)io->join_capacity : INT64_MAX;
}

/* The end of both launchers: the one copy of the row count to the host, after
 * everything is enqueued; wait for it, set *io->join_rows, and refuse a join of
 * more rows than join_capacity. */
static inline int join_finish(const lab4_io *io, cudaStream_t stream)
{
    const lab4_join_ws *ws = &io->ws;
    int err;
    if ((err = KIT_CHECK(cudaMemcpyAsync(ws->h_rows, ws->rows, sizeof(int64_t), cudaMemcpyDeviceToHost,
                                         stream))) ||
        (err = KIT_CHECK(cudaStreamSynchronize(stream))))
        return err;
    *io->join_rows = (size_t)*ws->h_rows;
    return *io->join_rows > io->join_capacity ? LAB4_ERR_JOIN_TOO_LARGE : 0;
}

#endif
