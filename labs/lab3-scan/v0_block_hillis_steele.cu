/* Step 3.0 (worked example, complete): Hillis-Steele scan in shared memory, one
 * block of 256 threads per tile of 256 items, made into a scan of any n by a
 * second level.
 *
 * In a tile, step d (d = 1, 2, 4, ...) adds to every item the item d places to
 * its left, so after log2(256) = 8 steps each item holds the sum of itself and
 * everything before it in the tile. Two shared buffers (read one, write the other)
 * make each step need just one barrier. Across tiles: every tile writes its total,
 * the totals are scanned the same way (recursively: 256 tiles of 256 items, then
 * 256 of those, ...), and a last pass adds tile t's exclusive prefix to its items.
 *
 * What is slow: log2(NT) steps do NT*log2(NT) additions instead of NT (the scan
 * is not work-efficient), each step goes through shared memory behind a barrier,
 * one item per thread gives each warp little memory in flight, and the output is
 * written twice (scan pass, then offset pass): about 4n values of traffic.
 * Expect: correct for every n and every later variant's oracle, under a quarter
 * of the copy rate at 2^24 and above (lecture 3, Step 3.0's table). */
#include "lab3_block_scan.cuh"

enum { NT = LAB3_HS_NT, VT = 1, NV = NT * VT }; /* one value per thread */

template <typename T>
__global__ void hs_scan_tiles(const T *in, T *out, size_t n, int exclusive, T *tile_totals)
{
    __shared__ T buf[2][NT];
    const int tid = threadIdx.x;
    size_t i = (size_t)blockIdx.x * NV + tid;
    T x = i < n ? in[i] : T(0); /* past the end: 0 keeps the tile total right */
    buf[0][tid] = x;
    __syncthreads();
    int cur = 0;
    for (int d = 1; d < NT; d *= 2) {
        T v = buf[cur][tid];
        if (tid >= d)
            v += buf[cur][tid - d];
        buf[cur ^ 1][tid] = v; /* the other buffer: nobody is reading it this step */
        cur ^= 1;
        __syncthreads();
    }
    T inclusive = buf[cur][tid];
    if (i < n)
        out[i] = exclusive ? inclusive - x : inclusive; /* in == out is fine: x was read first */
    if (tile_totals && tid == NT - 1)
        tile_totals[blockIdx.x] = inclusive;
}

/* Scan n values from in to out; spine holds the totals of every level below. */
template <typename T>
static int hs_scan(const T *in, T *out, size_t n, int exclusive, T *spine, cudaStream_t stream)
{
    size_t tiles = kit_div_up(n, NV);
    T *totals = tiles > 1 ? spine : NULL;
    hs_scan_tiles<T><<<tiles, NT, 0, stream>>>(in, out, n, exclusive, totals);
    if (int err = KIT_LAUNCH_CHECK())
        return err;
    if (tiles == 1)
        return 0;
    /* Exclusive scan of the tile totals, in place, one level up. */
    if (int err = hs_scan<T>(totals, totals, tiles, 1, spine + tiles, stream))
        return err;
    return lab3_launch_add_tile_offsets<T>(out, n, totals, NV, stream);
}

extern "C" int lab3_block_hillis_steele(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    if (lab3_spine_entries(io->n, NV) * lab3_type_bytes(io->type) > io->ws->spine_bytes)
        return KIT_CHECK(cudaErrorInvalidValue);
    if (io->type == LAB3_I32)
        return hs_scan<unsigned int>((const unsigned int *)io->in, (unsigned int *)io->out, io->n,
                                     io->exclusive, (unsigned int *)io->ws->spine, stream);
    return hs_scan<unsigned long long>((const unsigned long long *)io->in, (unsigned long long *)io->out,
                                       io->n, io->exclusive, (unsigned long long *)io->ws->spine, stream);
}
