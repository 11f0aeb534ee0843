/* Step 4.4: sort-merge relational joins (inner, left, right, full outer).
 *
 * Two sorted tables A and B with duplicate keys. Rows with equal keys expand to
 * their outer product; an A row without partner gives (a, -1) in left and outer
 * joins, a B row without partner (-1, b) in right and outer joins. Output order:
 * A rows in order, each with its matches in B order, then the unmatched B rows.
 * Nothing new is needed, only the earlier steps composed, with as few passes over
 * memory as they allow:
 *   1. search, count and scan in ONE pass over the keys (join_search_scan): a
 *      Merge Path tile of A and B (step 4.1) runs the sorted search of step 4.2
 *      once on the keys in shared memory, A first: the lower bound of each A row
 *      and a match flag for each A and B row. An A row with a match finds its
 *      upper bound from there: its run of equal B keys starts at its lower bound,
 *      and an exponential search over the tile's B keys finds the run's end (one
 *      read for a run of one key). An A row then knows its matches B[lower,
 *      upper) and how many rows it produces (upper - lower, or 1 when it has
 *      none and the join keeps it); a B row produces 1 when it has none and the
 *      join keeps it. The tile scans those counts and learns what all earlier
 *      tiles produced with a decoupled look-back (lab 3, run by a whole warp
 *      per count): it writes offsets[i], the first output row of A row i,
 *      and appends its kept unmatched B rows to b_rows. The last tile writes the
 *      row count, on the device: nothing waits for the host;
 *   2. expand (join_partitions, join_expand): a load-balancing search (step 4.3)
 *      over the A rows' outputs + the A rows pairs every output row with its A
 *      row a and rank r: (a, first_b[a] + r), or (a, -1) when a has no match;
 *      the unmatched B rows follow as (-1, b). These kernels read the row count
 *      from device memory, and the launcher sizes them for the largest join that
 *      fits (join_capacity rows): a join with more rows writes nothing, and the
 *      host learns its row count at the very end, from the launcher's one copy.
 * Each expand tile gets a fixed number of inputs + outputs, so one key with a
 * huge outer product is spread over many tiles instead of stalling one thread.
 * Bytes moved, with n = |A| + |B| keys (|A| = n/2), R output rows, U of them
 * unmatched B rows: the keys once (4n), per A row its offset and first match
 * written and read back (24 n/2), per B row of U one index written and read
 * back (8U), the rows (8R): 16n + 8U + 8R, against the 4n + 8R the operation
 * needs. (The first version: two search passes, a count kernel, CUB's scan of
 * 64-bit counts over A's and B's rows, an expand over both, and a round trip to
 * the host for the row count in the middle: about 53n + 8R, and an idle GPU
 * while the host read the count.)
 * Expect: below a merge still (two partition kernels of dependent loads, a
 * tile that also scans and looks back, a copy of the count at the end); the
 * phases with ./lab4 --op join --phases. */
#include "kit_cuda.cuh"
#include "lab4.h"
#include "lab4_tile.cuh"

#include <cub/cub.cuh>
#include <cuda/atomic>

/* The search + scan tile is the sorted search's; the expand has its own. */
enum { SEARCH_NT = LAB4_SEARCH_NT, SEARCH_VT = LAB4_SEARCH_VT, SEARCH_NV = SEARCH_NT * SEARCH_VT };
enum { NT = LAB4_JOIN_NT, VT = LAB4_JOIN_VT, NV = NT * VT };
static_assert(NV >= LAB4_MIN_NV && SEARCH_NV >= LAB4_MIN_NV, "tiles smaller than the partition arrays allow");
static_assert(SEARCH_NT >= 64 && SEARCH_NT % 32 == 0, "the two look-backs run in warps 0 and 1");

/* ---- 1. search, count and scan ------------------------------------------------------ */

/* The search's tile boundaries (A first on ties, like lab4_merge_partitions), and
 * a clean slate for the look-back: in every run the ticket counter and both status
 * words of every tile start at 0 (X). Without that the second run would find the
 * first run's prefixes. One thread per boundary t = 0 .. tiles. */
