/* Step 1.5: privatization and warp aggregation together, tuned for throughput.
 *
 * - Private bins in shared memory, several copies per block (one per warp when
 *   they fit in 48 KB: 8 copies of 256 counts = 8 KB), so the warps of a block do
 *   not contend on one copy; merged into global memory once per block.
 * - A grid of a few blocks per multiprocessor with a grid-stride loop, and, for the
 *   histogram, 16-byte int4 loads: 4 keys per lane, 128 per warp per load, and
 *   SW_LOADS of them issued before any is processed (more bytes in flight).
 * - Histogram: no memset launch. Blocks merge into scratch sums that are zero
 *   between launches; the last block copies them into the counts and zeroes them.
 * - Aggregation only when it pays. A cheap probe first: how many lanes share the
 *   first lane's key (one shuffle, one vote)? If the whole warp holds one key, one
 *   lane adds it all. If at least SW_MATCH_MIN lanes share it, __match_any_sync
 *   finds the groups and one lane per group adds (Stage 2 of step 1.3 sums the
 *   doubles). Otherwise plain shared atomics: there is nothing to aggregate.
 * - Bins that do not fit in shared memory: warp-match's global path.
 * Expect: the fastest row for the histogram at 256 bins on every distribution;
 * close to the memory bandwidth when the warp's keys collide. */
#include "lab1.h"
#include "lab1_value.cuh"
#include "lab1_warp.cuh"

#define SW_NT 256
#define SW_WARPS (SW_NT / LAB1_WARP)
#define SW_BLOCKS_PER_SM 8 /* scatter-add */
/* The histogram, tuned on an H200 (lecture 1): blocks per multiprocessor, and the
 * int4 loads each lane has in flight. */
#ifndef SW_HIST_BLOCKS_PER_SM
#define SW_HIST_BLOCKS_PER_SM 4
#endif
#ifndef SW_LOADS
#define SW_LOADS 8
#endif
/* Aggregate when at least this many lanes share the first lane's key. */
#define SW_MATCH_MIN 4

/* One histogram key per lane, each adding `weight`: aggregated over the peers. */
__device__ __forceinline__ void add_matched(int *bins, unsigned active, int key, int weight)
{
    // BEGIN SOLUTION (Step 1.5): peers = __match_any_sync(active, key); the lowest peer adds weight * __popc(peers)
    unsigned peers = __match_any_sync(active, key);
    if (lab1_lane_id() == __ffs(peers) - 1)
        atomicAdd(&bins[key], weight * __popc(peers));
    // END SOLUTION
}

/* The 4 keys of one int4 of every active lane into this warp's private bins. */
__device__ __forceinline__ void add_quad(int *bins, unsigned active, int4 k)
{
    // BEGIN SOLUTION (Step 1.5): probe (same4 = my 4 keys equal; __all_sync of same4; __ballot_sync of "my k.x is the first lane's k.x"), then: one atomic for the warp / match on k.x with weight 4 / match each of the 4 keys / 4 plain atomics
    const int lane = lab1_lane_id(), first = __ffs(active) - 1;
    bool same4 = k.x == k.y && k.x == k.z && k.x == k.w;
    bool all4 = __all_sync(active, same4);
    int first_key = __shfl_sync(active, k.x, first);
    unsigned share = __ballot_sync(active, k.x == first_key);
    bool aggregate = __popc(share) >= SW_MATCH_MIN;
    if (all4) { /* every lane holds one key, 4 times */
        if (share == active) {
            if (lane == first)
                atomicAdd(&bins[k.x], 4 * __popc(active)); /* the whole warp: one atomic */
        } else if (aggregate) {
            add_matched(bins, active, k.x, 4);
        } else {
            atomicAdd(&bins[k.x], 4);
        }
    } else if (aggregate) {
        add_matched(bins, active, k.x, 1);
        add_matched(bins, active, k.y, 1);
        add_matched(bins, active, k.z, 1);
        add_matched(bins, active, k.w, 1);
    } else {
        atomicAdd(&bins[k.x], 1);
        atomicAdd(&bins[k.y], 1);
        atomicAdd(&bins[k.z], 1);
        atomicAdd(&bins[k.w], 1);
    }
    // END SOLUTION
}

