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
    // TODO(Step 3.4): ticket, scan the tile, publish A (P for tile 0), look back until a P, publish P, add and store (about 45 lines)
}

template <typename T>
static int decoupled_lookback(const lab3_scan_io *io, cudaStream_t stream)
{
    // TODO(Step 3.4): reset the ticket and status array, then launch one block per tile (about 6 lines)
    return KIT_TODO;
}

extern "C" int lab3_decoupled_lookback(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    return io->type == LAB3_I32 ? decoupled_lookback<unsigned int>(io, stream)
                                : decoupled_lookback<unsigned long long>(io, stream);
}
