/* cub_ref.cu: the library rows. cub::DeviceScan::ExclusiveSum / InclusiveSum
 * (row `cub`) and cub::DeviceSelect::If (row `cub-select`), on the same data and
 * buffers as the variants. CUB's scan is itself a single-pass decoupled look-back
 * scan, tuned per architecture: the bar Step 3.5 is measured against.
 * Values are passed as unsigned types so sums wrap exactly like the reference.
 * Temporary storage is sized by lab3_cub_temp_bytes and allocated with the
 * problem, outside any timed region. */
#include "kit_cuda.cuh"
#include "lab3.h"

#include <climits>
#include <cub/cub.cuh>

template <typename T>
struct keep_op {
    uint32_t keep_pct;
    __host__ __device__ bool operator()(const T &x) const { return lab3_keep((uint64_t)x, keep_pct); }
};

/* CUB takes the item count as int up to INT_MAX (its 32-bit offsets, the fast
 * path the timed rows use) and as long long beyond. */
template <typename T, typename Offset>
static size_t temp_bytes(Offset items)
{
    size_t a = 0, b = 0, c = 0;
    /* A failed query reports itself and sizes nothing; the real call then fails too. */
    if (KIT_CHECK(cub::DeviceScan::ExclusiveSum(NULL, a, (const T *)NULL, (T *)NULL, items)) ||
        KIT_CHECK(cub::DeviceScan::InclusiveSum(NULL, b, (const T *)NULL, (T *)NULL, items)) ||
        KIT_CHECK(cub::DeviceSelect::If(NULL, c, (const T *)NULL, (T *)NULL, (unsigned long long *)NULL, items,
                                        keep_op<T>{ 50 })))
        return 0;
    size_t m = a > b ? a : b;
    return m > c ? m : c;
}

template <typename T>
static size_t temp_bytes_n(size_t n)
{
    return n <= INT_MAX ? temp_bytes<T>((int)n) : temp_bytes<T>((long long)n);
}

extern "C" size_t lab3_cub_temp_bytes(size_t n, lab3_type type)
{
    return type == LAB3_I32 ? temp_bytes_n<unsigned int>(n) : temp_bytes_n<unsigned long long>(n);
}

template <typename T, typename Offset>
static int cub_scan(const lab3_scan_io *io, Offset items, cudaStream_t stream)
{
    size_t bytes = io->ws->cub_temp_bytes;
    if (io->exclusive)
        return KIT_CHECK(cub::DeviceScan::ExclusiveSum(io->ws->cub_temp, bytes, (const T *)io->in, (T *)io->out,
                                                       items, stream));
    return KIT_CHECK(cub::DeviceScan::InclusiveSum(io->ws->cub_temp, bytes, (const T *)io->in, (T *)io->out,
                                                   items, stream));
}

template <typename T>
static int cub_scan_n(const lab3_scan_io *io, cudaStream_t stream)
{
    return io->n <= INT_MAX ? cub_scan<T>(io, (int)io->n, stream) : cub_scan<T>(io, (long long)io->n, stream);
}

extern "C" int lab3_cub_scan(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    return io->type == LAB3_I32 ? cub_scan_n<unsigned int>(io, stream) : cub_scan_n<unsigned long long>(io, stream);
}

template <typename T, typename Offset>
static int cub_select(const lab3_select_io *io, Offset items, cudaStream_t stream)
{
    size_t bytes = io->ws->cub_temp_bytes;
    return KIT_CHECK(cub::DeviceSelect::If(io->ws->cub_temp, bytes, (const T *)io->in, (T *)io->out, io->d_count,
                                           items, keep_op<T>{ io->keep_pct }, stream));
}

template <typename T>
static int cub_select_n(const lab3_select_io *io, cudaStream_t stream)
{
    return io->n <= INT_MAX ? cub_select<T>(io, (int)io->n, stream) : cub_select<T>(io, (long long)io->n, stream);
}

extern "C" int lab3_cub_select(const lab3_select_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return KIT_CHECK(cudaMemsetAsync(io->d_count, 0, sizeof *io->d_count, stream));
    return io->type == LAB3_I32 ? cub_select_n<unsigned int>(io, stream) : cub_select_n<unsigned long long>(io, stream);
}
