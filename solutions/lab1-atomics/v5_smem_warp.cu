/* Step 1.5: privatization and warp aggregation together, tuned for throughput.
 *
 * Six ideas on top of smem-private (1.2) and warp-match (1.4). Lecture 1, Step 1.5,
 * measures what each buys by rebuilding this file without it (the -D switches of
 * lab1_shapes.h):
 *   1. Copies per warp: up to SW_MAX_COPIES private copies of the bins per block
 *      (one per warp), as many as fit without opting in (8 copies of 256 counts =
 *      8 KB), so the warps of a block do not contend on one copy.
 *   2. Bytes in flight (histogram): 16-byte int4 loads of 4 keys per lane, and
 *      LAB1_SW_LOADS of them issued before the first is added: a tile of VT = 4 *
 *      LOADS keys per lane, 32 * VT = 1024 keys per warp.
 *   3. The grid: as many blocks as the GPU holds at once (occupancy API),
 *      capped at SW_HIST_BLOCKS_PER_SM for the histogram, with grid-stride loops.
 *   4. No memset launch (histogram): blocks merge into scratch sums that are zero
 *      between launches; the last block to finish copies them into the counts and
 *      zeroes them (the last-block pattern; lecture 1 on its memory ordering).
 *   5. Aggregation only where it pays: a probe (how many lanes share the first
 *      lane's key?) chooses between aggregating and plain shared atomics; add_quad
 *      gives the exact decision tree.
 *   6. A read-once hint (histogram): while the keys take at most SW_READ_ONCE_L2S
 *      times the L2 cache, the tiles are loaded with __ldcs, which allocates their
 *      lines evict-first: keys read once push out one another, not the dirty lines
 *      the harness's L2 flush left, whose write-back would otherwise land inside
 *      this kernel's time. On longer streams the hint costs a little instead.
 * Bins that do not fit in shared memory: warp-match's global path.
 * Still slow: zipf keys, where the probe sends warps with a hot first key to
 * __match_any_sync although most of their other keys are distinct.
 * Expect: the fastest histogram at 256 bins on every distribution, well ahead of CUB,
 * and at 2^28 keys reading them at the rate memcpy moves bytes (lecture 1, the
 * Results tables; Step 1.5's table for each idea's share). */
#include "lab1.h"
#include "lab1_smem.cuh"
#include "lab1_value.cuh"
#include "lab1_warp.cuh"

enum { NT = LAB1_SW_NT, VT = LAB1_SW_VT, LOADS = VT / 4, WARPS = NT / LAB1_WARP };
/* SW_HIST_BLOCKS_PER_SM, SW_MAX_COPIES, SW_MATCH_MIN, SW_READ_ONCE_L2S: lab1_shapes.h. */

/* The block's private copies of the bins, copies x bins of T, in dynamic shared
 * memory (one byte array for every T: see smem-private). */
template <typename T> __device__ __forceinline__ T *shared_copies()
{
    extern __shared__ __align__(16) unsigned char smem_raw[];
    return reinterpret_cast<T *>(smem_raw);
}

/* Zero the block's copies; returns this warp's copy (with fewer copies than warps,
 * warps w and w + copies share one). */
template <typename T> __device__ __forceinline__ T *zero_copies(int copies, int bins)
{
    T *all = shared_copies<T>();
    for (int j = threadIdx.x; j < copies * bins; j += NT)
        all[j] = 0;
    __syncthreads();
    return all + (threadIdx.x / LAB1_WARP % copies) * bins;
}

/* After a barrier: sum the block's copies of each bin and add the non-zero sums
 * into out. */
template <typename T> __device__ __forceinline__ void merge_copies(int copies, int bins, T *out)
{
    const T *all = shared_copies<T>();
    for (int b = threadIdx.x; b < bins; b += NT) {
        T sum = 0;
        for (int c = 0; c < copies; c++)
            sum += all[c * bins + b];
        if (sum != 0)
            atomicAdd(&out[b], sum);
    }
}