__global__ void join_search_partitions(const int32_t *a, int64_t a_count, const int32_t *b,
                                       int64_t b_count, int64_t tiles, int64_t *partitions,
                                       unsigned int *ticket, unsigned long long *status_a,
                                       unsigned long long *status_b)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t > tiles)
        return;
    partitions[t] = lab4_merge_path_search(a, a_count, b, b_count,
                                           lab4_tile_diag(t, SEARCH_NV, a_count + b_count), 0);
    if (t < tiles) {
        status_a[t] = 0;
        status_b[t] = 0;
    }
    if (t == 0)
        *ticket = 0;
}

/* A look-back status word: the flag in the top two bits, the running count of
 * rows below (62 bits; a row count is at most |A| |B| <= 2^60), so that one
 * 64-bit load reads both and relaxed atomics suffice (lab 3, lab3_tile.h). */
#define LOOK_BACK_X 0ull /* nothing published yet */
#define LOOK_BACK_A 1ull /* the tile's own count (its aggregate) */
#define LOOK_BACK_P 2ull /* the count of the tile and all before it (its inclusive prefix) */
#define LOOK_BACK_VALUE ((1ull << 62) - 1)
typedef cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> status_ref;

/* One running count of the decoupled look-back (Merrill and Garland; lab 3,
 * Step 3.4), for tile t, called by all 32 lanes of one warp (a whole warp, not
 * one thread: the rest of the block waits at a barrier meanwhile, and a warp
 * reads 32 predecessors per round trip where a thread reads one). Lane 0
 * publishes the tile's aggregate (flag A; tile 0 publishes nothing yet). Then,
 * window by window from tile t - 1 down: lane l reads tile t - 1 - l (a tile
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
__device__ int64_t join_look_back(unsigned long long *status, int64_t t, int64_t aggregate)
{
    // BEGIN SOLUTION (Step 4.4): lane 0 publishes A (not tile 0); windows of 32 predecessors t-1-lane: poll while any lane sees X, ballot the P lanes, sum the values up to the nearest P (shuffles), stop there or go 32 back; lane 0 publishes P = sum + aggregate; return the sum
    const int lane = threadIdx.x % 32;
    if (lane == 0 && t > 0)
        status_ref(status[t]).store(LOOK_BACK_A << 62 | (unsigned long long)aggregate,
                                    cuda::memory_order_relaxed);
    int64_t before = 0;
    for (int64_t end = t; end > 0; end -= 32) {
        int64_t p = end - 1 - lane;
        unsigned long long word =
            p >= 0 ? status_ref(status[p]).load(cuda::memory_order_relaxed) : LOOK_BACK_P << 62;
        while (__any_sync(0xffffffffu, word >> 62 == LOOK_BACK_X)) {
            __nanosleep(64);
            if (word >> 62 == LOOK_BACK_X)
                word = status_ref(status[p]).load(cuda::memory_order_relaxed);
        }
        unsigned p_lanes = __ballot_sync(0xffffffffu, word >> 62 == LOOK_BACK_P);
        int nearest_p = p_lanes ? __ffs(p_lanes) - 1 : 31; /* lanes past it are not needed */
        int64_t value = lane <= nearest_p ? (int64_t)(word & LOOK_BACK_VALUE) : 0;
        for (int d = 16; d > 0; d /= 2)
            value += __shfl_xor_sync(0xffffffffu, value, d);
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

