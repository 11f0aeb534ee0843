/* lab4_tile.cuh: device code shared by the partitioned lab4 variants.
 *
 * Every merge-like kernel here has two phases (Baxter's "two-phase
 * decomposition"):
 *   1. partition: one Merge Path search per tile boundary, so tile t owns
 *      exactly the items t*NV .. (t+1)*NV - 1 of the merged order, however the
 *      keys fall (one thread per boundary, a separate small kernel);
 *   2. work: each tile loads its two intervals into shared memory, every thread
 *      finds its own start with a search in shared memory, then walks VT steps
 *      of a sequential loop that looks like the CPU code.
 * NT (threads per tile) and VT (items per thread) are template parameters: each
 * variant picks its own and NV = NT * VT items make a tile. */
#ifndef LAB4_TILE_CUH
#define LAB4_TILE_CUH
#include "lab4.h"
#include "lab4_search.h"

static_assert(LAB4_PARTITION_NT % LAB4_PARTITION_COARSE_EVERY == 0, "level-1 groups tile the block");

/* The grid of a partition kernel for `tiles` tiles: enough blocks of
 * LAB4_PARTITION_NT threads for its tiles + 1 boundaries, `per_block` boundaries
 * to a block (one thread per boundary, as in the LBS's and the join's, unless the
 * kernel gives a boundary several lanes). */
static inline unsigned lab4_partition_blocks(int64_t tiles, int per_block = LAB4_PARTITION_NT)
{
    return (unsigned)kit_div_up((size_t)tiles + 1, per_block);
}

/* lab4_merge_path_bisect by LANES consecutive lanes of a warp at once (all of
 * them call it with the same arguments and get the answer). Each round, lane k
 * probes lo + (hi - lo) (k + 1) / (LANES + 1), and a ballot counts the probes
 * whose A item goes first: the answer lies past the last of those and at or
 * before the first of the others. That takes about log(hi - lo) / log(LANES + 1)
 * rounds of dependent reads instead of log2(hi - lo), for LANES times the reads.
 * LANES = 1 is the binary search itself. */
template <int LANES>
static __device__ __forceinline__ int64_t lab4_merge_path_bisect_lanes(const int32_t *a,
                                                                        const int32_t *b,
                                                                        int64_t diag,
                                                                        lab4_split_range r,
                                                                        int b_first)
{
    if (LANES == 1)
        return lab4_merge_path_bisect(a, b, diag, r.lo, r.hi, b_first);
    const int lane = (int)threadIdx.x % LANES;
    const unsigned group = (LANES == 32 ? ~0u : (1u << LANES) - 1u) << ((threadIdx.x % 32) / LANES * LANES);
    int64_t lo = r.lo, hi = r.hi;
    while (lo < hi) {
        int64_t span = hi - lo, probe = lo + span * (lane + 1) / (LANES + 1);
        int32_t a_key = a[probe], b_key = b[diag - 1 - probe];
        int a_goes_first = b_first ? a_key < b_key : a_key <= b_key;
        int before = __popc(__ballot_sync(group, a_goes_first)); /* probes left of the answer */
        int64_t old_lo = lo;
        if (before > 0)
            lo = old_lo + span * before / (LANES + 1) + 1;
        if (before < LANES)
            hi = old_lo + span * (before + 1) / (LANES + 1);
    }
    return lo;
}