/* One histogram key per lane, each adding `weight`: aggregated over the peers. */
__device__ __forceinline__ void add_matched(int *bins, unsigned active, int key, int weight)
{
    // BEGIN SOLUTION (Step 1.5): peers = __match_any_sync(active, key); the lowest peer adds weight * __popc(peers)
    unsigned peers = __match_any_sync(active, key);
    if (lab1_lane_id() == __ffs(peers) - 1)
        atomicAdd(&bins[key], weight * __popc(peers));
    // STUB: (void)bins;
    // STUB: (void)active;
    // STUB: (void)key;
    // STUB: (void)weight;
    // END SOLUTION
}

/* The 4 keys of one int4 of every active lane into this warp's private bins. The
 * probe costs a shuffle and two votes, and its answers are the same in every lane,
 * so all lanes take the same branch:
 *     first = lowest lane of active
 *     all4  = every active lane holds 4 equal keys            (__all_sync)
 *     share = lanes whose k.x equals the first lane's k.x      (__shfl_sync, __ballot_sync)
 *     if popc(share) < SW_MATCH_MIN:                           nothing to aggregate
 *         all4 ? each lane adds 4 to k.x : each lane adds 1 to k.x, k.y, k.z, k.w
 *     else if all4:                                            one key per lane
 *         share == active ? the first lane adds 4 * popc(active) to k.x (the whole warp)
 *                         : add_matched(k.x, weight 4)
 *     else:
 *         add_matched(k.x, 1), add_matched(k.y, 1), add_matched(k.z, 1), add_matched(k.w, 1) */
__device__ __forceinline__ void add_quad(int *bins, unsigned active, int4 k)
{
    // BEGIN SOLUTION (Step 1.5): the probe and the decision tree above, exactly
    const int first = __ffs(active) - 1;
    bool all4 = __all_sync(active, k.x == k.y && k.x == k.z && k.x == k.w);
    unsigned share = __ballot_sync(active, k.x == __shfl_sync(active, k.x, first));
    if (__popc(share) < SW_MATCH_MIN) {
        if (all4) {
            atomicAdd(&bins[k.x], 4);
        } else {
            atomicAdd(&bins[k.x], 1);
            atomicAdd(&bins[k.y], 1);
            atomicAdd(&bins[k.z], 1);
            atomicAdd(&bins[k.w], 1);
        }
    } else if (all4) {
        if (share != active)
            add_matched(bins, active, k.x, 4);
        else if (lab1_lane_id() == first)
            atomicAdd(&bins[k.x], 4 * __popc(active));
    } else {
        add_matched(bins, active, k.x, 1);
        add_matched(bins, active, k.y, 1);
        add_matched(bins, active, k.z, 1);
        add_matched(bins, active, k.w, 1);
    }
    // STUB: (void)bins;
    // STUB: (void)active;
    // STUB: (void)k;
    // END SOLUTION
}

/* One int4 of keys; READ_ONCE: with __ldcs (ld.global.cs), whose lines are the
 * first to be evicted from L1 and L2 (idea 6). */
template <bool READ_ONCE> __device__ __forceinline__ int4 load_quad(const int4 *p)
{
    return READ_ONCE ? __ldcs(p) : *p;
}

/* The full tiles of 32 * VT keys, one per warp in turn: every lane issues its
 * LOADS int4 loads before the first add_quad (the compiler does not move loads
 * above atomics by itself, so this is what keeps LOADS loads in flight). */
template <bool READ_ONCE>
__device__ __forceinline__ void add_full_tiles(int *mine, const int4 *quads, size_t tiles, size_t my_warp,
                                               size_t warps)
{
    // BEGIN SOLUTION (Step 1.5): for tile t = my_warp, my_warp + warps, ... < tiles: load_quad<READ_ONCE>(&quads[t * 32 * LOADS + u * 32 + lane]) for u < LOADS into registers, then add_quad(mine, full mask, ...) each
    const int lane = lab1_lane_id();
    for (size_t t = my_warp; t < tiles; t += warps) {
        const int4 *tile = quads + t * LOADS * LAB1_WARP;
        int4 k[LOADS];
#pragma unroll
        for (int u = 0; u < LOADS; u++)
            k[u] = load_quad<READ_ONCE>(&tile[u * LAB1_WARP + lane]);
#pragma unroll
        for (int u = 0; u < LOADS; u++)
            add_quad(mine, KIT_FULL_MASK, k[u]);
    }
    // STUB: (void)mine;
    // STUB: (void)quads;
    // STUB: (void)tiles;
    // STUB: (void)my_warp;
    // STUB: (void)warps;
    // END SOLUTION
}