/* One search tile per block, numbered by the ticket (not blockIdx: see
 * join_look_back); tile t owns the merge items of partitions[t] .. [t + 1], A's
 * first. Shared item slots as in search_tiles (v2): A item i at i, B item j at
 * tile_a + j. The steps:
 *   1. load the keys and the halo (as v2). Thread 0 also looks past the tile: when
 *      the tile's last A key equals the next B key, b[r.b_end], the B run of that
 *      key goes on beyond the tile, and the upper bound of every A item with that
 *      key is lab4_upper_bound_from(b, b_count, r.b_end, key), stored in
 *      run_end_s (-1 otherwise). Barrier.
 *   2. ONE sorted search (v2's, A first: upper = 0), each thread from its
 *      diagonal: lower_s (A's lower bounds, global), matched_s (flags of A and B
 *      items). B's bounds are not needed: they go to scratch (first_s + tile_a).
 *      Barrier.
 *   3. rows: thread t owns the tile's items t*VT .. t*VT + VT - 1 (in slot order:
 *      stride VT, odd, so a warp's lanes hit different banks). An A item with a
 *      match finds its upper bound where it stands: its B run starts at its
 *      lower bound, inside the tile (the flag says b[lower] is its key) or just
 *      past it; lab4_upper_bound_from on the tile's B keys from lower + 1 finds
 *      the run's end (one read when the run has one key), and run_end_s replaces
 *      it for the key that continues past the tile (keys[i] == halo.b_next).
 *      (This replaces the second, B-first search: its merge path search and walk
 *      cost as much as the first, for an answer most rows get in one read.)
 *      Each item's rows with lab4_join_count (A item: upper - lower matches; B
 *      item: its flag); an A item's first match (lower, or -1 without matches)
 *      to first_s[i]: what the expand needs. Then the tile's exclusive scan of
 *      the rows (cub::BlockScan over the thread sums, then each thread its
 *      items) into offset_s[slot]. keys and lower_s live in offset_s's bytes:
 *      the scan's barrier comes after their last use. Barrier.
 *   4. look-back: the tile's rows from A items (offset_s[tile_a], or all its rows
 *      when it has no B item) and from kept B items run in two chains at the same
 *      time: warp 0 looks back on status_a, warp 1 on status_b; lane 0 of each
 *      puts the sum before the tile in prefix_s. Barrier.
 *   5. store, coalesced (thread t: slots t, t + NT, ...): offsets[a0 + i] =
 *      rows from A before the tile + offset_s[i] and first_b[a0 + i] =
 *      first_s[i] for A items; for a kept B item, its B index b0 + j into b_rows
 *      at (kept B rows before the tile) + offset_s[slot] - (the tile's rows from A).
 *      The last tile (t == tiles - 1) also writes offsets[a_count] (all rows from
 *      A) and *rows (all rows). */