/* Tile boundaries of a merge of A and B: partitions[t] = how many A items are in
 * the first lab4_tile_diag(t) = min(t * nv, a_count + b_count) merged items,
 * for t = 0 .. tiles, both ends included. lab4_merge_tile_range turns two of them
 * into a tile's intervals. Each boundary is searched by LANES lanes, so block k
 * owns BOUNDARIES = LAB4_PARTITION_NT / LANES of them, first = k * BOUNDARIES
 * up to first + BOUNDARIES - 1, in two levels:
 *   1. every coarse_every-th boundary of the block (local index 0, c, 2c, ...,
 *      c = coarse_every) searches its whole diagonal and keeps its split in
 *      shared memory, level_one[local / c]. The block's upper end, boundary
 *      first + BOUNDARIES (the next block's first), is searched too, into
 *      level_one[BOUNDARIES / c], by the lanes of the block's last boundary,
 *      which has no level-1 search of its own when c > 1. Barrier;
 *   2. every other boundary searches only between the splits of the two level-1
 *      boundaries around it, level_one[g] and level_one[g + 1] for g = local / c
 *      (lab4_range_between).
 * With c = 1 every boundary is level 1 and level 2 has nothing to do. c divides
 * BOUNDARIES (the launcher passes 1, or LAB4_PARTITION_COARSE_EVERY with one
 * lane: the static_assert above). c is a run-time value and a __shared__ array
 * needs a constant size: declare level_one[BOUNDARIES + 1], room for c = 1; a
 * larger c uses its first BOUNDARIES / c + 1. The grid is rounded up
 * (lab4_partition_blocks(tiles, BOUNDARIES)), so the last block may own
 * boundaries past `tiles`: their lanes still run level 1, on the clamped
 * boundary min(t, tiles), so that every level_one entry the block's real
 * boundaries read is set, but they write no partitions[t] and skip level 2.
 * Which shape runs (lab4_launch_merge_partitions; lecture 4, Step 4.1):
 *   - at most LAB4_PARTITION_PROBES / 4 boundaries: a search's chain of
 *     dependent reads bounds the time. LANES lanes per boundary (4 to 32) and
 *     one level cut the rounds: 4 lanes take about 10 instead of 23 at 2^24 keys;
 *   - from LAB4_PARTITION_PROBES on: the DRAM's rate of random reads bounds it.
 *     One lane and two levels cut the reads: at 2^28 keys a search between
 *     neighbours 16 tiles apart takes about 15 probes instead of 27;
 *   - in between: one lane, one level. */
template <int LANES>
static __global__ void __launch_bounds__(LAB4_PARTITION_NT)
lab4_merge_partitions(const int32_t *a, int64_t a_count, const int32_t *b, int64_t b_count,
                      int64_t nv, int b_first, int64_t tiles, int coarse_every, int64_t *partitions)
{
    // TODO(Step 4.1): LANES lanes per boundary t <= tiles: level 1, a merge path search at diagonal lab4_tile_diag(t, nv, a_count + b_count) (every boundary when coarse_every = 1); level 2 between level 1's splits, kept in shared memory; the group's first lane writes (about 41 lines)
}

/* Launch lab4_merge_partitions<LANES> for boundaries = tiles + 1, coarse_every as given. */
template <int LANES>
static int lab4_launch_partitions_with(const int32_t *a, int64_t a_count, const int32_t *b,
                                       int64_t b_count, int64_t nv, int b_first, int64_t tiles,
                                       int coarse_every, int64_t *partitions, cudaStream_t stream)
{
    lab4_merge_partitions<LANES><<<lab4_partition_blocks(tiles, LAB4_PARTITION_NT / LANES), LAB4_PARTITION_NT, 0,
                                   stream>>>(
        a, a_count, b, b_count, nv, b_first, tiles, coarse_every, partitions);
    return KIT_LAUNCH_CHECK();
}

/* Launch lab4_merge_partitions for `tiles` tiles (tiles + 1 boundaries) in the
 * shape lab4_shapes.h describes: from LAB4_PARTITION_PROBES boundaries on, one lane each
 * in two levels; below, one level, with the most lanes per boundary (4 to 32)
 * that keep boundaries x lanes <= LAB4_PARTITION_PROBES, or one lane where not
 * even 4 do. */
static inline int lab4_launch_merge_partitions(const int32_t *a, int64_t a_count, const int32_t *b,
                                               int64_t b_count, int64_t nv, int b_first,
                                               int64_t tiles, int64_t *partitions,
                                               cudaStream_t stream)
{
    int64_t boundaries = tiles + 1;
#define LAB4_PARTITIONS(lanes, coarse_every)                                                       \
    lab4_launch_partitions_with<lanes>(a, a_count, b, b_count, nv, b_first, tiles, coarse_every,   \
                                       partitions, stream)
    if (boundaries >= LAB4_PARTITION_PROBES)
        return LAB4_PARTITIONS(1, LAB4_PARTITION_COARSE_EVERY);
    if (boundaries * 4 > LAB4_PARTITION_PROBES)
        return LAB4_PARTITIONS(1, 1);
    if (boundaries * 8 > LAB4_PARTITION_PROBES)
        return LAB4_PARTITIONS(4, 1);
    if (boundaries * 16 > LAB4_PARTITION_PROBES)
        return LAB4_PARTITIONS(8, 1);
    if (boundaries * 32 > LAB4_PARTITION_PROBES)
        return LAB4_PARTITIONS(16, 1);
    return LAB4_PARTITIONS(32, 1);
#undef LAB4_PARTITIONS
}

