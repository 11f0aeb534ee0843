/* cub_ref.cu: every CUB call of lab6, in one file so each algorithm is compiled once.
 * The applications use CUB for the work each GPU does on its own shard and for the
 * one-GPU rows they are compared with: lab6 builds from its own folder, and the
 * kernels of labs 1 and 3 live in theirs with their own launchers and workspaces
 * (reusing them would mean copying them). The rows name the CUB routine.
 * With temp == NULL each wrapper is its own size query, so the workspace allocated
 * outside the timed runs always fits the call. Keys are unsigned: sums wrap. */
#include "lab6.h"

#include <climits>
#include <cub/cub.cuh>

/* Counts are ints (32-bit offsets: CUB's fast path); the lab's sizes stay below 2^31. */
static int too_many(size_t n) { return n > INT_MAX ? KIT_CHECK(cudaErrorInvalidValue) : 0; }

extern "C" int lab6_cub_histogram(void *temp, size_t *temp_bytes, const uint32_t *keys, size_t n, int bins,
                                  int32_t *hist, cudaStream_t stream)
{
    if (int r = too_many(n))
        return r;
    if (temp && n == 0)
        return KIT_CHECK(cudaMemsetAsync(hist, 0, (size_t)bins * sizeof *hist, stream));
    /* bins + 1 levels 0, 1, ..., bins: key k falls in bin k */
    return KIT_CHECK(cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, (const int *)keys, (int *)hist, bins + 1,
                                                         0, bins, (int)n, stream));
}

extern "C" int lab6_cub_sum(void *temp, size_t *temp_bytes, const uint32_t *in, size_t n, uint32_t *total,
                            cudaStream_t stream)
{
    if (int r = too_many(n))
        return r;
    if (temp && n == 0)
        return KIT_CHECK(cudaMemsetAsync(total, 0, sizeof *total, stream));
    return KIT_CHECK(cub::DeviceReduce::Sum(temp, *temp_bytes, in, total, (int)n, stream));
}

extern "C" int lab6_cub_exclusive_sum(void *temp, size_t *temp_bytes, const uint32_t *in, size_t n, uint32_t *out,
                                      cudaStream_t stream)
{
    if (int r = too_many(n))
        return r;
    if (temp && n == 0)
        return 0;
    return KIT_CHECK(cub::DeviceScan::ExclusiveSum(temp, *temp_bytes, in, out, (int)n, stream));
}

extern "C" int lab6_cub_seeded_scan(void *temp, size_t *temp_bytes, const uint32_t *in, size_t n,
                                    const uint32_t *d_seed, uint32_t *out, cudaStream_t stream)
{
    if (int r = too_many(n))
        return r;
    if (temp && n == 0)
        return 0;
    /* FutureValue: the seed is read from device memory when the scan runs, so it may be
     * computed by work enqueued just before (here: after an NCCL exchange). */
    cub::FutureValue<uint32_t, uint32_t *> seed(const_cast<uint32_t *>(d_seed));
    return KIT_CHECK(cub::DeviceScan::ExclusiveScan(temp, *temp_bytes, in, out, ::cuda::std::plus<>{}, seed, (int)n,
                                                    stream));
}

extern "C" int lab6_cub_sort(void *temp, size_t *temp_bytes, const uint32_t *in, size_t n, uint32_t *out,
                             cudaStream_t stream)
{
    if (int r = too_many(n))
        return r;
    if (temp && n == 0)
        return 0;
    return KIT_CHECK(cub::DeviceRadixSort::SortKeys(temp, *temp_bytes, in, out, (int)n, 0, 32, stream));
}

extern "C" int lab6_cub_merge(void *temp, size_t *temp_bytes, const uint32_t *a, size_t na, const uint32_t *b,
                              size_t nb, uint32_t *out, cudaStream_t stream)
{
    if (temp && na + nb == 0)
        return 0;
    return KIT_CHECK(cub::DeviceMerge::MergeKeys(temp, *temp_bytes, a, (int64_t)na, b, (int64_t)nb, out,
                                                 ::cuda::std::less<>{}, stream));
}