/* What the full tiles leave: the quads from first_quad on, 32 per warp in turn, one
 * per lane (a partial last step: active = the lanes that hold a quad); then block
 * 0 adds the last n % 4 keys, which fill no int4. */
__device__ __forceinline__ void add_tail(int *mine, const int *keys, size_t n, size_t first_quad, size_t my_warp,
                                         size_t warps)
{
    // BEGIN SOLUTION (Step 1.5): the loop bound depends on the warp only, so all 32 lanes vote together: active = __ballot_sync(full mask, q < n / 4) before add_quad; then the n % 4 last keys with plain atomics
    const size_t quads = n / 4;
    const int lane = lab1_lane_id();
    for (size_t q0 = first_quad + my_warp * LAB1_WARP; q0 < quads; q0 += warps * LAB1_WARP) {
        size_t q = q0 + lane;
        unsigned active = __ballot_sync(KIT_FULL_MASK, q < quads);
        if (q < quads)
            add_quad(mine, active, reinterpret_cast<const int4 *>(keys)[q]);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 4)
        atomicAdd(&mine[keys[quads * 4 + threadIdx.x]], 1);
    // STUB: (void)mine;
    // STUB: (void)keys;
    // STUB: (void)n;
    // STUB: (void)first_quad;
    // STUB: (void)my_warp;
    // STUB: (void)warps;
    // END SOLUTION
}

/* The last-block pattern: every block has added its sums into work[0..bins); the
 * block that draws the last ticket (work[bins]) copies them into counts and leaves
 * work at zero for the next launch. Release: each thread fences its own merge
 * atomics, then the barrier, then one thread takes the ticket. Acquire: the last
 * block fences after it has seen the ticket, before it reads any sum. */
__device__ __forceinline__ void finish_in_last_block(int *counts, int *work, int bins)
{
    // BEGIN SOLUTION (Step 1.5): __threadfence(); __syncthreads(); thread 0: last = atomicAdd(&work[bins], 1) == gridDim.x - 1 (a __shared__ bool); __syncthreads(); in the last block only: __threadfence(), then counts[b] = atomicExch(&work[b], 0) for every bin and work[bins] = 0
    __shared__ bool last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(&work[bins], 1) == (int)gridDim.x - 1;
    __syncthreads();
    if (!last)
        return;
    __threadfence();
    for (int b = threadIdx.x; b < bins; b += NT)
        counts[b] = atomicExch(&work[b], 0);
    if (threadIdx.x == 0)
        work[bins] = 0;
    // STUB: (void)counts;
    // STUB: (void)work;
    // STUB: (void)bins;
    // END SOLUTION
}

template <bool READ_ONCE>
__global__ void histogram_smem_warp(const int *__restrict__ keys, size_t n, int bins, int copies, int *counts,
                                    int *work)
{
    int *mine = zero_copies<int>(copies, bins);
    const size_t warps = (size_t)gridDim.x * WARPS, my_warp = (size_t)blockIdx.x * WARPS + threadIdx.x / LAB1_WARP;
    const size_t tiles = n / (LAB1_WARP * VT);
    /* cudaMalloc'd keys are 256-byte aligned: int4 loads are legal */
    add_full_tiles<READ_ONCE>(mine, reinterpret_cast<const int4 *>(keys), tiles, my_warp, warps);
    add_tail(mine, keys, n, tiles * LAB1_WARP * LOADS, my_warp, warps);
    __syncthreads();
    merge_copies(copies, bins, work);
    finish_in_last_block(counts, work, bins);
}

/* One scatter-add element per lane: the probe of add_quad on one key. Aggregate
 * (the whole warp, or the match groups) and sum each group by Stage 2, or add
 * plainly. */
__device__ __forceinline__ void add_one(double *bins, unsigned active, int key, double v)
{
    // BEGIN SOLUTION (Step 1.5): share = lanes whose key is the first lane's key; fewer than SW_MATCH_MIN: a plain shared atomicAdd; else peers = share == active ? active : __match_any_sync(active, key), Stage 2 (lab1_reduce_peers<double, false>), the leader adds
    unsigned share = __ballot_sync(active, key == __shfl_sync(active, key, __ffs(active) - 1));
    if (__popc(share) < SW_MATCH_MIN) {
        atomicAdd(&bins[key], v);
        return;
    }
    unsigned peers = share == active ? active : __match_any_sync(active, key);
    double sum = lab1_reduce_peers<double, false>(active, peers, v, nullptr);
    if (lab1_lane_id() == __ffs(peers) - 1)
        atomicAdd(&bins[key], sum);
    // STUB: (void)bins;
    // STUB: (void)active;
    // STUB: (void)key;
    // STUB: (void)v;
    // END SOLUTION
}