__global__ void __launch_bounds__(SEARCH_NT)
join_search_scan(const int32_t *__restrict__ a, int64_t a_count, const int32_t *__restrict__ b,
                 int64_t b_count, const int64_t *__restrict__ partitions, int64_t tiles, int keep_a,
                 int keep_b, unsigned int *ticket, unsigned long long *status_a,
                 unsigned long long *status_b, int64_t *__restrict__ offsets,
                 int32_t *__restrict__ first_b, int32_t *__restrict__ b_rows, int64_t *rows)
{
    // BEGIN SOLUTION (Step 4.4): the five steps above: ticket; keys, halo and run_end_s; one A-first search (lower bounds, both flags); rows per item (upper bounds from the tile's B keys), first matches, BlockScan into offset_s; two warp look-backs; coalesced stores, and the last tile's offsets[a_count] and *rows
    typedef cub::BlockScan<int64_t, SEARCH_NT> tile_scan;
    __shared__ int64_t offset_s[SEARCH_NV];
    __shared__ int32_t first_s[SEARCH_NV]; /* A: first match or -1; B: the search's scratch */
    __shared__ uint8_t matched_s[SEARCH_NV];
    __shared__ typename tile_scan::TempStorage scan_s;
    __shared__ int64_t tile_s, run_end_s, prefix_s[2];
    /* Steps 1-3 only: dead before offset_s is written. lower_s: A's lower bounds. */
    int32_t *keys = (int32_t *)offset_s, *lower_s = keys + SEARCH_NV;

    if (threadIdx.x == 0)
        tile_s = atomicAdd(ticket, 1u);
    __syncthreads();
    const int64_t t = tile_s;
    lab4_merge_range r = lab4_merge_tile_range(partitions, t, SEARCH_NV, a_count, b_count);
    int64_t a0 = r.a_begin, b0 = r.b_begin;
    int tile_a = (int)(r.a_end - a0), tile_b = (int)(r.b_end - b0), tile_n = tile_a + tile_b;

    /* 1. keys, halo, and the one run that may continue past the tile */
    lab4_load_tile<SEARCH_NT, SEARCH_VT>(a + a0, tile_a, b + b0, tile_b, keys);
    lab4_halo halo = lab4_tile_halo(a, b, b_count, r);
    if (threadIdx.x == 0)
        run_end_s = halo.has_b_next && tile_a > 0 && a[r.a_end - 1] == halo.b_next
                        ? lab4_upper_bound_from(b, b_count, r.b_end, halo.b_next)
                        : -1;
    __syncthreads();

    /* 2. one search, A first: lower bounds, and the flags of A and B items */
    int diag = min((int)threadIdx.x * SEARCH_VT, tile_n);
    int split = (int)lab4_merge_path_search(keys, tile_a, keys + tile_a, tile_b, diag, 0);
    lab4_serial_search(keys, tile_a, tile_b, split, diag - split, min(SEARCH_VT, tile_n - diag),
                       SEARCH_VT, 0, a0, b0, halo, lower_s, first_s + tile_a, matched_s,
                       matched_s + tile_a);
    __syncthreads();

    /* 3. rows of this thread's items (upper bounds from the tile's B keys), first
     * matches, the tile's scan */
    const int64_t run_end = run_end_s;
    int32_t item_rows[SEARCH_VT]; /* one item's rows: at most |B| < 2^31; their sums need 64 bits */
    int64_t thread_rows = 0;
#pragma unroll
    for (int k = 0; k < SEARCH_VT; k++) {
        int i = (int)threadIdx.x * SEARCH_VT + k;
        int32_t c = 0;
        if (i < tile_a) {
            int64_t lower = lower_s[i], upper = lower;
            if (matched_s[i]) {
                int32_t key = keys[i];
                upper = run_end >= 0 && key == halo.b_next
                            ? run_end
                            : b0 + lab4_upper_bound_from(keys + tile_a, tile_b, lower - b0 + 1, key);
            }
            c = (int32_t)lab4_join_count(1, upper - lower, 0, keep_a, keep_b);
            first_s[i] = upper > lower ? (int32_t)lower : -1;
        } else if (i < tile_n)
            c = (int32_t)lab4_join_count(0, 0, matched_s[i], keep_a, keep_b);
        item_rows[k] = c;
        thread_rows += c;
    }
    int64_t before, tile_rows;
    tile_scan(scan_s).ExclusiveSum(thread_rows, before, tile_rows); /* its barriers end steps 1-3 */
#pragma unroll
    for (int k = 0; k < SEARCH_VT; k++) {
        int i = (int)threadIdx.x * SEARCH_VT + k;
        if (i < tile_n)
            offset_s[i] = before;
        before += item_rows[k];
    }
    __syncthreads();

    /* 4. the rows of all earlier tiles: from A rows (warp 0), and kept B rows (warp 1) */
    const int64_t tile_a_rows = tile_a < tile_n ? offset_s[tile_a] : tile_rows;
    const int warp = (int)threadIdx.x / 32;
    if (warp < 2) {
        int64_t rows_before = join_look_back(warp == 0 ? status_a : status_b, t,
                                             warp == 0 ? tile_a_rows : tile_rows - tile_a_rows);
        if (threadIdx.x % 32 == 0)
            prefix_s[warp] = rows_before;
    }
    __syncthreads();
    const int64_t a_rows_before = prefix_s[0], b_rows_before = prefix_s[1];

    /* 5. coalesced stores */
#pragma unroll
    for (int k = 0; k < SEARCH_VT; k++) {
        int i = (int)threadIdx.x + k * SEARCH_NT;
        if (i < tile_a) {
            offsets[a0 + i] = a_rows_before + offset_s[i];
            first_b[a0 + i] = first_s[i];
        } else if (i < tile_n && lab4_join_count(0, 0, matched_s[i], keep_a, keep_b))
            b_rows[b_rows_before + offset_s[i] - tile_a_rows] = (int32_t)(b0 + i - tile_a);
    }
    if (t == tiles - 1 && threadIdx.x == 0) {
        offsets[a_count] = a_rows_before + tile_a_rows;
        *rows = a_rows_before + b_rows_before + tile_rows;
    }
    // END SOLUTION
}

