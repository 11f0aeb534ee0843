/* Step 4.5: the join in one pass: each search tile expands its own rows.
 *
 * Step 4.4 stores, for every A row, where its rows start and its first match
 * (12 bytes written, then read back by the expand), and spends two more kernels
 * on the expand's partitions and the expand. But after its look-back a search
 * tile knows everything its A rows need: how many rows each produces (the scan
 * in shared memory), their first matches, and where the tile's rows start in
 * the output. So the same tile writes them, and nothing per row goes through
 * global memory:
 *   1. search, count and scan as in Step 4.4 (lab4_join.cuh);
 *   2. expand inside the tile: the tile's A rows are the objects, their
 *      exclusive scan (s.offset) the offsets, and a load-balancing search
 *      (step 4.3) over the tile's rows + A rows pairs each row with its A row,
 *      in chunks of OUT_NV rows + A rows, each staged in shared memory and
 *      stored coalesced. The look-back (Step 4.4's) waits until the first
 *      chunk is staged: that work needs only the tile's own scan, and the
 *      tiles before it get that much longer to publish their prefixes. A tile
 *      whose A rows produce at most one row each (unique keys) needs no search:
 *      each A row's one row is its offset;
 *   3. the kept unmatched B rows still come after ALL rows with an A side, whose
 *      count only the last tile knows: the tile puts them in b_rows (as Step
 *      4.4) and a small kernel writes them after the rest (right and outer
 *      joins only).
 * Bytes moved: the keys once (4n), the rows (8R), and 8U for the U kept B rows:
 * 4n + 8U + 8R, against Step 4.4's 16n + 8U + 8R.
 * The price: a tile writes all the rows of its A rows, so one key with a huge
 * outer product (the 3000 x 3000 test) is expanded by the few blocks that hold
 * its A rows, not spread over the GPU as in Step 4.4. The chunks keep the
 * shared memory bounded; the time of that tile is what grows.
 * The capacity: a tile writes its rows with an A side only when they all end at
 * or below join_capacity (the kept B rows wait for the whole count), so
 * nothing is ever written past it; but a tile cannot know the
 * total when it writes, so a join refused with LAB4_ERR_JOIN_TOO_LARGE may have
 * written some rows below the capacity (Step 4.4 writes none, lab4.h).
 * Records no phase events (lab4_io.phase_events): it has one pass. */
#include "lab4_join.cuh"

/* The expand's chunk: SEARCH_NT threads x OUT_VT items (rows + A rows), as many
 * as obj_s can hold beside the search tile in the 48 KB of static shared memory
 * a block may have without asking for more (9 for the 256 x 11 tile: 48,192
 * bytes in all). */
enum {
    OUT_VT = (48 * 1024 - (int)sizeof(join_tile_shared)) / ((int)sizeof(int32_t) * SEARCH_NT),
    OUT_NV = SEARCH_NT * OUT_VT
};
static_assert(OUT_VT >= 1, "no room for the expand's chunk beside the search tile");

/* The load-balancing search of one chunk of the tile's A rows (all threads
 * call it). The tile's A items are objects 0 .. tile.a - 1 with offsets
 * s.offset[0 .. tile.a) (tile-local rows) and tile.a_rows rows: items =
 * tile.a_rows + tile.a in all; the chunk holds items c .. c + OUT_NV - 1 and
 * its rows start at `first` (0 for the first chunk, the previous chunk's end
 * after). Each thread takes diagonal diag = min(c + threadIdx.x * OUT_VT,
 * items), k = lab4_lbs_path_search(0, tile.a_rows, s.offset, tile.a, diag)
 * rows before it, and lab4_serial_lbs(s.offset, 0, tile.a, first, k, diag - k,
 * count, OUT_VT, obj_s) puts the A item of row first + j in obj_s[j]. Returns
 * the chunk's end (the same search at min(c + OUT_NV, items)); a barrier
 * before it returns publishes obj_s. */
