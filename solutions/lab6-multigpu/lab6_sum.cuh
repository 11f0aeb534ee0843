/* lab6_sum.cuh: the one kernel the hand-written all-reduces share. dst = the
 * element-wise sum of up to LAB6_MAX_LOCAL arrays, any of which may live on another
 * GPU (a load through peer access crosses NVLink or PCIe). int32 values are added as
 * unsigned ints, so wrap-around is defined and matches the reference.
 *
 * A read over NVLink takes microseconds, not hundreds of nanoseconds: the kernel
 * keeps many 16-byte loads in flight (every thread loads one 16-byte quad from each
 * array before adding, and the grid covers every SM several times). */
#ifndef LAB6_SUM_CUH
#define LAB6_SUM_CUH

#include "lab6.h"

namespace lab6_sum_detail {

enum { NT = LAB6_SUM_NT, BLOCKS_PER_SM = LAB6_SUM_BLOCKS_PER_SM };

/* The arrays, passed by value (a kernel parameter lives in constant memory). */
template <typename T>
struct sources {
    const T *array[LAB6_MAX_LOCAL];
    int count;
};

__device__ inline uint4 add4(uint4 a, uint4 b) { return make_uint4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
__device__ inline float4 add4(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }

template <typename T> struct quad;
template <> struct quad<unsigned int> { typedef uint4 type; };
template <> struct quad<float> { typedef float4 type; };

/* VECTOR: every array and dst start on a 16-byte boundary, so quads can be loaded whole. */
template <typename T, bool VECTOR>
__global__ __launch_bounds__(NT) void sum_arrays(sources<T> src, T *__restrict__ dst, size_t n)
{
    typedef typename quad<T>::type Q;
    const size_t stride = (size_t)gridDim.x * NT;
    size_t first = (size_t)blockIdx.x * NT + threadIdx.x;
    size_t quads = VECTOR ? n / 4 : 0;
    for (size_t i = first; i < quads; i += stride) {
        Q acc = reinterpret_cast<const Q *>(src.array[0])[i];
        for (int s = 1; s < src.count; s++)
            acc = add4(acc, reinterpret_cast<const Q *>(src.array[s])[i]);
        reinterpret_cast<Q *>(dst)[i] = acc;
    }
    for (size_t i = 4 * quads + first; i < n; i += stride) { /* the rest, one value at a time */
        T acc = src.array[0][i];
        for (int s = 1; s < src.count; s++)
            acc += src.array[s][i];
        dst[i] = acc;
    }
}

template <typename T>
static int launch(int sms, cudaStream_t stream, const void *const *arrays, int count, void *dst, size_t n)
{
    sources<T> src;
    bool aligned = reinterpret_cast<uintptr_t>(dst) % 16 == 0;
    for (int s = 0; s < count; s++) {
        src.array[s] = static_cast<const T *>(arrays[s]);
        aligned &= reinterpret_cast<uintptr_t>(arrays[s]) % 16 == 0;
    }
    src.count = count;
    size_t work = aligned ? n / 4 + n % 4 : n;
    size_t blocks = kit_div_up(work, NT), cap = (size_t)sms * BLOCKS_PER_SM;
    unsigned grid = (unsigned)(blocks < cap ? blocks : cap);
    if (aligned)
        sum_arrays<T, true><<<grid, NT, 0, stream>>>(src, static_cast<T *>(dst), n);
    else
        sum_arrays<T, false><<<grid, NT, 0, stream>>>(src, static_cast<T *>(dst), n);
    return KIT_LAUNCH_CHECK();
}

} // namespace lab6_sum_detail

/* dst[i] = arrays[0][i] + ... + arrays[count-1][i] for i < n, on local GPU l (current
 * device) in `stream`. 1 <= count <= LAB6_MAX_LOCAL; n == 0 launches nothing. */
static inline int lab6_launch_sum(const lab6_team *t, int l, cudaStream_t stream, lab6_type type,
                                  const void *const *arrays, int count, void *dst, size_t n)
{
    if (n == 0)
        return 0;
    if (count < 1 || count > LAB6_MAX_LOCAL)
        return KIT_CHECK(cudaErrorInvalidValue);
    if (type == LAB6_I32)
        return lab6_sum_detail::launch<unsigned int>(t->sms[l], stream, arrays, count, dst, n);
    return lab6_sum_detail::launch<float>(t->sms[l], stream, arrays, count, dst, n);
}

#endif