/* ---- 2. expand ---------------------------------------------------------------------- */

/* Expand tiles for a_rows outputs of a_count objects (the A rows): NV outputs +
 * objects each; none when there is no output (an empty tile writes nothing). */
__host__ __device__ inline int64_t expand_tiles(int64_t a_rows, int64_t a_count)
{
    return a_rows > 0 ? (a_rows + a_count + NV - 1) / NV : 0;
}

/* The expand's tile boundaries: lab4_lbs_partitions over the A rows (offsets has
 * a_count + 1 entries, offsets[a_count] = rows from A), for counts that only the
 * device knows. Every thread reads *rows and returns when the join does not fit
 * (rows > capacity: nothing is written), then takes boundaries t = its index,
 * + the grid's threads, ... up to expand_tiles(offsets[a_count], a_count): the grid
 * is sized for the largest join that fits, or smaller. */
__global__ void join_partitions(const int64_t *__restrict__ offsets, int64_t a_count,
                                const int64_t *__restrict__ rows, int64_t capacity,
                                int64_t *__restrict__ partitions)
{
    // BEGIN SOLUTION (Step 4.4): return if *rows > capacity; a grid-stride loop over the boundaries t <= tiles: lab4_lbs_path_search at lab4_tile_diag(t, NV, a_rows + a_count)
    if (*rows > capacity)
        return;
    int64_t a_rows = offsets[a_count], tiles = expand_tiles(a_rows, a_count);
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t <= tiles;
         t += (int64_t)gridDim.x * blockDim.x)
        partitions[t] = lab4_lbs_path_search(0, a_rows, offsets, a_count,
                                             lab4_tile_diag(t, NV, a_rows + a_count));
    // END SOLUTION
}

/* Output rows, from counts that only the device knows: return at once when the
 * join does not fit (*rows > capacity). Otherwise a persistent grid: block b
 * expands tiles b, b + gridDim.x, ... of the LBS over the A rows (a_rows =
 * offsets[a_count] outputs, a_count objects, expand_tiles of them), then all
 * threads of the grid copy the kept unmatched B rows, rows a_rows .. *rows - 1.
 * One tile, as in lbs_tiles (v3), plus the first match of each object staged
 * in shared memory with the same one-object shift as off_s:
 *   first_s[i] = first_b[obj_begin - 1 + i] for i = 0 .. obj_end - obj_begin
 *   inclusive, and -1 for object -1 (i = 0 when obj_begin == 0).
 * Stage it before calling lab4_tile_lbs: its barriers publish first_s too. Then
 * output k = out_begin + i of the tile, object o = obj_s[i], slot o - obj_begin + 1:
 * rank = k - off_s[slot], and lab4_join_row(o, rank, a_count, first_s[slot], ...).
 * A barrier ends each tile: the next one overwrites the shared arrays. A B row
 * b_rows[u] becomes output row a_rows + u: lab4_join_row(a_count + b_rows[u], 0,
 * a_count, -1, ...). Shared sizes: off_s NV + 1 int64, obj_s NV int32, first_s
 * NV + 1 int32. */
