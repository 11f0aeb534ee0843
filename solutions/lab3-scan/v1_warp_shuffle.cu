/* Step 3.1: the same two-level scan as Step 3.0, but the scan inside a tile is
 * done in registers with warp shuffles instead of log2(NT) rounds through shared
 * memory.
 *
 * Each warp scans its 32 values with __shfl_up_sync (5 steps, no barrier: lanes
 * of a warp exchange registers directly); lane 31 of each warp now holds the warp
 * total and writes it to shared memory; after one barrier, warp 0 scans those
 * (at most 32) totals the same way; after a second barrier every thread adds the
 * exclusive prefix of its warp. Two barriers per tile instead of eight, and tiles
 * of 1024 so the second level has 4x fewer tiles. The warp and block scans are
 * lab3_warp_inclusive_scan and lab3_block_exclusive_scan in lab3_block_scan.cuh:
 * you write them in this step, and every later step builds on them.
 *
 * Still slow: one value per thread (little memory in flight per thread), and the
 * second level still writes the output, then reads and writes it again to add
 * the tile offsets (~4n traffic). Expect: faster than 3.0 at mid sizes (about
 * 1.4x at 2^17 and 2^20), hardly at large n, and under a quarter of memcpy at
 * 2^24 and 2^28, int32 (lecture 3, Step 3.1's table). */
#include "lab3_block_scan.cuh"

enum { NT = LAB3_WARP_NT, VT = 1, NV = NT * VT }; /* one value per thread */

template <typename T>
__global__ void warp_scan_tiles(const T *in, T *out, size_t n, int exclusive, T *tile_totals)
{
    // BEGIN SOLUTION (Step 3.1): load one value (0 past n), lab3_block_exclusive_scan<NT> (which you write in lab3_block_scan.cuh), store; thread 0 writes the tile total
    __shared__ T warp_sums[NT / 32 + 1];
    size_t i = (size_t)blockIdx.x * NV + threadIdx.x;
    T x = i < n ? in[i] : T(0); /* every lane takes part in the shuffles: 0 past the end */
    T aggregate;
    T prefix = lab3_block_exclusive_scan<NT>(x, warp_sums, aggregate);
    if (i < n)
        out[i] = exclusive ? prefix : prefix + x;
    if (tile_totals && threadIdx.x == 0)
        tile_totals[blockIdx.x] = aggregate;
    // END SOLUTION
}

template <typename T>
static int warp_scan(const T *in, T *out, size_t n, int exclusive, T *spine, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 3.1): scan the tiles, then (if more than one) scan their totals recursively and add them
    size_t tiles = kit_div_up(n, NV);
    T *totals = tiles > 1 ? spine : NULL;
    warp_scan_tiles<T><<<tiles, NT, 0, stream>>>(in, out, n, exclusive, totals);
    if (int err = KIT_LAUNCH_CHECK())
        return err;
    if (tiles == 1)
        return 0;
    if (int err = warp_scan<T>(totals, totals, tiles, 1, spine + tiles, stream))
        return err;
    return lab3_launch_add_tile_offsets<T>(out, n, totals, NV, stream);
    // STUB: (void)in, (void)out, (void)n, (void)exclusive, (void)spine, (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab3_warp_shuffle(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    if (lab3_spine_entries(io->n, NV) * lab3_type_bytes(io->type) > io->ws->spine_bytes)
        return KIT_CHECK(cudaErrorInvalidValue);
    if (io->type == LAB3_I32)
        return warp_scan<unsigned int>((const unsigned int *)io->in, (unsigned int *)io->out, io->n,
                                       io->exclusive, (unsigned int *)io->ws->spine, stream);
    return warp_scan<unsigned long long>((const unsigned long long *)io->in, (unsigned long long *)io->out,
                                         io->n, io->exclusive, (unsigned long long *)io->ws->spine, stream);
}
