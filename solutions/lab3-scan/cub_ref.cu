/* cub_ref.cu: the library rows. cub::DeviceScan::ExclusiveSum / InclusiveSum
 * (row `cub`) and cub::DeviceSelect::If (row `cub-select`), on the same data and
 * buffers as the variants. CUB's scan is itself a single-pass decoupled look-back
 * scan, tuned per architecture: the bar Step 3.5 is measured against.
 * Values are passed as unsigned types so sums wrap exactly like the reference.
 * Temporary storage is sized by lab3_cub_temp_bytes and allocated with the
 * problem, outside any timed region. */
#include "lab3_scan.cuh"

#include <climits>
#include <cub/cub.cuh>

template <typename T>
struct keep_op {
    uint32_t keep_pct;
    __host__ __device__ bool operator()(const T &x) const { return lab3_keep((uint64_t)x, keep_pct); }
};

template <typename T>
static size_t temp_bytes(size_t n)
{
    size_t a = 0, b = 0, c = 0;
    int items = (int)n;
    /* A failed query reports itself and sizes nothing; the real call then fails too. */
    if (KIT_CHECK(cub::DeviceScan::ExclusiveSum(NULL, a, (const T *)NULL, (T *)NULL, items)) ||
        KIT_CHECK(cub::DeviceScan::InclusiveSum(NULL, b, (const T *)NULL, (T *)NULL, items)) ||
        KIT_CHECK(cub::DeviceSelect::If(NULL, c, (const T *)NULL, (T *)NULL, (unsigned long long *)NULL, items,
                                        keep_op<T>{ 50 })))
        return 0;
    size_t m = a > b ? a : b;
    return m > c ? m : c;
}

extern "C" size_t lab3_cub_temp_bytes(size_t n, lab3_type type)
{
    if (n > INT_MAX)
        n = INT_MAX;
    return type == LAB3_I32 ? temp_bytes<unsigned int>(n) : temp_bytes<unsigned long long>(n);
}

template <typename T>
static int cub_scan(const lab3_scan_io *io, cudaStream_t stream)
{
    size_t bytes = io->ws->cub_temp_bytes;
    int items = (int)io->n;
    if (io->exclusive)
        return KIT_CHECK(cub::DeviceScan::ExclusiveSum(io->ws->cub_temp, bytes, (const T *)io->in, (T *)io->out,
                                                       items, stream));
    return KIT_CHECK(cub::DeviceScan::InclusiveSum(io->ws->cub_temp, bytes, (const T *)io->in, (T *)io->out,
                                                   items, stream));
}

extern "C" int lab3_cub_scan(const lab3_scan_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return 0;
    if (io->n > INT_MAX)
        return KIT_CHECK(cudaErrorInvalidValue);
    return io->type == LAB3_I32 ? cub_scan<unsigned int>(io, stream) : cub_scan<unsigned long long>(io, stream);
}

template <typename T>
static int cub_select(const lab3_select_io *io, cudaStream_t stream)
{
    size_t bytes = io->ws->cub_temp_bytes;
    return KIT_CHECK(cub::DeviceSelect::If(io->ws->cub_temp, bytes, (const T *)io->in, (T *)io->out, io->d_count,
                                           (int)io->n, keep_op<T>{ io->keep_pct }, stream));
}

extern "C" int lab3_cub_select(const lab3_select_io *io, cudaStream_t stream)
{
    if (io->n == 0)
        return KIT_CHECK(cudaMemsetAsync(io->d_count, 0, sizeof *io->d_count, stream));
    if (io->n > INT_MAX)
        return KIT_CHECK(cudaErrorInvalidValue);
    return io->type == LAB3_I32 ? cub_select<unsigned int>(io, stream) : cub_select<unsigned long long>(io, stream);
}