__global__ void __launch_bounds__(NT)
join_expand(const int64_t *__restrict__ offsets, const int32_t *__restrict__ first_b, int64_t a_count,
            const int32_t *__restrict__ b_rows, const int64_t *__restrict__ rows, int64_t capacity,
            const int64_t *__restrict__ partitions, int32_t *__restrict__ out_a,
            int32_t *__restrict__ out_b)
{
    // BEGIN SOLUTION (Step 4.4): return if *rows > capacity; for each of this block's tiles: stage first_s (above: -1 for object -1), lab4_tile_lbs, write each output's (a, b) pair coalesced, barrier; then the B rows, grid-stride
    __shared__ int64_t off_s[NV + 1];
    __shared__ int32_t obj_s[NV];
    /* first_s[o - obj_begin + 1] = first_b[o]: slot 0 for object obj_begin - 1,
     * which the tile's first outputs may continue (see lab4_tile_lbs). */
    __shared__ int32_t first_s[NV + 1];
    const int64_t all_rows = *rows;
    if (all_rows > capacity)
        return;
    const int64_t a_rows = offsets[a_count], tiles = expand_tiles(a_rows, a_count);
    for (int64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        lab4_lbs_range r = lab4_lbs_tile_range(partitions, tile, NV, a_rows, a_count);
        int tile_objs = (int)(r.obj_end - r.obj_begin);
        for (int i = threadIdx.x; i <= tile_objs; i += NT) {
            int64_t j = r.obj_begin - 1 + i;
            first_s[i] = j >= 0 ? first_b[j] : -1;
        }
        lab4_tile_lbs<NT, VT>(offsets, r, off_s, obj_s); /* its barriers publish first_s too */
        int tile_out = (int)(r.out_end - r.out_begin);
#pragma unroll
        for (int k = 0; k < VT; k++) {
            int i = threadIdx.x + k * NT;
            if (i < tile_out) {
                int64_t obj = obj_s[i];
                int slot = (int)(obj - r.obj_begin + 1);
                int32_t a_index, b_index;
                lab4_join_row(obj, r.out_begin + i - off_s[slot], a_count, first_s[slot], &a_index,
                              &b_index);
                out_a[r.out_begin + i] = a_index;
                out_b[r.out_begin + i] = b_index;
            }
        }
        __syncthreads(); /* the next tile overwrites off_s, obj_s and first_s */
    }
    for (int64_t u = (int64_t)blockIdx.x * NT + threadIdx.x; u < all_rows - a_rows;
         u += (int64_t)gridDim.x * NT) {
        int32_t a_index, b_index;
        lab4_join_row(a_count + b_rows[u], 0, a_count, -1, &a_index, &b_index);
        out_a[a_rows + u] = a_index;
        out_b[a_rows + u] = b_index;
    }
    // END SOLUTION
}

/* ---- the launcher ------------------------------------------------------------------- */

/* Record the event of a finished phase (0 search + count + scan, 1 the expand's
 * partitions, 2 expand) if the caller asked for it: see lab4_io.phase_events. */
static int record_phase(const lab4_io *io, int phase, cudaStream_t stream)
{
    return io->phase_events[phase] ? KIT_CHECK(cudaEventRecord(io->phase_events[phase], stream)) : 0;
}

/* The join launcher (see the file's header for the phases). The GPU runs them
 * back to back: nothing in between waits for the host. The row count stays on
 * the device (ws->rows) until the end, after the expand is enqueued: then the
 * launcher copies it to the host (ws->h_rows) once, waits for it, and writes
 * *io->join_rows = the true row count, on success and on LAB4_ERR_JOIN_TOO_LARGE
 * alike (lab4.h). A join of more than io->join_capacity rows returns that error;
 * its expand kernels found the count too big on the device and wrote nothing.
 * The launch sizes: the search has one block per tile; the expand's kernels are
 * sized for the largest join that fits, join_capacity rows, and capped at the
 * blocks resident on the GPU (they loop): partitions for that many tiles must fit
 * in io->partition_capacity (checked first, like every launcher: lab4.h). */