__global__ void histogram_smem_warp(const int *__restrict__ keys, size_t n, int bins, int copies,
                                    int *counts, int *work)
{
    // BEGIN SOLUTION (Step 1.5): zero copies * bins shared counters; barrier; full tiles of SW_LOADS * 32 int4 per warp (all loads first, then add_quad each); the last quads one per lane (active = __ballot_sync(full, quad < quads)); block 0 adds the last n % 4 keys; barrier; merge the copies into work[0..bins) with atomics; the last block to take the ticket work[bins] copies work into counts and zeroes work
    extern __shared__ __align__(16) unsigned char smem_raw[];
    int *shared_bins = reinterpret_cast<int *>(smem_raw);
    for (int j = threadIdx.x; j < copies * bins; j += SW_NT)
        shared_bins[j] = 0;
    __syncthreads();
    const int lane = lab1_lane_id(), warp = threadIdx.x / LAB1_WARP;
    int *mine = shared_bins + (warp % copies) * bins;
    const int4 *quads = reinterpret_cast<const int4 *>(keys); /* cudaMalloc: 256-byte aligned */
    const size_t nquads = n / 4, warps = (size_t)gridDim.x * SW_WARPS;
    const size_t my_warp = (size_t)blockIdx.x * SW_WARPS + warp;
    /* Full tiles of SW_LOADS * 32 quads per warp. Every load is issued before the
     * first shared atomic: the compiler does not move loads above atomics itself,
     * so this is what keeps SW_LOADS loads per lane in flight. */
    const size_t tile = (size_t)SW_LOADS * LAB1_WARP, tiles = nquads / tile;
    for (size_t t = my_warp; t < tiles; t += warps) {
        int4 k[SW_LOADS];
#pragma unroll
        for (int u = 0; u < SW_LOADS; u++)
            k[u] = quads[t * tile + (size_t)u * LAB1_WARP + lane];
#pragma unroll
        for (int u = 0; u < SW_LOADS; u++)
            add_quad(mine, LAB1_FULL_MASK, k[u]);
    }
    /* The last nquads % tile quads, one per lane. The loop bound depends on the warp
     * only, so all 32 lanes vote together. */
    for (size_t q0 = tiles * tile + my_warp * LAB1_WARP; q0 < nquads; q0 += warps * LAB1_WARP) {
        size_t q = q0 + lane;
        unsigned active = __ballot_sync(LAB1_FULL_MASK, q < nquads);
        if (q < nquads)
            add_quad(mine, active, quads[q]);
    }
    if (blockIdx.x == 0 && threadIdx.x < n % 4)
        atomicAdd(&mine[keys[nquads * 4 + threadIdx.x]], 1);
    __syncthreads();
    /* Merge into the scratch sums, which start at zero: so the counts need no
     * memset launch of their own. */
    for (int b = threadIdx.x; b < bins; b += SW_NT) {
        int sum = 0;
        for (int c = 0; c < copies; c++)
            sum += shared_bins[c * bins + b];
        if (sum)
            atomicAdd(&work[b], sum);
    }
    /* The last block to finish copies the sums into counts and leaves the scratch
     * at zero for the next launch. Each thread's fence makes its atomics visible
     * before the ticket that says "this block is done" (the threadFenceReduction
     * pattern). */
    __shared__ bool last;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0)
        last = atomicAdd(&work[bins], 1) == (int)gridDim.x - 1;
    __syncthreads();
    if (last) {
        __threadfence(); /* acquire: see every other block's sums before reading them */
        for (int b = threadIdx.x; b < bins; b += SW_NT)
            counts[b] = atomicExch(&work[b], 0);
        if (threadIdx.x == 0)
            work[bins] = 0; /* the ticket */
    }
    // END SOLUTION
}

