/* The library row: cub::DeviceHistogram::HistogramEven over the int keys with
 * bins + 1 evenly spaced levels 0, 1, ..., bins, so bin b counts the keys equal to
 * b. CUB clears the counters itself; its temporary storage is sized once, when the
 * problem is created, and never allocated inside the timed run. */
#include "lab1.h"
#include "lab1_value.cuh"

#include <cub/cub.cuh>

/* 64-bit sample counts: n may pass 2^31 (CUB drops to 32-bit offsets when it can). */
typedef long long sample_count;

extern "C" size_t lab1_cub_temp_bytes(size_t n, int bins)
{
    size_t bytes = 0;
    if (KIT_CHECK(cub::DeviceHistogram::HistogramEven((void *)nullptr, bytes, (const int *)nullptr,
                                                      (int *)nullptr, bins + 1, 0, bins, (sample_count)n)))
        return 0;
    return bytes;
}

extern "C" int lab1_cub_histogram(const lab1_io *io, void *temp, size_t temp_bytes, cudaStream_t stream)
{
    if (io->n == 0) /* CUB would not touch the counters for an empty input */
        return lab1_zero_bins<int>(io, stream);
    return KIT_CHECK(cub::DeviceHistogram::HistogramEven(temp, temp_bytes, io->keys, io->counts,
                                                         io->bins + 1, 0, io->bins, (sample_count)io->n, stream));
}