extern "C" int lab4_join(const lab4_io *io, cudaStream_t stream)
{
    int64_t a_count = (int64_t)io->a_count, b_count = (int64_t)io->b_count;
    int64_t n = a_count + b_count;
    int err;
    *io->join_rows = 0; /* until the row count is known: see above */
    if (n == 0) {
        for (int ph = 0; ph < 3; ph++)
            if ((err = record_phase(io, ph, stream)))
                return err;
        return 0;
    }
    // BEGIN SOLUTION (Step 4.4): check the partitions (search tiles, and the expand of join_capacity rows) and the status words; 1. join_search_partitions, join_search_scan, record_phase 0; 2. join_partitions, record_phase 1; 3. join_expand, record_phase 2; then copy ws->rows to ws->h_rows, wait, *io->join_rows = it, LAB4_ERR_JOIN_TOO_LARGE if > join_capacity
    const lab4_join_ws *ws = &io->ws;
    int keep_a = io->join == LAB4_LEFT || io->join == LAB4_OUTER;
    int keep_b = io->join == LAB4_RIGHT || io->join == LAB4_OUTER;
    /* the capacity as the kernels compare it (a larger one fails the partition check) */
    int64_t capacity = io->join_capacity < (size_t)INT64_MAX ? (int64_t)io->join_capacity : INT64_MAX;
    int64_t search_tiles = (int64_t)kit_div_up((size_t)n, SEARCH_NV);
    size_t most_expand_tiles = kit_div_up((size_t)capacity + (size_t)a_count, NV);
    if ((size_t)search_tiles + 1 > io->partition_capacity || most_expand_tiles + 1 > io->partition_capacity ||
        lab4_join_status_words((size_t)n) > ws->status_words)
        return KIT_CHECK(cudaErrorInvalidValue);
    static int partition_grid, expand_grid; /* resident blocks, asked once */
    if (!expand_grid && ((err = kit_resident_blocks(join_partitions, LAB4_PARTITION_NT, 0, &partition_grid)) ||
                         (err = kit_resident_blocks(join_expand, NT, 0, &expand_grid))))
        return err;

    /* 1. search, count and scan: one pass over the keys */
    unsigned int *ticket = (unsigned int *)ws->status;
    unsigned long long *status_a = ws->status + 1, *status_b = status_a + search_tiles;
    join_search_partitions<<<lab4_partition_blocks(search_tiles), LAB4_PARTITION_NT, 0, stream>>>(
        io->a, a_count, io->b, b_count, search_tiles, io->partitions, ticket, status_a, status_b);
    if ((err = KIT_LAUNCH_CHECK()))
        return err;
    join_search_scan<<<(unsigned)search_tiles, SEARCH_NT, 0, stream>>>(
        io->a, a_count, io->b, b_count, io->partitions, search_tiles, keep_a, keep_b, ticket, status_a,
        status_b, ws->offsets, ws->first_b, ws->b_rows, ws->rows);
    if ((err = KIT_LAUNCH_CHECK()) || (err = record_phase(io, 0, stream)))
        return err;

    /* 2. the expand's partitions and 3. the expand, for up to join_capacity rows */
    unsigned partition_blocks = lab4_partition_blocks((int64_t)most_expand_tiles);
    if (partition_blocks > (unsigned)partition_grid)
        partition_blocks = (unsigned)partition_grid;
    join_partitions<<<partition_blocks, LAB4_PARTITION_NT, 0, stream>>>(ws->offsets, a_count, ws->rows, capacity,
                                                                        io->partitions);
    if ((err = KIT_LAUNCH_CHECK()) || (err = record_phase(io, 1, stream)))
        return err;
    size_t expand_blocks = most_expand_tiles < (size_t)expand_grid ? most_expand_tiles : expand_grid;
    join_expand<<<(unsigned)(expand_blocks > 0 ? expand_blocks : 1), NT, 0, stream>>>(
        ws->offsets, ws->first_b, a_count, ws->b_rows, ws->rows, capacity, io->partitions, io->join_a,
        io->join_b);
    if ((err = KIT_LAUNCH_CHECK()) || (err = record_phase(io, 2, stream)))
        return err;

    /* The one copy to the host, after everything is enqueued (see above). */
    if ((err = KIT_CHECK(cudaMemcpyAsync(ws->h_rows, ws->rows, sizeof(int64_t), cudaMemcpyDeviceToHost,
                                         stream))) ||
        (err = KIT_CHECK(cudaStreamSynchronize(stream))))
        return err;
    *io->join_rows = (size_t)*ws->h_rows;
    return *io->join_rows > io->join_capacity ? LAB4_ERR_JOIN_TOO_LARGE : 0;
    // STUB: return KIT_TODO;
    // END SOLUTION
}
