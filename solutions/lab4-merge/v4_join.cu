/* Step 4.4: sort-merge relational joins (inner, left, right, full outer).
 *
 * Two sorted tables A and B with duplicate keys. Rows with equal keys expand to
 * their outer product; an A row without partner gives (a, -1) in left and outer
 * joins, a B row without partner (-1, b) in right and outer joins. Output order:
 * A rows in order, each with its matches in B order, then the unmatched B rows.
 * Nothing new is needed, only Steps 4.1-4.3 composed, with no trip to the host:
 *   1. search, count and scan in ONE pass over the keys (join_search_scan, the
 *      tile in lab4_join.cuh): a Merge Path tile runs Step 4.2's search once,
 *      A first; each A row gets its matches B[lower, upper) and its row count,
 *      the tile scans the counts and learns what earlier tiles produced with a
 *      decoupled look-back (lab 3). It writes offsets[i] (A row i's first output
 *      row), first_b[i], the kept unmatched B rows in order (b_rows), and from
 *      the last tile the row count, on the device;
 *   2. expand (join_partitions, join_expand): Step 4.3's load-balancing search
 *      over the A rows' outputs + the A rows pairs every output row with its A
 *      row a and rank r: (a, first_b[a] + r), or (a, -1); the kept B rows follow
 *      as (-1, b). Each expand tile gets a fixed number of inputs + outputs, so a
 *      key with a huge outer product is spread over many tiles. These kernels
 *      read the row count from device memory: the launcher sizes them for the
 *      largest join that fits (join_capacity rows), a bigger one writes nothing,
 *      and the host learns the count from one copy at the very end.
 * Bytes, for n = |A| + |B| keys (|A| = n/2), R output rows, U kept B rows: the
 * keys once (4n), 12 bytes per A row written and read back (offset, first
 * match: 12n), 8U for the list, 8R for the rows: 16n + 8U + 8R.
 * Still slow: the count tile does far more per key than a merge tile (gallops,
 * a 64-bit scan, the look-back) and is bound by its instructions; the 12 bytes
 * per A row only feed the expand (Step 4.5 removes them).
 * Expect: about a fifth of the copy for unique keys at 2^24 (lecture 4, Step
 * 4.4's table); ./lab4 --op join --phases times the phases. */
#include "lab4_join.cuh"

/* The search + scan tile is in lab4_join.cuh; the expand has its own. */
enum { NT = LAB4_JOIN_NT, VT = LAB4_JOIN_VT, NV = NT * VT };
static_assert(NV >= LAB4_MIN_NV, "tiles smaller than the partition arrays allow");

/* ---- 1. search, count and scan ------------------------------------------------------ */

/* One search tile per block, numbered by the ticket: join_count_tile (the
 * search, the rows and their scan: lab4_join.cuh), join_publish_aggregates,
 * join_prefetch_keys of tile t + prefetch_ahead (L2 fetches the keys of a tile
 * a block will draw later while this one looks back), join_rows_before (the two
 * look-backs, and the totals from the last tile), then the stores, coalesced
 * (thread t: slots t, t + NT, ...): offsets[a0 + i] = rows from A before the
 * tile + s.offset[i] and first_b[a0 + i] = s.first[i] for A items i, and the
 * kept B items with join_store_b_items. The last tile also writes
 * offsets[a_count] (all rows from A, through join_rows_before) and *rows. */