__global__ void scatter_add_smem_warp(const int *__restrict__ keys, const double *__restrict__ values,
                                      size_t n, int bins, int copies, double *sums)
{
    // BEGIN SOLUTION (Step 1.5): as the histogram with one element per lane per step: probe; if at least SW_MATCH_MIN lanes share the first key: peers (the whole warp, or __match_any_sync), Stage 2 (lab1_reduce_peers<double, false>), leader adds; else a plain shared atomicAdd; merge
    extern __shared__ __align__(16) unsigned char smem_raw[];
    double *shared_bins = reinterpret_cast<double *>(smem_raw);
    for (int j = threadIdx.x; j < copies * bins; j += SW_NT)
        shared_bins[j] = 0;
    __syncthreads();
    const int lane = lab1_lane_id(), warp = threadIdx.x / LAB1_WARP;
    double *mine = shared_bins + (warp % copies) * bins;
    size_t stride = (size_t)gridDim.x * SW_NT;
    for (size_t i0 = (size_t)blockIdx.x * SW_NT + (size_t)warp * LAB1_WARP; i0 < n; i0 += stride) {
        size_t i = i0 + lane;
        unsigned active = __ballot_sync(LAB1_FULL_MASK, i < n);
        if (i >= n)
            continue; /* the warp's last step: its next i0 is past n */
        int key = keys[i];
        double v = values[i];
        int first_key = __shfl_sync(active, key, __ffs(active) - 1);
        unsigned share = __ballot_sync(active, key == first_key);
        if (__popc(share) >= SW_MATCH_MIN) {
            unsigned peers = share == active ? active : __match_any_sync(active, key);
            double sum = lab1_reduce_peers<double, false>(active, peers, v, nullptr);
            if (lane == __ffs(peers) - 1)
                atomicAdd(&mine[key], sum);
        } else {
            atomicAdd(&mine[key], v);
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += SW_NT) {
        double sum = 0;
        for (int c = 0; c < copies; c++)
            sum += shared_bins[c * bins + b];
        if (sum != 0)
            atomicAdd(&sums[b], sum);
    }
    // END SOLUTION
}

/* Copies of the bins per block: one per warp (or per 2, 4, 8 warps) within 48 KB;
 * else one copy with the opt-in limit; 0: the bins do not fit. */
[[maybe_unused]] static int copies_for(const lab1_io *io, size_t elem)
{
    int copies = lab1_smem_copies(io->bins, elem, SW_WARPS, LAB1_SMEM_DEFAULT);
    return copies ? copies : lab1_smem_copies(io->bins, elem, 1, io->smem_optin);
}

/* Blocks for `work` units of SW_NT: at least one, at most per_sm per SM. */
[[maybe_unused]] static unsigned grid_for(const lab1_io *io, size_t work, int per_sm)
{
    size_t blocks = kit_div_up(work, SW_NT), most = (size_t)per_sm * (io->sms > 0 ? io->sms : 1);
    blocks = blocks < most ? blocks : most;
    return blocks ? (unsigned)blocks : 1u;
}

template <typename Kernel> static int opt_in(Kernel kernel, size_t smem)
{
    if (smem <= LAB1_SMEM_DEFAULT)
        return 0;
    return KIT_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
}

extern "C" int lab1_smem_warp_histogram(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.5): copies = copies_for(io, sizeof(int)); 0: warp-match's launcher; n == 0: zero the counts, done; else opt_in, launch grid_for(io, tiles of SW_LOADS quads per thread) blocks with copies * bins * 4 bytes of shared memory (the kernel writes every count: no memset)
    int copies = copies_for(io, sizeof(int));
    if (copies == 0)
        return lab1_warp_match_histogram(io, stream);
    if (io->n == 0)
        return lab1_zero_bins<int>(io, stream);
    size_t smem = (size_t)copies * io->bins * sizeof(int);
    if (int err = opt_in(histogram_smem_warp, smem))
        return err;
    unsigned blocks = grid_for(io, kit_div_up(io->n / 4, SW_LOADS), SW_HIST_BLOCKS_PER_SM);
    histogram_smem_warp<<<blocks, SW_NT, smem, stream>>>(io->keys, io->n, io->bins, copies, io->counts,
                                                        io->work);
    return KIT_LAUNCH_CHECK();
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab1_smem_warp_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.5): zero the sums first (this kernel only adds into them: no scratch, no ticket); then copies_for, opt_in and grid_for as for the histogram, one element per lane
    int copies = copies_for(io, sizeof(double));
    if (copies == 0)
        return lab1_warp_match_scatter_add(io, stream);
    if (int err = lab1_zero_bins<double>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    size_t smem = (size_t)copies * io->bins * sizeof(double);
    if (int err = opt_in(scatter_add_smem_warp, smem))
        return err;
    scatter_add_smem_warp<<<grid_for(io, io->n, SW_BLOCKS_PER_SM), SW_NT, smem, stream>>>(io->keys, io->values, io->n,
                                                                      io->bins, copies, io->sums);
    return KIT_LAUNCH_CHECK();
    // STUB: return KIT_TODO;
    // END SOLUTION
}
