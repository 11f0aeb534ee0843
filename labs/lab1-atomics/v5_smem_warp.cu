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
    // TODO(Step 1.5): peers = __match_any_sync(active, key); the lowest peer adds weight * __popc(peers) (about 3 lines)
}

/* The 4 keys of one int4 of every active lane into this warp's private bins. */
__device__ __forceinline__ void add_quad(int *bins, unsigned active, int4 k)
{
    // TODO(Step 1.5): probe (same4 = my 4 keys equal; __all_sync of same4; __ballot_sync of "my k.x is the first lane's k.x"), then: one atomic for the warp / match on k.x with weight 4 / match each of the 4 keys / 4 plain atomics (about 26 lines)
}

__global__ void histogram_smem_warp(const int *__restrict__ keys, size_t n, int bins, int copies,
                                    int *counts, int *work)
{
    // TODO(Step 1.5): zero copies * bins shared counters; barrier; full tiles of SW_LOADS * 32 int4 per warp (all loads first, then add_quad each); the last quads one per lane (active = __ballot_sync(full, quad < quads)); block 0 adds the last n % 4 keys; barrier; merge the copies into work[0..bins) with atomics; the last block to take the ticket work[bins] copies work into counts and zeroes work (about 60 lines)
}

__global__ void scatter_add_smem_warp(const int *__restrict__ keys, const double *__restrict__ values,
                                      size_t n, int bins, int copies, double *sums)
{
    // TODO(Step 1.5): as the histogram with one element per lane per step: probe; if at least SW_MATCH_MIN lanes share the first key: peers (the whole warp, or __match_any_sync), Stage 2 (lab1_reduce_peers<double, false>), leader adds; else a plain shared atomicAdd; merge (about 34 lines)
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
    // TODO(Step 1.5): copies = copies_for(io, sizeof(int)); 0: warp-match's launcher; n == 0: zero the counts, done; else opt_in, launch grid_for(io, tiles of SW_LOADS quads per thread) blocks with copies * bins * 4 bytes of shared memory (the kernel writes every count: no memset) (about 12 lines)
    return KIT_TODO;
}

extern "C" int lab1_smem_warp_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    // TODO(Step 1.5): zero the sums first (this kernel only adds into them: no scratch, no ticket); then copies_for, opt_in and grid_for as for the histogram, one element per lane (about 13 lines)
    return KIT_TODO;
}
