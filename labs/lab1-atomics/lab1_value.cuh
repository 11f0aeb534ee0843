/* lab1_value.cuh: what lets one kernel template serve both operations, T = int for
 * the histogram and T = double for scatter-add: what one element adds, the output
 * bins, zeroing them, and the launchers the later steps fall back on. */
#ifndef LAB1_VALUE_CUH
#define LAB1_VALUE_CUH
#include "lab1.h"

/* What element i adds: 1 for the histogram, values[i] for scatter-add. */
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

/* The launchers of op T of global-atomic (v0) and warp-match (v4): where the
 * shared-memory variants go when their bins do not fit. */
template <typename T> inline int lab1_global_atomic(const lab1_io *io, cudaStream_t stream);
template <> inline int lab1_global_atomic<int>(const lab1_io *io, cudaStream_t stream)
{
    return lab1_global_atomic_histogram(io, stream);
}
template <> inline int lab1_global_atomic<double>(const lab1_io *io, cudaStream_t stream)
{
    return lab1_global_atomic_scatter_add(io, stream);
}
template <typename T> inline int lab1_warp_match(const lab1_io *io, cudaStream_t stream);
template <> inline int lab1_warp_match<int>(const lab1_io *io, cudaStream_t stream)
{
    return lab1_warp_match_histogram(io, stream);
}
template <> inline int lab1_warp_match<double>(const lab1_io *io, cudaStream_t stream)
{
    return lab1_warp_match_scatter_add(io, stream);
}
#endif