static __device__ int64_t stage_chunk(const join_tile &tile, const join_tile_shared &s, int64_t c,
                                      int64_t first, int32_t *obj_s)
{
    // BEGIN SOLUTION (Step 4.5): this thread's diagonal, lab4_lbs_path_search, lab4_serial_lbs into obj_s; the chunk's end; barrier
    const int64_t items = tile.a_rows + tile.a;
    int64_t diag = min(c + (int64_t)threadIdx.x * OUT_VT, items);
    int64_t k = lab4_lbs_path_search(0, tile.a_rows, s.offset, tile.a, diag);
    lab4_serial_lbs(s.offset, 0, tile.a, first, k, diag - k, (int)min((int64_t)OUT_VT, items - diag), OUT_VT,
                    obj_s);
    int64_t last = lab4_lbs_path_search(0, tile.a_rows, s.offset, tile.a, min(c + OUT_NV, items));
    __syncthreads();
    return last;
    // STUB: (void)tile; (void)s; (void)c; (void)first; (void)obj_s;
    // STUB: return 0;
    // END SOLUTION
}

/* One search tile per block, numbered by the ticket:
 *   1. join_count_tile, then join_publish_aggregates at once;
 *   2. when an A item produces more than one row (!tile.one_row_each):
 *      stage_chunk for the first chunk (c = 0). It needs only the tile's own
 *      scan, so it runs before the look-back, while the tiles before this one
 *      finish theirs;
 *   3. join_rows_before (totals into *a_rows_total, *rows), join_store_b_items;
 *   4. when the tile's rows with an A side end at or below capacity (rows from
 *      A before the tile + tile.a_rows <= capacity; the same answer in every
 *      thread), store them, with (rows from A before the tile) + row as the
 *      output row (join_store_row writes lab4_join_row's pair there):
 *      - tile.one_row_each (unique keys): no search at all. A item i has a row
 *        when it has a match (s.first[i] >= 0) or the join keeps it, and that
 *        row is s.offset[i]: object a0 + i, rank 0, first match s.first[i],
 *        thread t taking i = t, t + SEARCH_NT, ... (neighbours write
 *        neighbouring rows);
 *      - otherwise chunk by chunk: row first + j of the chunk, thread t taking
 *        j = t, t + SEARCH_NT, ...: its A item i = obj_s[j], object a0 + i,
 *        rank row - s.offset[i], first match s.first[i].
 *        Then, while chunks remain: barrier (the next chunk overwrites obj_s),
 *        stage_chunk. */
__global__ void __launch_bounds__(SEARCH_NT)
join_fused_tiles(const int32_t *__restrict__ a, int64_t a_count, const int32_t *__restrict__ b,
                 int64_t b_count, const int64_t *__restrict__ partitions, int64_t tiles, int keep_a,
                 int keep_b, int64_t capacity, unsigned int *ticket, unsigned long long *status_a,
                 unsigned long long *status_b, int32_t *__restrict__ b_rows, int64_t *a_rows_total,
                 int64_t *rows, int32_t *__restrict__ out_a, int32_t *__restrict__ out_b)
{
    // BEGIN SOLUTION (Step 4.5): the four steps above: count and publish; stage the first chunk unless one_row_each; look back and store the kept B items; if the A rows fit below capacity, store them with join_store_row: directly at s.offset[i] (one_row_each), or each chunk coalesced, staging the next one after a barrier
    __shared__ join_tile_shared s;
    __shared__ int32_t obj_s[OUT_NV];
    join_tile tile = join_count_tile(a, a_count, b, b_count, partitions, keep_a, keep_b, ticket, s);
    join_publish_aggregates(tile, status_a, status_b);
    int64_t first = 0, last = tile.one_row_each ? 0 : stage_chunk(tile, s, 0, first, obj_s);
    join_rows_before(tile, tiles, status_a, status_b, a_rows_total, rows, s);
    join_store_b_items(tile, s, keep_a, keep_b, b_rows);

    const int64_t a_rows_before = s.prefix[0], items = tile.a_rows + tile.a;
    if (a_rows_before + tile.a_rows > capacity)
        return;
    if (tile.one_row_each) {
        for (int i = (int)threadIdx.x; i < tile.a; i += SEARCH_NT)
            if (s.first[i] >= 0 || keep_a)
                join_store_row(tile.r.a_begin + i, 0, a_count, s.first[i], a_rows_before + s.offset[i], out_a,
                               out_b);
        return;
    }
    for (int64_t c = 0;;) {
        for (int j = (int)threadIdx.x; j < last - first; j += SEARCH_NT) {
            int64_t row = first + j;
            int i = obj_s[j];
            join_store_row(tile.r.a_begin + i, row - s.offset[i], a_count, s.first[i], a_rows_before + row, out_a,
                           out_b);
        }
        if ((c += OUT_NV) >= items)
            break;
        __syncthreads(); /* the next chunk overwrites obj_s */
        first = last;
        last = stage_chunk(tile, s, c, first, obj_s);
    }
    // STUB: (void)a; (void)a_count; (void)b; (void)b_count; (void)partitions; (void)tiles;
    // STUB: (void)keep_a; (void)keep_b; (void)capacity; (void)ticket; (void)status_a; (void)status_b;
    // STUB: (void)b_rows; (void)a_rows_total; (void)rows; (void)out_a; (void)out_b; (void)stage_chunk;
    // END SOLUTION
}

