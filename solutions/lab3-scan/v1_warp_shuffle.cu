/* Step 3.1: the same two-level scan as Step 3.0, but the scan inside a tile is
 * done in registers with warp shuffles instead of log2(NT) rounds through shared
 * memory.
 *
 * Each warp scans its 32 values with __shfl_up_sync (5 steps, no barrier: lanes
 * of a warp exchange registers directly); lane 31 of each warp now holds the warp
 * total and writes it to shared memory; after one barrier, warp 0 scans those
 * (at most 32) totals the same way; after a second barrier every thread adds the
 * exclusive prefix of its warp. Two barriers per tile instead of eight, and tiles
 * of 1024 so the second level has 4x fewer tiles.
 *
 * Still slow: one value per thread (little memory in flight per thread), and the
 * second level still writes the output, then reads and writes it again to add
 * the tile offsets (~4n traffic). Expect: clearly faster than 3.0, still far from
 * the copy rate. */
#include "lab3_scan.cuh"

#define WS_NT 1024

template <typename T>
__global__ void warp_scan_tiles(const T *in, T *out, size_t n, int exclusive, T *tile_totals)
{
    // BEGIN SOLUTION (Step 3.1): scan each warp with __shfl_up_sync, scan the warp totals with warp 0, add them back
    __shared__ T warp_prefix[WS_NT / 32 + 1];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    size_t i = (size_t)blockIdx.x * WS_NT + threadIdx.x;
    T x = i < n ? in[i] : T(0);

    /* All 32 lanes take part in every shuffle (idle lanes carry 0), so the full mask is right. */
    T inclusive = x;
#pragma unroll
    for (int d = 1; d < 32; d *= 2) {
        T y = __shfl_up_sync(0xffffffffu, inclusive, d);
        if (lane >= d)
            inclusive += y;
    }
    if (lane == 31)
        warp_prefix[warp] = inclusive;
    __syncthreads();

    if (warp == 0) {
        T w = warp_prefix[lane]; /* WS_NT / 32 == 32 warps: every lane has one */
        T w_inclusive = w;
#pragma unroll
        for (int d = 1; d < 32; d *= 2) {
            T y = __shfl_up_sync(0xffffffffu, w_inclusive, d);
            if (lane >= d)
                w_inclusive += y;
        }
        warp_prefix[lane] = w_inclusive - w;
        if (lane == 31)
            warp_prefix[32] = w_inclusive;
    }
    __syncthreads();

    inclusive += warp_prefix[warp];
    if (i < n)
        out[i] = exclusive ? inclusive - x : inclusive;
    if (tile_totals && threadIdx.x == 0)
        tile_totals[blockIdx.x] = warp_prefix[32];
    // END SOLUTION
}

template <typename T>
static int warp_scan(const T *in, T *out, size_t n, int exclusive, T *spine, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 3.1): scan the tiles, then (if more than one) scan their totals recursively and add them
    size_t tiles = lab3_tile_count(n, WS_NT);
    T *totals = tiles > 1 ? spine : NULL;
    warp_scan_tiles<T><<<tiles, WS_NT, 0, stream>>>(in, out, n, exclusive, totals);
    if (int err = KIT_LAUNCH_CHECK())
        return err;
    if (tiles == 1)
        return 0;
    if (int err = warp_scan<T>(totals, totals, tiles, 1, spine + tiles, stream))
        return err;
    return lab3_launch_add_tile_offsets<T>(out, n, totals, WS_NT, stream);
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab3_warp_shuffle(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    if (lab3_spine_entries(io->n, WS_NT) * lab3_type_bytes(io->type) > io->ws->spine_bytes)
        return KIT_CHECK(cudaErrorInvalidValue);
    if (io->type == LAB3_I32)
        return warp_scan<unsigned int>((const unsigned int *)io->in, (unsigned int *)io->out, io->n,
                                       io->exclusive, (unsigned int *)io->ws->spine, stream);
    return warp_scan<unsigned long long>((const unsigned long long *)io->in, (unsigned long long *)io->out,
                                         io->n, io->exclusive, (unsigned long long *)io->ws->spine, stream);
}
