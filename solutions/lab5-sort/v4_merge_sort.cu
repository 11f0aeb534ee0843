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
    // BEGIN SOLUTION (Step 5.4): keep both head keys in registers; take A's head unless A is empty or B's head is strictly less; load the next head
    uint32_t a_key = a < a_end ? keys[a] : 0u, b_key = b < b_end ? keys[b] : 0u;
#pragma unroll
    for (int i = 0; i < VT; i++) {
        if (i < count) {
            bool take_a = b >= b_end || (a < a_end && !lab5_less(b_key, a_key, T));
            out[i] = take_a ? a_key : b_key;
            from[i] = take_a ? a : b;
            if (take_a) {
                a++;
                a_key = a < a_end ? keys[a] : 0u;
            } else {
                b++;
                b_key = b < b_end ? keys[b] : 0u;
            }
        }
    }
    // STUB: (void)keys; (void)a; (void)a_end; (void)b; (void)b_end; (void)count; (void)out; (void)from;
    // END SOLUTION
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
    // BEGIN SOLUTION (Step 5.4): load the tile coalesced; sort your VT consecutive keys with odd-even transposition (swap on strictly less); put them back; rounds run = VT, 2 VT, ... < NV: merge_in_shared on your pair of runs; store coalesced
    __shared__ uint32_t s_keys[NV];
    __shared__ uint32_t s_values[PAIRS ? NV : 1];
    const size_t offset = (size_t)blockIdx.x * NV;
    const int count = (int)kit_tile_items(n, NV, blockIdx.x);
    for (int i = threadIdx.x; i < count; i += NT) {
        s_keys[i] = keys[offset + i];
        if (PAIRS)
            s_values[i] = values[offset + i];
    }
    __syncthreads();

    const int first = (int)threadIdx.x * VT, mine = max(0, min(VT, count - first));
    uint32_t k[VT], v[VT];
#pragma unroll
    for (int j = 0; j < VT; j++) {
        k[j] = j < mine ? s_keys[first + j] : 0u;
        v[j] = PAIRS && j < mine ? s_values[first + j] : 0u;
    }
#pragma unroll
    for (int round = 0; round < VT; round++) {
#pragma unroll
        for (int j = round & 1; j + 1 < VT; j += 2) {
            if (j + 1 < mine && lab5_less(k[j + 1], k[j], T)) {
                uint32_t x = k[j];
                k[j] = k[j + 1];
                k[j + 1] = x;
                x = v[j];
                v[j] = v[j + 1];
                v[j + 1] = x;
            }
        }
    }
#pragma unroll
    for (int j = 0; j < VT; j++) { /* back where this thread read them: no barrier needed */
        if (j < mine) {
            s_keys[first + j] = k[j];
            if (PAIRS)
                s_values[first + j] = v[j];
        }
    }
    /* runs of VT, 2 VT, ... keys, merged pairwise; this thread's outputs are in the
     * pair of runs that starts at `pair` */
    for (int run = VT; run < NV; run *= 2) {
        __syncthreads();
        const int pair = first / (2 * run) * (2 * run), begin = min(pair, count);
        const int a_end = min(pair + run, count), b_end = min(pair + 2 * run, count);
        merge_in_shared<T, PAIRS>(s_keys, s_values, begin, a_end - begin, b_end - begin, first - pair);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < count; i += NT) {
        keys_to[offset + i] = s_keys[i];
        if (PAIRS)
            values_to[offset + i] = s_values[i];
    }
    // END SOLUTION
}

/* Phase 2, part 1: where each tile of a merge pass starts in its A run. */
template <lab5_type T>
static __global__ void merge_partitions(const uint32_t *keys, size_t n, size_t run, size_t tiles, int64_t *partitions)
{
    // BEGIN SOLUTION (Step 5.4): one thread per tile t: lab5_merge_tile_at, then lab5_merge_path on the tile's A and B runs at its diag_begin
    size_t t = (size_t)blockIdx.x * PARTITION_NT + threadIdx.x;
    if (t >= tiles)
        return;
    lab5_merge_tile m = lab5_merge_tile_at(n, run, NV, t);
    partitions[t] = lab5_merge_path(keys + m.a_begin, m.a_end - m.a_begin, keys + m.a_end, m.b_end - m.a_end,
                                    m.diag_begin, T);
    // STUB: (void)keys; (void)n; (void)run; (void)tiles; (void)partitions;
    // END SOLUTION
}

