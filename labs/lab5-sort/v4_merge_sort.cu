/* Step 5.4: a merge sort, for contrast: lab 4's Merge Path, applied log n times.
 *
 * A comparison sort needs nothing but "is a before b" (lab5_less): it would sort
 * any key type with any order. Two phases:
 *   1. every tile of NV keys is sorted in shared memory: each thread sorts its VT
 *      consecutive keys in registers (odd-even transposition: VT rounds of
 *      compare-and-swap of neighbours, swapping only when the second is strictly
 *      smaller, so equal keys keep their order), then log2(NT) rounds merge
 *      sorted runs pairwise (VT, 2 VT, 4 VT, ... keys), every thread producing
 *      VT outputs of a merge from its own Merge Path split;
 *   2. merge passes: sorted runs of NV, 2 NV, 4 NV, ... keys are merged pairwise
 *      until one run is left. Each pass is lab 4's two-phase merge: one Merge Path
 *      search per tile boundary (a small kernel), then every tile of NV outputs
 *      loads its two input ranges into shared memory and merges them like a tile
 *      of phase 1. Ties go to the earlier run: stable.
 * Values follow their keys: the serial merge reports where each output came
 * from, and the value is taken from the same place.
 * Traffic: ~2n per merge pass, and there are log2(n / NV) of them (17 at 2^28),
 * against 4 digit passes of onesweep: a radix sort does O(n) work per pass and a
 * fixed number of passes for 32-bit keys; a merge sort does O(n log n).
 * Expect: the fastest of the lab's sorts up to about 2^13 keys, behind every
 * radix sort from 2^21, and no faster per key from 2^25 on, where each doubling
 * of n adds a pass (lecture 5, Step 5.4's table). */
#include "lab5_sort.cuh"

enum { NT = LAB5_MERGE_NT, VT = LAB5_MERGE_VT, NV = NT * VT, PARTITION_NT = LAB5_MERGE_PARTITION_NT };

/* Serial merge of up to VT outputs from shared keys[a..a_end) and keys[b..b_end)
 * (A's range before B's in the same array): out[i] is the i-th output, from[i]
 * the shared-memory index it came from. A's key goes first unless B's is
 * strictly less (stable). The loop has VT fixed steps (registers), count real. */
template <lab5_type T>
static __device__ __forceinline__ void serial_merge(const uint32_t *keys, int a, int a_end, int b, int b_end,
                                                    int count, uint32_t (&out)[VT], int (&from)[VT])
{
    // TODO(Step 5.4): keep both head keys in registers; take A's head unless A is empty or B's head is strictly less; load the next head (about 16 lines)
    (void)keys; (void)a; (void)a_end; (void)b; (void)b_end; (void)count; (void)out; (void)from;
}

/* One thread's share of a merge in shared memory. The pair of sorted ranges
 * [pair, pair + a_count) and [pair + a_count, pair + total); this thread makes
 * the outputs diag .. diag + VT - 1 of the pair (fewer at its end, none past it)
 * from its own Merge Path split and writes them back in place. Every thread of
 * the block calls it: one barrier separates the reads from the writes. */
template <lab5_type T, bool PAIRS>
static __device__ __forceinline__ void merge_in_shared(uint32_t *s_keys, uint32_t *s_values, int pair, int a_count,
                                                       int total, int diag)
{
    diag = min(diag, total);
    const int count = min(VT, total - diag);
    const uint32_t *a = s_keys + pair;
    const int split = (int)lab5_merge_path(a, a_count, a + a_count, total - a_count, diag, T);
    uint32_t k[VT], v[VT];
    int from[VT];
    serial_merge<T>(s_keys, pair + split, pair + a_count, pair + a_count + diag - split, pair + total, count, k,
                    from);
#pragma unroll
    for (int i = 0; i < VT; i++)
        if (PAIRS && i < count)
            v[i] = s_values[from[i]];
    __syncthreads(); /* everyone has read its inputs */
#pragma unroll
    for (int i = 0; i < VT; i++) {
        if (i < count) {
            s_keys[pair + diag + i] = k[i];
            if (PAIRS)
                s_values[pair + diag + i] = v[i];
        }
    }
}

/* Phase 1: sort each tile of NV keys (and values) in shared memory. */
template <lab5_type T, bool PAIRS>
static __global__ void __launch_bounds__(NT) sort_tiles(const uint32_t *keys, const uint32_t *values, size_t n,
                                                 uint32_t *keys_to, uint32_t *values_to)
{
    // TODO(Step 5.4): load the tile coalesced; sort your VT consecutive keys with odd-even transposition (swap on strictly less); put them back; rounds run = VT, 2 VT, ... < NV: merge_in_shared on your pair of runs; store coalesced (about 53 lines)
}

/* Phase 2, part 1: where each tile of a merge pass starts in its A run. */
template <lab5_type T>
static __global__ void merge_partitions(const uint32_t *keys, size_t n, size_t run, size_t tiles, int64_t *partitions)
{
    // TODO(Step 5.4): one thread per tile t: lab5_merge_tile_at, then lab5_merge_path on the tile's A and B runs at its diag_begin (about 6 lines)
    (void)keys; (void)n; (void)run; (void)tiles; (void)partitions;
}

/* Phase 2, part 2: tile t of a merge pass merges its share of A and B. */
template <lab5_type T, bool PAIRS>
static __global__ void __launch_bounds__(NT)
merge_tiles(const uint32_t *keys, const uint32_t *values, size_t n, size_t run, const int64_t *partitions,
            uint32_t *keys_to, uint32_t *values_to)
{
    // TODO(Step 5.4): the tile's A and B ranges from its partition and the next tile's (or all of A at the pair's end); both into shared memory; merge_in_shared; store coalesced at t * NV (about 25 lines)
}

template <lab5_type T, bool PAIRS>
struct merge_sort {
    static int run(const lab5_sort_io *io, cudaStream_t stream)
    {
        // TODO(Step 5.4): sort_tiles into the first buffer, then per pass (run = NV, 2 NV, ...) merge_partitions and merge_tiles; ping-pong so the last write is the output (about 26 lines)
        (void)io; (void)stream;
        return KIT_TODO;
    }
};

extern "C" int lab5_merge_sort(const lab5_sort_io *io, cudaStream_t stream)
{
    return lab5_dispatch<merge_sort>(io, stream);
}
