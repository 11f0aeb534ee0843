/* Step 5.0 (given): the textbook split, one bit at a time.
 *
 * For bit b = 0, 1, ..., 31 of the ordered word (lab5_order), a stable split:
 * every key whose bit is 0 goes before every key whose bit is 1, each group in
 * its current order. Where does key i go? Flag the keys whose bit is 0; an
 * exclusive scan of the flags counts, for each i, the zeros before it
 * (ranks[i]). A zero goes to ranks[i]; a one goes after all Z zeros, behind the
 * i - ranks[i] ones before it: Z + i - ranks[i]. After 32 stable splits, lowest
 * bit first, the keys are sorted (an LSD radix sort with 1-bit digits).
 * Per pass: three launches (flags, CUB's exclusive scan, split), and the keys are
 * read twice, the ranks written, read and written by the scan, read again, and
 * the keys written: about 7n words of traffic for one bit. 32 passes.
 * Expect: correct and slow, under 1% of the copy rate: the baseline of the
 * speedup column (lecture 5, Step 5.0's table). */
#include "lab5_sort.cuh"

enum { NT = LAB5_SPLIT_NT };

template <lab5_type T>
static __device__ __forceinline__ uint32_t bit_of(uint32_t key, int bit)
{
    return lab5_order(key, T) >> bit & 1u;
}

/* ranks[i] = 1 when key i's bit is 0 (it belongs to the first group). The pass
 * loop calls the bit a pass. */
template <lab5_type T>
static __global__ void zero_flags(const uint32_t *keys, size_t n, int bit, uint32_t *ranks)
{
    size_t i = (size_t)blockIdx.x * NT + threadIdx.x;
    if (i < n)
        ranks[i] = bit_of<T>(keys[i], bit) ^ 1u;
}

/* ranks = exclusive scan of the flags: zeros before each key. */
template <lab5_type T, bool PAIRS>
static __global__ void split(const uint32_t *keys, const uint32_t *values, size_t n, int bit, const uint32_t *ranks,
                      uint32_t *keys_out, uint32_t *values_out)
{
    size_t i = (size_t)blockIdx.x * NT + threadIdx.x;
    if (i >= n)
        return;
    size_t zeros = ranks[n - 1] + (bit_of<T>(keys[n - 1], bit) ^ 1u);
    uint32_t key = keys[i];
    size_t to = bit_of<T>(key, bit) ? zeros + i - ranks[i] : ranks[i];
    keys_out[to] = key;
    if (PAIRS)
        values_out[to] = values[i];
}

template <lab5_type T, bool PAIRS>
struct split_sort {
    static int run(const lab5_sort_io *io, cudaStream_t stream)
    {
        return lab5_count_scan_scatter(io, 32, (unsigned)kit_div_up(io->n, NT), NT, io->ws->ranks, io->n,
                                       zero_flags<T>, split<T, PAIRS>, stream);
    }
};

extern "C" int lab5_split_1bit(const lab5_sort_io *io, cudaStream_t stream)
{
    return lab5_dispatch<split_sort>(io, stream);
}
