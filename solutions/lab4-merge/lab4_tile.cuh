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

/* Tile boundaries of a merge of A and B: partitions[t] = how many A items are in
 * the first lab4_tile_diag(t) = min(t * nv, a_count + b_count) merged items,
 * for t = 0 .. tiles, both ends included. lab4_merge_tile_range turns two of them
 * into a tile's intervals. Block k owns boundaries k * NT .. k * NT + NT - 1
 * (thread = boundary; the launcher rounds the grid up, threads past `tiles`
 * only help their block, see below) and searches them in two levels:
 *   1. every coarse_every-th boundary searches its whole diagonal;
 *   2. the others search only between the splits of the two level-1 boundaries
 *      around them (lab4_merge_path_search_between).
 * Why: each probe of a search reads a DRAM sector that no other boundary's search
 * reads, and at 2^28 keys the partition kernel is bound by the DRAM's rate of such
 * random reads (lecture 4). At 2^28 keys a search between neighbours 16 tiles
 * apart takes about 15 probes instead of 27. But level 2 waits for level 1: when the
 * boundaries are few, that longer chain of dependent reads is what the kernel
 * waits for, and the launcher passes coarse_every = 1 (one level). */
enum { LAB4_PARTITION_NT = 128 };
static_assert(LAB4_PARTITION_NT % LAB4_PARTITION_COARSE_EVERY == 0, "level-1 groups tile the block");

/* Launch one of the partition kernels for `tiles` tiles (tiles + 1 boundaries):
 * enough blocks of LAB4_PARTITION_NT threads for tiles + 1 threads. */
static inline unsigned lab4_partition_blocks(int64_t tiles)
{
    return (unsigned)kit_div_up((size_t)tiles + 1, LAB4_PARTITION_NT);
}

static __global__ void __launch_bounds__(LAB4_PARTITION_NT)
lab4_merge_partitions(const int32_t *a, int64_t a_count, const int32_t *b, int64_t b_count,
                      int64_t nv, int b_first, int64_t tiles, int coarse_every, int64_t *partitions)
{
    // BEGIN SOLUTION (Step 4.1): one thread per boundary t <= tiles: level 1, a merge path search at diagonal lab4_tile_diag(t, nv, a_count + b_count) (every boundary when coarse_every = 1); level 2 between level 1's splits, kept in shared memory
    /* level_one[g] = the split of boundary min(first + g * coarse_every, tiles),
     * g = 0 .. NT / coarse_every: the last one is the next block's first boundary. */
    __shared__ int64_t level_one[LAB4_PARTITION_NT + 1];
    int64_t total = a_count + b_count;
    int64_t first = (int64_t)blockIdx.x * LAB4_PARTITION_NT;
    int64_t t = first + threadIdx.x;
    int group = (int)threadIdx.x / coarse_every;
    bool level_one_boundary = threadIdx.x % coarse_every == 0;
    if (level_one_boundary) {
        int64_t split = lab4_merge_path_search(a, a_count, b, b_count,
                                               lab4_tile_diag(min(t, tiles), nv, total), b_first);
        level_one[group] = split;
        if (t <= tiles)
            partitions[t] = split;
    }
    if (coarse_every > 1 && threadIdx.x == LAB4_PARTITION_NT - 1) /* idle in level 1 */
        level_one[LAB4_PARTITION_NT / coarse_every] = lab4_merge_path_search(
            a, a_count, b, b_count, lab4_tile_diag(min(first + LAB4_PARTITION_NT, tiles), nv, total),
            b_first);
    __syncthreads();
    if (level_one_boundary || t > tiles)
        return;
    int64_t t_lo = first + (int64_t)group * coarse_every, t_hi = min(t_lo + coarse_every, tiles);
    partitions[t] = lab4_merge_path_search_between(
        a, b, lab4_tile_diag(t, nv, total), lab4_tile_diag(t_lo, nv, total), level_one[group],
        lab4_tile_diag(t_hi, nv, total), level_one[group + 1], b_first);
    // END SOLUTION
}

/* Launch lab4_merge_partitions for `tiles` tiles (tiles + 1 boundaries), in two
 * levels when there are at least LAB4_PARTITION_TWO_LEVELS_FROM boundaries. */
static inline int lab4_launch_merge_partitions(const int32_t *a, int64_t a_count, const int32_t *b,
                                               int64_t b_count, int64_t nv, int b_first,
                                               int64_t tiles, int64_t *partitions,
                                               cudaStream_t stream)
{
    int coarse_every = tiles + 1 >= LAB4_PARTITION_TWO_LEVELS_FROM ? LAB4_PARTITION_COARSE_EVERY : 1;
    lab4_merge_partitions<<<lab4_partition_blocks(tiles), LAB4_PARTITION_NT, 0, stream>>>(
        a, a_count, b, b_count, nv, b_first, tiles, coarse_every, partitions);
    return KIT_LAUNCH_CHECK();
}

/* Tile boundaries of a load-balancing search: partitions[t] = how many outputs
 * are in the first min(t * nv, out_count + obj_count) items (see lab4_lbs_tile_range). */
static __global__ void lab4_lbs_partitions(const int64_t *offsets, int64_t obj_count,
                                           int64_t out_count, int64_t nv, int64_t tiles,
                                           int64_t *partitions)
{
    // BEGIN SOLUTION (Step 4.3): like lab4_merge_partitions, with lab4_lbs_path_search over the counting sequence
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t > tiles)
        return;
    int64_t diag = lab4_tile_diag(t, nv, out_count + obj_count);
    partitions[t] = lab4_lbs_path_search(0, out_count, offsets, obj_count, diag);
    // END SOLUTION
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
    // BEGIN SOLUTION (Step 4.3): off_s[i] = offsets[obj_begin - 1 + i] for i = 0 .. tile_objs inclusive (0 for object -1), then a barrier
    for (int i = threadIdx.x; i <= tile_objs; i += NT) {
        int64_t j = r.obj_begin - 1 + i;
        off_s[i] = j >= 0 ? offsets[j] : 0;
    }
    __syncthreads();
    // STUB: (void)offsets; (void)off_s;
    // END SOLUTION
    // BEGIN SOLUTION (Step 4.3): this thread's diagonal, lab4_lbs_path_search in the tile, lab4_serial_lbs into obj_s (see above), then a barrier
    int diag = min((int)threadIdx.x * VT, tile_n);
    int64_t out_split = lab4_lbs_path_search(r.out_begin, r.out_end - r.out_begin, off_s + 1,
                                             tile_objs, diag);
    lab4_serial_lbs(off_s + 1, r.obj_begin, r.obj_end, r.out_begin, r.out_begin + out_split,
                    r.obj_begin + diag - out_split, min(VT, tile_n - diag), VT, obj_s);
    __syncthreads();
    // STUB: (void)tile_n; (void)obj_s;
    // END SOLUTION
}

#endif