__global__ void scatter_add_smem_warp(const int *__restrict__ keys, const double *__restrict__ values, size_t n,
                                      int bins, int copies, double *sums)
{
    double *mine = zero_copies<double>(copies, bins);
    const size_t warp_first = (size_t)blockIdx.x * NT + threadIdx.x / LAB1_WARP * LAB1_WARP;
    /* A warp's 32 consecutive elements per step; the loop bound is the warp's, so
     * all 32 lanes vote together. */
    for (size_t i0 = warp_first; i0 < n; i0 += (size_t)gridDim.x * NT) {
        size_t i = i0 + lab1_lane_id();
        unsigned active = __ballot_sync(KIT_FULL_MASK, i < n);
        if (i < n)
            add_one(mine, active, keys[i], values[i]);
    }
    __syncthreads();
    merge_copies(copies, bins, sums);
}

extern "C" int lab1_smem_warp_budget(const lab1_io *io, lab1_op op, lab1_smem_budget *out)
{
    return op == LAB1_HISTOGRAM
               ? lab1_smem_budget_of(histogram_smem_warp<false>, io, sizeof(int), SW_MAX_COPIES, out)
               : lab1_smem_budget_of(scatter_add_smem_warp, io, sizeof(double), SW_MAX_COPIES, out);
}

extern "C" int lab1_smem_warp_histogram(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.5): kernel = histogram_smem_warp<true> while n * 4 bytes <= SW_READ_ONCE_L2S * io->l2_bytes, else <false>; lab1_smem_warp_budget, lab1_smem_prepare(kernel, ..., kit_div_up(n, NT * VT) blocks needed (rounded up; the grid-stride loops are right either way, and the occupancy and the cap usually decide), SW_HIST_BLOCKS_PER_SM); copies 0: lab1_warp_match<int>; n == 0: zero the counts, done; else launch kernel with setup.plan.copies copies (it writes every count: no memset)
    const bool read_once = io->n * sizeof(int) <= (size_t)SW_READ_ONCE_L2S * io->l2_bytes;
    auto kernel = read_once ? histogram_smem_warp<true> : histogram_smem_warp<false>;
    lab1_smem_budget limits;
    lab1_smem_launch setup;
    if (int err = lab1_smem_warp_budget(io, LAB1_HISTOGRAM, &limits))
        return err;
    if (int err = lab1_smem_prepare(kernel, io, &limits, NT, kit_div_up(io->n, (size_t)NT * VT),
                                    SW_HIST_BLOCKS_PER_SM, &setup))
        return err;
    if (setup.plan.copies == 0)
        return lab1_warp_match<int>(io, stream);
    if (io->n == 0)
        return lab1_zero_bins<int>(io, stream);
    kernel<<<setup.grid, NT, setup.plan.bytes, stream>>>(io->keys, io->n, io->bins, setup.plan.copies, io->counts,
                                                         io->work);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io;
    // STUB: (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab1_smem_warp_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.5): as the histogram with one element per lane, no cap on blocks per SM, and a memset of the sums first (this kernel only adds into them: no scratch, no ticket)
    lab1_smem_budget limits;
    lab1_smem_launch setup;
    if (int err = lab1_smem_warp_budget(io, LAB1_SCATTER_ADD, &limits))
        return err;
    if (int err = lab1_smem_prepare(scatter_add_smem_warp, io, &limits, NT, kit_div_up(io->n, NT), 0, &setup))
        return err;
    if (setup.plan.copies == 0)
        return lab1_warp_match<double>(io, stream);
    if (int err = lab1_zero_bins<double>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    scatter_add_smem_warp<<<setup.grid, NT, setup.plan.bytes, stream>>>(io->keys, io->values, io->n, io->bins,
                                                                        setup.plan.copies, io->sums);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io;
    // STUB: (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}