__global__ void __launch_bounds__(SEARCH_NT)
join_search_scan(const int32_t *__restrict__ a, int64_t a_count, const int32_t *__restrict__ b,
                 int64_t b_count, const int64_t *__restrict__ partitions, int64_t tiles, int keep_a,
                 int keep_b, int64_t prefetch_ahead, unsigned int *ticket, unsigned long long *status_a,
                 unsigned long long *status_b, int64_t *__restrict__ offsets,
                 int32_t *__restrict__ first_b, int32_t *__restrict__ b_rows, int64_t *rows)
{
    // BEGIN SOLUTION (Step 4.4): join_count_tile, join_publish_aggregates, join_prefetch_keys, join_rows_before (totals into offsets[a_count] and *rows); the A items' offsets and first matches, coalesced; join_store_b_items
    __shared__ join_tile_shared s;
    join_tile tile = join_count_tile(a, a_count, b, b_count, partitions, keep_a, keep_b, ticket, s);
    join_publish_aggregates(tile, keep_b, status_a, status_b);
    join_prefetch_keys(a, a_count, b, b_count, partitions, tiles, tile.t + prefetch_ahead);
    join_rows_before(tile, tiles, keep_b, status_a, status_b, offsets + a_count, rows, s);
    const int64_t a0 = tile.r.a_begin, a_rows_before = s.prefix[0];
    for (int i = (int)threadIdx.x; i < tile.a; i += SEARCH_NT) {
        offsets[a0 + i] = a_rows_before + s.offset[i];
        first_b[a0 + i] = s.first[i];
    }
    join_store_b_items(tile, s, keep_a, keep_b, b_rows);
    // STUB: (void)a; (void)a_count; (void)b; (void)b_count; (void)partitions; (void)tiles;
    // STUB: (void)keep_a; (void)keep_b; (void)prefetch_ahead; (void)ticket; (void)status_a; (void)status_b;
    // STUB: (void)offsets; (void)first_b; (void)b_rows; (void)rows;
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
 * A barrier ends each tile: the next one overwrites the shared arrays. Then the
 * kept B rows, after the rows with an A side (join_write_b_rows). Shared sizes: off_s NV + 1 int64, obj_s NV int32, first_s
 * NV + 1 int32. */
__global__ void __launch_bounds__(NT)
join_expand(const int64_t *__restrict__ offsets, const int32_t *__restrict__ first_b, int64_t a_count,
            const int32_t *__restrict__ b_rows, const int64_t *__restrict__ rows, int64_t capacity,
            const int64_t *__restrict__ partitions, int32_t *__restrict__ out_a,
            int32_t *__restrict__ out_b)
{
    // BEGIN SOLUTION (Step 4.4): return if *rows > capacity; for each of this block's tiles: stage first_s (above: -1 for object -1), lab4_tile_lbs, write each output's (a, b) pair coalesced (join_store_row), barrier; then the B rows (join_write_b_rows)
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
                join_store_row(obj, r.out_begin + i - off_s[slot], a_count, first_s[slot], r.out_begin + i,
                               out_a, out_b);
            }
        }
        __syncthreads(); /* the next tile overwrites off_s, obj_s and first_s */
    }
    join_write_b_rows(b_rows, a_count, a_rows, all_rows, out_a, out_b);
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
 * The grids, with most_expand_tiles = kit_div_up(join_capacity + a_count, NV)
 * (the expand tiles of the largest join that fits):
 *   - join_search_scan: one block of SEARCH_NT threads per search tile;
 *   - join_partitions: lab4_partition_blocks(most_expand_tiles) blocks of
 *     LAB4_PARTITION_NT threads, but no more than the GPU holds at once
 *     (kit_resident_blocks of join_partitions): its threads loop;
 *   - join_expand: most_expand_tiles blocks of NT threads, no more than its
 *     resident blocks and at least 1 (it also writes the kept B rows): its
 *     blocks loop over the tiles.
 * The search's tiles + 1 boundaries and most_expand_tiles + 1 must fit in
 * io->partition_capacity (checked first, like every launcher: lab4.h). */
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
    // BEGIN SOLUTION (Step 4.4): check the sizes (join_sizes_fit, and the partitions of an expand of join_capacity rows); the resident grids and join_prefetch_ahead (both kit_resident_blocks: asked on every call, queried once per GPU); 1. join_search_prepare, join_search_scan, record_phase 0; 2. join_partitions, record_phase 1; 3. join_expand, record_phase 2; then join_finish
    const lab4_join_ws *ws = &io->ws;
    int keep_a, keep_b;
    join_keeps(io, &keep_a, &keep_b);
    const int64_t capacity = join_capacity(io); /* a larger one fails the partition check */
    const int64_t search_tiles = join_search_tiles(n);
    size_t most_expand_tiles = kit_div_up((size_t)capacity + (size_t)a_count, NV);
    if (!join_sizes_fit(io, search_tiles) || most_expand_tiles + 1 > io->partition_capacity)
        return KIT_CHECK(cudaErrorInvalidValue);
    int partition_grid = 0, expand_grid = 0; /* resident blocks */
    int64_t prefetch_ahead = 0;
    if ((err = kit_resident_blocks(join_partitions, LAB4_PARTITION_NT, 0, &partition_grid)) ||
        (err = kit_resident_blocks(join_expand, NT, 0, &expand_grid)) ||
        (err = join_prefetch_ahead(join_search_scan, &prefetch_ahead)))
        return err;

    /* 1. search, count and scan: one pass over the keys */
    join_status status;
    if ((err = join_search_prepare(io, search_tiles, &status, stream)))
        return err;
    join_search_scan<<<(unsigned)search_tiles, SEARCH_NT, 0, stream>>>(
        io->a, a_count, io->b, b_count, io->partitions, search_tiles, keep_a, keep_b, prefetch_ahead, status.ticket,
        status.a, status.b, ws->offsets, ws->first_b, ws->b_rows, ws->rows);
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
    return join_finish(io, stream); /* the one copy to the host, after everything is enqueued */
    // STUB: return KIT_TODO;
    // END SOLUTION
}
