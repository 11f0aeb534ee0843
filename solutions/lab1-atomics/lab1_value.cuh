/* lab1_value.cuh: what one element adds, so one kernel template serves both
 * operations: 1 for the histogram (T = int), values[i] for scatter-add (T = double). */
#ifndef LAB1_VALUE_CUH
#define LAB1_VALUE_CUH
#include "lab1.h"

template <typename T> __device__ __forceinline__ T lab1_weight(const double *values, size_t i);
template <> __device__ __forceinline__ int lab1_weight<int>(const double *, size_t) { return 1; }
template <> __device__ __forceinline__ double lab1_weight<double>(const double *values, size_t i)
{
    return values[i];
}

/* The output bins of op T. */
__host__ __forceinline__ int *lab1_bins_of(const lab1_io *io, int *) { return io->counts; }
__host__ __forceinline__ double *lab1_bins_of(const lab1_io *io, double *) { return io->sums; }

/* Zero the output bins: every launcher that adds into its bins starts with this, so
 * timing includes it (as it does for CUB, which clears its own output). */
template <typename T> inline int lab1_zero_bins(const lab1_io *io, cudaStream_t stream)
{
    return KIT_CHECK(cudaMemsetAsync(lab1_bins_of(io, (T *)0), 0, (size_t)io->bins * sizeof(T), stream));
}
#endif
