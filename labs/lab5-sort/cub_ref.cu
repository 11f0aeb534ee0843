/* cub_ref.cu: CUB in lab5. The cub row is cub::DeviceRadixSort::SortKeys /
 * SortPairs on the same buffers as the variants (CUB's own onesweep on sm_80 and
 * newer: the bar Step 5.3 is measured against). Keys are passed with their real
 * type (unsigned, int, float), so CUB applies its own order transform; its float
 * policy (-0.0 equal to +0.0, NaNs by their bits) is the one lab5_radix.h defines.
 * Scratch is sized by lab5_cub_sort_temp_bytes and allocated with the problem,
 * outside any timed region.
 * Also here: CUB's exclusive scan of 32-bit counts, the scan of split-1bit and of
 * the digit variants (lab 3 built one; this lab uses the library's). */
#include "lab5.h"

#include <climits>
#include <cub/cub.cuh>

template <typename K>
static size_t sort_bytes(size_t n)
{
    size_t keys = 0, pairs = 0;
    int items = (int)n;
    /* a failed query reports itself and sizes nothing; the real call then fails too */
    if (KIT_CHECK(cub::DeviceRadixSort::SortKeys(NULL, keys, (const K *)NULL, (K *)NULL, items)) ||
        KIT_CHECK(cub::DeviceRadixSort::SortPairs(NULL, pairs, (const K *)NULL, (K *)NULL, (const uint32_t *)NULL,
                                                  (uint32_t *)NULL, items)))
        return 0;
    return keys > pairs ? keys : pairs;
}

extern "C" size_t lab5_cub_sort_temp_bytes(size_t n)
{
    if (n > INT_MAX)
        n = INT_MAX;
    size_t a = sort_bytes<unsigned int>(n), b = sort_bytes<int>(n), c = sort_bytes<float>(n);
    size_t m = a > b ? a : b;
    return m > c ? m : c;
}

template <typename K>
static int cub_sort(const lab5_sort_io *io, cudaStream_t stream)
{
    size_t bytes = io->ws->cub_temp_bytes;
    const K *keys_in = (const K *)io->keys_in;
    K *keys_out = (K *)io->keys_out;
    int items = (int)io->n;
    if (!io->values_in)
        return KIT_CHECK(cub::DeviceRadixSort::SortKeys(io->ws->cub_temp, bytes, keys_in, keys_out, items, 0,
                                                        (int)sizeof(K) * 8, stream));
    return KIT_CHECK(cub::DeviceRadixSort::SortPairs(io->ws->cub_temp, bytes, keys_in, keys_out, io->values_in,
                                                     io->values_out, items, 0, (int)sizeof(K) * 8, stream));
}

extern "C" int lab5_cub_sort(const lab5_sort_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    if (io->n > INT_MAX)
        return KIT_CHECK(cudaErrorInvalidValue);
    switch (io->type) {
    case LAB5_I32: return cub_sort<int>(io, stream);
    case LAB5_F32: return cub_sort<float>(io, stream);
    default: return cub_sort<unsigned int>(io, stream);
    }
}

extern "C" size_t lab5_cub_scan_temp_bytes(size_t n)
{
    size_t bytes = 0;
    if (KIT_CHECK(cub::DeviceScan::ExclusiveSum(NULL, bytes, (const uint32_t *)NULL, (uint32_t *)NULL,
                                                (int)(n < INT_MAX ? n : INT_MAX))))
        return 0;
    return bytes;
}

extern "C" int lab5_cub_exclusive_scan(uint32_t *counts, size_t n, lab5_workspace *ws, cudaStream_t stream)
{
    size_t bytes = ws->scan_temp_bytes;
    if (n > INT_MAX)
        return KIT_CHECK(cudaErrorInvalidValue);
    return KIT_CHECK(cub::DeviceScan::ExclusiveSum(ws->scan_temp, bytes, counts, counts, (int)n, stream));
}
