/* Step 3.4: single-pass scan with decoupled look-back (Merrill and Garland).
 *
 * The chain of Step 3.3 is cut by publishing twice. As soon as a tile knows its
 * own total it publishes it with flag A ("aggregate available"); only then does
 * it look for its prefix: it reads its predecessors one at a time, from t-1
 * backwards, adding up their values, until it meets one flagged P ("inclusive
 * prefix available"), whose value already covers everything before it. Then it
 * publishes its own inclusive prefix with flag P. A tile therefore waits for a
 * predecessor only while that predecessor is still X (has not even finished
 * reducing its own tile); it never waits for the whole chain before it to
 * resolve. Tiles that run side by side are all in their load/reduce phase at the
 * same time, so by the time a tile looks back, its neighbours have at least
 * published A, and the nearest P is some tens of tiles back, however large n
 * is (--stats prints how far).
 *
 * Same packing, ticket and per-launch reset as Step 3.3. Look-back here is done
 * by one thread, one predecessor at a time.
 *
 * What is still slow: one thread does the look-back, one dependent L2 round
 * trip per predecessor; loads are scalar (4 or 8 bytes per thread per load).
 * Expect: better than reduce-then-scan at large n (2n traffic instead of 3n),
 * but short of the copy rate. */
#include "lab3_scan.cuh"

#define DL_NT 256
#define DL_VT 9
#define DL_NV (DL_NT * DL_VT)

template <typename T>
__global__ void lookback_scan(const T *in, T *out, size_t n, int exclusive, void *status,
                              unsigned long long *stats)
{
    // BEGIN SOLUTION (Step 3.4): ticket, scan the tile, publish A (P for tile 0), look back until a P, publish P, add and store
    __shared__ T tile[DL_NV];
    __shared__ T warp_sums[DL_NT / 32 + 1];
    __shared__ unsigned int tile_id;
    __shared__ T tile_prefix;
    if (threadIdx.x == 0)
        tile_id = atomicAdd(lab3_ticket(status), 1u);
    __syncthreads();
    const unsigned int t = tile_id;
    size_t base = (size_t)t * DL_NV;
    size_t count = lab3_tile_items(n, DL_NV, t);

    T v[DL_VT];
    lab3_load_tile<DL_NT, DL_VT>(in + base, count, tile, v);
    T mine = 0;
#pragma unroll
    for (int k = 0; k < DL_VT; k++)
        mine += v[k];
    T aggregate;
    T prefix = lab3_block_exclusive_scan<DL_NT>(mine, warp_sums, aggregate);

    if (threadIdx.x == 0) {
        T exclusive_prefix = 0;
        if (t == 0) {
            lab3_status_store(status, 0, LAB3_STATUS_P, aggregate);
        } else {
            lab3_status_store(status, t, LAB3_STATUS_A, aggregate);
            unsigned long long depth = 0, waits = 0;
            long long p = (long long)t - 1; /* tile 0 is always P eventually: p never goes below 0 */
            for (;;) {
                T value;
                uint32_t flag;
                while ((flag = lab3_status_load(status, p, value)) == LAB3_STATUS_X)
                    waits++;
                depth++;
                exclusive_prefix += value;
                if (flag == LAB3_STATUS_P)
                    break;
                p--;
            }
            lab3_status_store(status, t, LAB3_STATUS_P, exclusive_prefix + aggregate);
            lab3_stats_record(stats, depth, waits);
        }
        tile_prefix = exclusive_prefix;
    }
    __syncthreads();
    lab3_thread_scan(v, tile_prefix + prefix, exclusive);
    lab3_store_tile<DL_NT, DL_VT>(out + base, count, tile, v);
    // END SOLUTION
}

template <typename T>
static int decoupled_lookback(const lab3_scan_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 3.4): reset the ticket and status array, then launch one block per tile
    size_t tiles = lab3_tile_count(io->n, DL_NV);
    if (int err = lab3_status_reset<T>(io->ws, tiles, stream))
        return err;
    lookback_scan<T><<<tiles, DL_NT, 0, stream>>>((const T *)io->in, (T *)io->out, io->n, io->exclusive,
                                                  io->ws->status, io->ws->stats);
    return KIT_LAUNCH_CHECK();
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab3_decoupled_lookback(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    return io->type == LAB3_I32 ? decoupled_lookback<unsigned int>(io, stream)
                                : decoupled_lookback<unsigned long long>(io, stream);
}