/* Phase 2, part 2: tile t of a merge pass merges its share of A and B. */
template <lab5_type T, bool PAIRS>
static __global__ void __launch_bounds__(NT)
merge_tiles(const uint32_t *keys, const uint32_t *values, size_t n, size_t run, const int64_t *partitions,
            uint32_t *keys_to, uint32_t *values_to)
{
    // BEGIN SOLUTION (Step 5.4): the tile's A and B ranges from its partition and the next tile's (or all of A at the pair's end); both into shared memory; merge_in_shared; store coalesced at t * NV
    __shared__ uint32_t s_keys[NV];
    __shared__ uint32_t s_values[PAIRS ? NV : 1];
    const size_t t = blockIdx.x;
    const lab5_merge_tile m = lab5_merge_tile_at(n, run, NV, t);
    const int64_t a_lo = partitions[t];
    /* the tile ends inside its pair: the next tile's split; at the pair's end: all of A */
    const int64_t a_hi = m.diag_end == m.b_end - m.a_begin ? m.a_end - m.a_begin : partitions[t + 1];
    const int64_t b_lo = m.diag_begin - a_lo, b_hi = m.diag_end - a_hi;
    const int a_count = (int)(a_hi - a_lo), total = a_count + (int)(b_hi - b_lo);
    const uint32_t *a_keys = keys + m.a_begin + a_lo, *b_keys = keys + m.a_end + b_lo;
    for (int i = threadIdx.x; i < total; i += NT) {
        bool from_a = i < a_count;
        s_keys[i] = from_a ? a_keys[i] : b_keys[i - a_count];
        if (PAIRS)
            s_values[i] = from_a ? values[m.a_begin + a_lo + i] : values[m.a_end + b_lo + i - a_count];
    }
    __syncthreads();
    merge_in_shared<T, PAIRS>(s_keys, s_values, 0, a_count, total, (int)threadIdx.x * VT);
    __syncthreads();
    const size_t offset = (size_t)m.a_begin + (size_t)m.diag_begin; /* = t * NV */
    for (int i = threadIdx.x; i < total; i += NT) {
        keys_to[offset + i] = s_keys[i];
        if (PAIRS)
            values_to[offset + i] = s_values[i];
    }
    // END SOLUTION
}

template <lab5_type T, bool PAIRS>
struct merge_sort {
    static int run(const lab5_sort_io *io, cudaStream_t stream)
    {
        // BEGIN SOLUTION (Step 5.4): sort_tiles into the first buffer, then per pass (run = NV, 2 NV, ...) merge_partitions and merge_tiles; ping-pong so the last write is the output
        const size_t tiles = kit_div_up(io->n, NV);
        if (tiles + 1 > io->ws->partition_count)
            return KIT_CHECK(cudaErrorInvalidValue); /* workspace sized for fewer tiles */
        const int writes = 1 + lab5_merge_passes(io->n, NV);
        const uint32_t *keys = io->keys_in, *values = io->values_in;
        for (int j = 0; j < writes; j++) {
            bool out = lab5_write_to_output(j, writes);
            uint32_t *keys_to = out ? io->keys_out : io->ws->keys_alt;
            uint32_t *values_to = out ? io->values_out : io->ws->values_alt;
            if (j == 0) {
                sort_tiles<T, PAIRS><<<(unsigned)tiles, NT, 0, stream>>>(keys, values, io->n, keys_to, values_to);
            } else {
                const size_t run = (size_t)NV << (j - 1); /* merge runs of this many keys pairwise */
                merge_partitions<T><<<(unsigned)kit_div_up(tiles, PARTITION_NT), PARTITION_NT, 0, stream>>>(
                    keys, io->n, run, tiles, io->ws->partitions);
                if (int err = KIT_LAUNCH_CHECK())
                    return err;
                merge_tiles<T, PAIRS><<<(unsigned)tiles, NT, 0, stream>>>(keys, values, io->n, run,
                                                                          io->ws->partitions, keys_to, values_to);
            }
            if (int err = KIT_LAUNCH_CHECK())
                return err;
            keys = keys_to;
            values = values_to;
        }
        return 0;
        // STUB: (void)io; (void)stream;
        // STUB: return KIT_TODO;
        // END SOLUTION
    }
};

extern "C" int lab5_merge_sort(const lab5_sort_io *io, cudaStream_t stream)
{
    return lab5_dispatch<merge_sort>(io, stream);
}
