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
 * Same packing, ticket and per-launch reset as Step 3.3 (lab3_tile_status): its
 * wait() re-reads a status until it is no longer X, backing off a little between
 * reads. Look-back here is done by one thread, one predecessor at a time.
 *
 * What is still slow: one thread does the look-back, one dependent L2 round
 * trip per predecessor; loads are scalar (4 or 8 bytes per thread per load).
 * Expect: over 15x chained at large n, yet despite its 2n traffic (against 3n)
 * still below reduce-then-scan, at about 0.3 of memcpy for int32: moving only 2n
 * values is not enough on its own (lecture 3, Step 3.5's table). */
#include "lab3_block_scan.cuh"
#include "lab3_lookback.cuh"
#include "lab3_tile_load.cuh"

enum { NT = LAB3_BLOCKED_NT, VT = LAB3_BLOCKED_VT, NV = NT * VT };

/* Thread 0 of tile t > 0, after the tile has published A: walk back from t - 1,
 * waiting while a predecessor is X, adding values until the first P. Returns the
 * tile's exclusive prefix; counts the predecessors read in depth and the reads
 * that found X in waits (for --stats). */
template <typename T>
static __device__ __forceinline__ T lookback_serial(lab3_tile_status<T> status, long long t,
                                                    unsigned long long &depth, unsigned long long &waits)
{
    // TODO(Step 3.4): for p = t-1, t-2, ...: status.wait(p, value, waits), depth++, add its value, stop at the first P (about 10 lines)
    (void)status, (void)t, (void)depth, (void)waits;
    return T(0);
}

template <typename T>
__global__ void lookback_scan(const T *in, T *out, size_t n, int exclusive, lab3_tile_status<T> status,
                              unsigned long long *stats)
{
    // TODO(Step 3.4): ticket, scan the tile, thread 0: publish A (P for tile 0, which records no stats), lookback_serial, publish P, lab3_stats_record once; prefix through shared memory; barrier; thread scan and store (about 30 lines)
}

template <typename T>
static int decoupled_lookback(const lab3_scan_io *io, cudaStream_t stream)
{
    // TODO(Step 3.4): reset the ticket and status array, then launch one block per tile (about 6 lines)
    (void)io, (void)stream;
    return KIT_TODO;
}

extern "C" int lab3_decoupled_lookback(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    return io->type == LAB3_I32 ? decoupled_lookback<unsigned int>(io, stream)
                                : decoupled_lookback<unsigned long long>(io, stream);
}