/* The kept B rows after all rows with an A side, once the whole join fits
 * (*rows <= capacity; nothing otherwise): join_write_b_rows over the grid. */
__global__ void join_fused_b_rows(const int32_t *__restrict__ b_rows, int64_t a_count,
                                  const int64_t *__restrict__ a_rows_total, const int64_t *__restrict__ rows,
                                  int64_t capacity, int32_t *__restrict__ out_a, int32_t *__restrict__ out_b)
{
    // BEGIN SOLUTION (Step 4.5): return if *rows > capacity; join_write_b_rows from row *a_rows_total
    if (*rows > capacity)
        return;
    join_write_b_rows(b_rows, a_count, *a_rows_total, *rows, out_a, out_b);
    // STUB: (void)b_rows; (void)a_count; (void)a_rows_total; (void)rows; (void)capacity; (void)out_a;
    // STUB: (void)out_b;
    // END SOLUTION
}

/* The fused join's launcher: the search's partitions and reset
 * (join_search_prepare), one block per search tile, then (right and outer
 * joins) the kept B rows on the blocks resident on the GPU, and the one copy of
 * the row count (join_finish). The scratch it uses: io->partitions, ws.status,
 * ws.b_rows, ws.offsets[a_count] for the rows with an A side, ws.rows and
 * ws.h_rows for the row count. */
extern "C" int lab4_join_fused(const lab4_io *io, cudaStream_t stream)
{
    int64_t a_count = (int64_t)io->a_count, b_count = (int64_t)io->b_count;
    int64_t n = a_count + b_count;
    *io->join_rows = 0; /* until the row count is known */
    if (n == 0)
        return 0;
    // BEGIN SOLUTION (Step 4.5): check the sizes (join_sizes_fit); join_search_prepare; join_fused_tiles; join_fused_b_rows when the join keeps B rows; join_finish
    const lab4_join_ws *ws = &io->ws;
    int keep_a, keep_b, err;
    join_keeps(io, &keep_a, &keep_b);
    const int64_t capacity = join_capacity(io), tiles = join_search_tiles(n);
    if (!join_sizes_fit(io, tiles))
        return KIT_CHECK(cudaErrorInvalidValue);
    static int b_rows_grid; /* resident blocks, asked once */
    if (!b_rows_grid && (err = kit_resident_blocks(join_fused_b_rows, SEARCH_NT, 0, &b_rows_grid)))
        return err;

    int64_t *a_rows_total = ws->offsets + a_count;
    join_status status;
    if ((err = join_search_prepare(io, tiles, &status, stream)))
        return err;
    join_fused_tiles<<<(unsigned)tiles, SEARCH_NT, 0, stream>>>(
        io->a, a_count, io->b, b_count, io->partitions, tiles, keep_a, keep_b, capacity, status.ticket, status.a,
        status.b, ws->b_rows, a_rows_total, ws->rows, io->join_a, io->join_b);
    if ((err = KIT_LAUNCH_CHECK()))
        return err;
    if (keep_b && b_count > 0) {
        size_t blocks = kit_div_up((size_t)b_count, SEARCH_NT);
        join_fused_b_rows<<<(unsigned)(blocks < (size_t)b_rows_grid ? blocks : (size_t)b_rows_grid), SEARCH_NT,
                            0, stream>>>(ws->b_rows, a_count, a_rows_total, ws->rows, capacity, io->join_a,
                                         io->join_b);
        if ((err = KIT_LAUNCH_CHECK()))
            return err;
    }
    return join_finish(io, stream);
    // STUB: (void)a_count; (void)b_count; (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}
