/* Step 3.2: the classic three-phase grid scan with register blocking: each
 * thread owns VT consecutive values of a tile of NV = NT x VT.
 *
 *   1. upsweep: every tile reduces its NV values to one total (reads n);
 *   2. spine: the tile totals are scanned (exclusive) by the same method,
 *      recursively, until one tile is left (tiny);
 *   3. downsweep: every tile loads its values again, scans them and adds its
 *      tile's prefix from the spine (reads n, writes n).
 *
 * Inside a tile the work is "sequential, then parallel, then sequential": a
 * thread sums its VT values in registers (no communication), the block scans the
 * NT thread totals (warp shuffles), then each thread scans its VT values again
 * starting from its prefix. Loading goes through shared memory so that global
 * reads stay coalesced while each thread still gets VT *consecutive* items
 * (the transpose in lab3_load_tile); VT is odd so the transposed reads hit 32
 * different banks.
 *
 * Still slow: the input is read twice, about 3n memory traffic against the 2n
 * of a copy, plus three dependent launches. Expect: near 2/3 of the copy rate at
 * 2^28, launch latency dominating small n (lecture 3, Step 3.2's table). */
#include "lab3_block_scan.cuh"
#include "lab3_tile_load.cuh"

enum { NT = LAB3_BLOCKED_NT, VT = LAB3_BLOCKED_VT, NV = NT * VT };

/* Phase 1: tile_totals[t] = sum of tile t. */
template <typename T>
__global__ void rts_upsweep(const T *in, size_t n, T *tile_totals)
{
    // TODO(Step 3.2): each thread sums its VT values in[base + k*NT + tid] (coalesced; 0 past count); reduce the block: lab3_warp_sum per warp, lane 0 -> __shared__ warp_totals[NT/32], barrier, warp 0 sums them with lab3_warp_sum; thread 0 writes tile_totals[blockIdx.x] (about 20 lines)
}

/* Phase 3: scan each tile starting from offsets[t] (0 when offsets is NULL). */
template <typename T>
__global__ void rts_downsweep(const T *in, T *out, size_t n, int exclusive, const T *offsets)
{
    // TODO(Step 3.2): load the tile transposed, thread sums, block exclusive scan, thread scan from (offset + prefix), store (about 16 lines)
}

template <typename T>
static int rts_scan(const T *in, T *out, size_t n, int exclusive, T *spine, cudaStream_t stream)
{
    // TODO(Step 3.2): one tile: downsweep alone (offsets NULL); else upsweep into spine, rts_scan(totals, totals, tiles, 1, spine + tiles), downsweep with the totals as offsets (about 12 lines)
    (void)in, (void)out, (void)n, (void)exclusive, (void)spine, (void)stream;
    return KIT_TODO;
}

extern "C" int lab3_reduce_then_scan(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    if (lab3_spine_entries(io->n, NV) * lab3_type_bytes(io->type) > io->ws->spine_bytes)
        return KIT_CHECK(cudaErrorInvalidValue);
    if (io->type == LAB3_I32)
        return rts_scan<unsigned int>((const unsigned int *)io->in, (unsigned int *)io->out, io->n,
                                      io->exclusive, (unsigned int *)io->ws->spine, stream);
    return rts_scan<unsigned long long>((const unsigned long long *)io->in, (unsigned long long *)io->out,
                                        io->n, io->exclusive, (unsigned long long *)io->ws->spine, stream);
}
