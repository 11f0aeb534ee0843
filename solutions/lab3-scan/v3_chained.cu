/* Step 3.3: a single pass. Each tile scans itself, then waits for its
 * predecessor's inclusive prefix, adds its own total and publishes the result for
 * its successor: the prefix is passed down the tiles like a baton.
 *
 * Tile ids come from an atomic ticket counter, not from blockIdx: a block only
 * takes a ticket once it is running, so the tile it waits for belongs to a block
 * that is already running too and will finish, whatever order the hardware
 * starts blocks in. (With blockIdx, block 1000 could occupy the GPU spinning on
 * block 999, which has not been scheduled: a deadlock the CUDA model permits.)
 * The status entry packs flag and value together (lab3_tile.h), so one store
 * publishes both and the reader needs no fence. The array is reset at the start
 * of every launch (part of the measured time). lab3_tile_status (lab3_lookback.cuh)
 * holds the ticket (take_tile), the stores (set_inclusive) and the loads (load).
 *
 * What is slow: the waits form a chain through all tiles; each link costs a
 * store and a load that travel through L2 (a fraction of a microsecond), so the
 * scan cannot go faster than tiles x link latency, however fast the memory is.
 * Expect: reads n and writes n like a copy, yet under 2% of the copy rate at
 * large n, the same time per tile at every size (lecture 3, Step 3.3's table). */
#include "lab3_block_scan.cuh"
#include "lab3_lookback.cuh"
#include "lab3_tile_load.cuh"

enum { NT = LAB3_BLOCKED_NT, VT = LAB3_BLOCKED_VT, NV = NT * VT };

template <typename T>
__global__ void chained_scan(const T *in, T *out, size_t n, int exclusive, lab3_tile_status<T> status)
{
    // BEGIN SOLUTION (Step 3.3): tile id from status.take_tile(); scan the tile as in 3.2; thread 0 spins on status.load(t-1) until P (no back-off), publishes P (tile 0 at once), puts the prefix in a __shared__ variable; barrier; thread scan and store
    __shared__ T tile[NV];
    __shared__ T warp_sums[NT / 32 + 1];
    __shared__ T tile_prefix;
    const unsigned int t = status.take_tile();
    size_t base = (size_t)t * NV;
    size_t count = kit_tile_items(n, NV, t);

    T v[VT];
    lab3_load_tile<NT, VT>(in + base, count, tile, v);
    T mine = 0;
#pragma unroll
    for (int k = 0; k < VT; k++)
        mine += v[k];
    T aggregate;
    T prefix = lab3_block_exclusive_scan<NT>(mine, warp_sums, aggregate);

    if (threadIdx.x == 0) {
        T before = 0;
        if (t > 0) {
            while (status.load((long long)t - 1, before) != LAB3_STATUS_P) {
                /* spin, without backing off: this step measures the link latency of the
                 * chain (the predecessor is running: it took its ticket first) */
            }
        }
        status.set_inclusive(t, before + aggregate);
        tile_prefix = before;
    }
    __syncthreads();
    lab3_thread_scan(v, tile_prefix + prefix, exclusive);
    lab3_store_tile<NT, VT>(out + base, count, tile, v);
    // END SOLUTION
}

template <typename T>
static int chained(const lab3_scan_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 3.3): reset the ticket and status array (lab3_tile_status<T>::reset), then launch one block per tile
    size_t tiles = kit_div_up(io->n, NV);
    if (int err = lab3_tile_status<T>::reset(io->ws, tiles, stream))
        return err;
    chained_scan<T><<<tiles, NT, 0, stream>>>((const T *)io->in, (T *)io->out, io->n, io->exclusive,
                                              lab3_tile_status<T>{ io->ws->status });
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io, (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab3_chained(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    return io->type == LAB3_I32 ? chained<unsigned int>(io, stream) : chained<unsigned long long>(io, stream);
}