/* Tile boundaries of a load-balancing search: partitions[t] = how many outputs
 * are in the first min(t * nv, out_count + obj_count) items (see lab4_lbs_tile_range). */
static __global__ void lab4_lbs_partitions(const int64_t *offsets, int64_t obj_count,
                                           int64_t out_count, int64_t nv, int64_t tiles,
                                           int64_t *partitions)
{
    // TODO(Step 4.3): like lab4_merge_partitions, with lab4_lbs_path_search over the counting sequence (about 5 lines)
}

/* Copy a tile's A interval (a[0..a_count)) and B interval (b[0..b_count)) into
 * keys[0 .. a_count + b_count), A first. Thread t copies items t, t + NT, ...:
 * neighbouring threads read neighbouring addresses (coalesced), and all VT loads
 * are issued before the first store to shared memory. */
template <int NT, int VT>
__device__ __forceinline__ void lab4_load_tile(const int32_t *__restrict__ a, int a_count,
                                               const int32_t *__restrict__ b, int b_count,
                                               int32_t *keys)
{
    int total = a_count + b_count;
    int32_t r[VT];
#pragma unroll
    for (int k = 0; k < VT; k++) {
        int i = threadIdx.x + k * NT;
        if (i < a_count)
            r[k] = a[i];
        else if (i < total)
            r[k] = b[i - a_count];
    }
#pragma unroll
    for (int k = 0; k < VT; k++) {
        int i = threadIdx.x + k * NT;
        if (i < total)
            keys[i] = r[k];
    }
}

/* Store shared values[0..count) to out[0..count), coalesced (thread t stores t, t + NT, ...). */
template <int NT, int VT, typename T>
__device__ __forceinline__ void lab4_store_tile(const T *values, int count, T *__restrict__ out)
{
#pragma unroll
    for (int k = 0; k < VT; k++) {
        int i = threadIdx.x + k * NT;
        if (i < count)
            out[i] = values[i];
    }
}

/* The load-balancing search of one tile (all NT threads must call it).
 * In: offsets (obj_count + 1 entries, global), the tile's range r. The tile has
 * tile_objs = obj_end - obj_begin objects and tile_n = (out_end - out_begin) +
 * tile_objs items (outputs + objects).
 * Out (shared):
 *   off_s[i] = offsets[r.obj_begin - 1 + i] for i = 0, 1, ..., tile_objs (both
 *     ends included: tile_objs + 1 entries): one offset in front of the tile's own
 *     objects (0 when obj_begin == 0), because the tile's first outputs may belong
 *     to object obj_begin - 1; lab4_serial_lbs indexes offsets from obj_begin, so
 *     it gets off_s + 1;
 *   obj_s[k - out_begin] = the object of output k, for every output of the tile.
 * Each thread t, after a barrier (off_s must be complete):
 *   diag = min(t * VT, tile_n);
 *   x = lab4_lbs_path_search(out_begin, out_end - out_begin, off_s + 1, tile_objs, diag)
 *     (x = how many of the tile's first diag items are outputs: the same search
 *     as the partition kernel's, inside the tile, with global output numbers);
 *   lab4_serial_lbs from output k = out_begin + x and object o = obj_begin + diag - x,
 *     count = min(VT, tile_n - diag) steps, writing obj_s.
 * The slot of object o in anything staged this way is o - obj_begin + 1 (slot 0
 * for obj_begin - 1): the rank of output k is k - off_s[obj_s[k - out_begin] -
 * obj_begin + 1], and a caller staging per-object data (the join's first_b) must
 * stage it from obj_begin - 1 too. Ends with a barrier.
 * Shared sizes: off_s NT*VT + 1 int64, obj_s NT*VT int32. */
template <int NT, int VT>
__device__ void lab4_tile_lbs(const int64_t *__restrict__ offsets, lab4_lbs_range r,
                              int64_t *off_s, int32_t *obj_s)
{
    int tile_objs = (int)(r.obj_end - r.obj_begin);
    int tile_n = (int)(r.out_end - r.out_begin) + tile_objs;
    // TODO(Step 4.3): off_s[i] = offsets[obj_begin - 1 + i] for i = 0 .. tile_objs inclusive (0 for object -1), then a barrier (about 5 lines)
    (void)offsets; (void)off_s;
    // TODO(Step 4.3): this thread's diagonal, lab4_lbs_path_search in the tile, lab4_serial_lbs into obj_s (see above), then a barrier (about 6 lines)
    (void)tile_n; (void)obj_s;
}

#endif
