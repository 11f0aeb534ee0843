/* cub/cub.cuh of the kit's CPU emulator: the CUB routines the labs call, each a
 * plain CPU algorithm with CUB's results (stable sorts and merges, CUB's
 * histogram binning) run as an operation of the stream, in order with the
 * stream's kernels. The first call of each (no temp storage) asks for the
 * storage size, as with CUB; a call with too little storage fails as CUB's does. */
#ifndef KIT_EMU_CUB_CUH
#define KIT_EMU_CUB_CUH
#include "../cuda_runtime.h"
#include "../cuda/std/functional"

#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>
#include <vector>

namespace kit_emu {
/* Runs work as an operation of stream s (in device context), named what. */
cudaError_t enqueue_host_work(cudaStream_t s, const char *what, std::function<void()> work);
/* Inside such work: false (and the operation fails, reported) unless [p, p + bytes)
 * is device memory the work may use. */
bool device_range_ok(const void *p, size_t bytes, const char *what);
/* The two-call protocol: the size asked for, or the error of a call with too little. */
cudaError_t cub_temp(const char *call, void *temp, size_t &temp_bytes, size_t needed);

enum { CUB_TEMP_BYTES = 1024 }; /* the temp storage every routine asks for */
inline bool temp_ok(void *temp) { return device_range_ok(temp, CUB_TEMP_BYTES, "its temp storage"); }
template <class It>
bool range_ok(It it, size_t count, const char *what)
{
    if constexpr (std::is_pointer<It>::value)
        return device_range_ok((const void *)it, count * sizeof(*it), what);
    else
        return (void)it, (void)count, (void)what, true;
}
template <class It>
using value_of = typename std::iterator_traits<It>::value_type;
} // namespace kit_emu

namespace cub {

enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };

/* A scan's initial value read from device memory when the scan runs. */
template <class T, class Ptr = T *>
struct FutureValue {
    Ptr ptr;
    explicit FutureValue(Ptr p) : ptr(p) {}
    T get() const { return *ptr; }
};
template <class T>
T initial_value_of(const T &v) { return v; }
template <class T, class Ptr>
T initial_value_of(const FutureValue<T, Ptr> &v) { return v.get(); }

#define KIT_EMU_CUB_PROLOGUE(NAME)                                                           \
    if (cudaError_t e = ::kit_emu::cub_temp(NAME, d_temp_storage, temp_storage_bytes, ::kit_emu::CUB_TEMP_BYTES)) \
        return e;                                                                            \
    if (!d_temp_storage)                                                                     \
        return cudaSuccess;

struct DeviceScan {
    template <class In, class Out, class Op, class Init, class N>
    static cudaError_t ExclusiveScan(void *d_temp_storage, size_t &temp_storage_bytes, In in, Out out, Op op,
                                     Init init, N num_items, cudaStream_t stream = 0)
    {
        return scan("cub::DeviceScan::ExclusiveScan", d_temp_storage, temp_storage_bytes, in, out, op, init, true,
                    (size_t)num_items, stream);
    }
    template <class In, class Out, class Op, class N>
    static cudaError_t InclusiveScan(void *d_temp_storage, size_t &temp_storage_bytes, In in, Out out, Op op,
                                     N num_items, cudaStream_t stream = 0)
    {
        return scan("cub::DeviceScan::InclusiveScan", d_temp_storage, temp_storage_bytes, in, out, op,
                    ::kit_emu::value_of<In>(0), false, (size_t)num_items, stream);
    }
    template <class In, class Out, class N>
    static cudaError_t ExclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, In in, Out out, N num_items,
                                    cudaStream_t stream = 0)
    {
        typedef ::kit_emu::value_of<In> T;
        return ExclusiveScan(d_temp_storage, temp_storage_bytes, in, out, std::plus<T>(), T(0), num_items, stream);
    }
    template <class In, class Out, class N>
    static cudaError_t InclusiveSum(void *d_temp_storage, size_t &temp_storage_bytes, In in, Out out, N num_items,
                                    cudaStream_t stream = 0)
    {
        typedef ::kit_emu::value_of<In> T;
        return InclusiveScan(d_temp_storage, temp_storage_bytes, in, out, std::plus<T>(), num_items, stream);
    }

private:
    /* An inclusive scan starts from the first value; init is used only when exclusive. */
    template <class In, class Out, class Op, class Init>
    static cudaError_t scan(const char *name, void *d_temp_storage, size_t &temp_storage_bytes, In in, Out out,
                            Op op, Init init, bool exclusive, size_t n, cudaStream_t stream)
    {
        KIT_EMU_CUB_PROLOGUE(name)
        return ::kit_emu::enqueue_host_work(stream, name, [=] {
            if (!::kit_emu::temp_ok(d_temp_storage) || !::kit_emu::range_ok(in, n, "its input") ||
                !::kit_emu::range_ok(out, n, "its output"))
                return;
            typedef ::kit_emu::value_of<In> T;
            std::vector<T> v(in, in + n); /* in place is allowed */
            T sum = exclusive ? (T)initial_value_of(init) : T(0);
            for (size_t i = 0; i < n; i++) {
                T next = exclusive || i ? op(sum, v[i]) : v[i];
                out[i] = exclusive ? sum : next;
                sum = next;
            }
        });
    }
};

struct DeviceReduce {
    /* The result is accumulated in the output's type, as CUB does. */
    template <class In, class Out, class N, class Op, class T>
    static cudaError_t Reduce(void *d_temp_storage, size_t &temp_storage_bytes, In in, Out out, N num_items, Op op,
                              T init, cudaStream_t stream = 0)
    {
        KIT_EMU_CUB_PROLOGUE("cub::DeviceReduce")
        size_t n = (size_t)num_items;
        return ::kit_emu::enqueue_host_work(stream, "cub::DeviceReduce", [=] {
            if (!::kit_emu::temp_ok(d_temp_storage) ||
                !::kit_emu::range_ok(in, n, "its input") || !::kit_emu::range_ok(out, 1, "its output"))
                return;
            T acc = init;
            for (size_t i = 0; i < n; i++)
                acc = op(acc, (T)in[i]);
            *out = acc;
        });
    }
    template <class In, class Out, class N>
    static cudaError_t Sum(void *d_temp_storage, size_t &temp_storage_bytes, In in, Out out, N num_items,
                           cudaStream_t stream = 0)
    {
        typedef ::kit_emu::value_of<Out> T;
        return Reduce(d_temp_storage, temp_storage_bytes, in, out, num_items, std::plus<T>(), T(0), stream);
    }
    template <class In, class Out, class N>
    static cudaError_t Max(void *d_temp_storage, size_t &temp_storage_bytes, In in, Out out, N num_items,
                           cudaStream_t stream = 0)
    {
        typedef ::kit_emu::value_of<In> T;
        return Reduce(d_temp_storage, temp_storage_bytes, in, out, num_items,
                      [](T a, T b) { return a < b ? b : a; }, std::numeric_limits<T>::lowest(), stream);
    }
    template <class In, class Out, class N>
    static cudaError_t Min(void *d_temp_storage, size_t &temp_storage_bytes, In in, Out out, N num_items,
                           cudaStream_t stream = 0)
    {
        typedef ::kit_emu::value_of<In> T;
        return Reduce(d_temp_storage, temp_storage_bytes, in, out, num_items,
                      [](T a, T b) { return b < a ? b : a; }, std::numeric_limits<T>::max(), stream);
    }
};

struct DeviceHistogram {
    /* num_levels - 1 equal bins over [lower, upper); samples outside are not counted. */
    template <class Samples, class Counter, class Level, class N>
    static cudaError_t HistogramEven(void *d_temp_storage, size_t &temp_storage_bytes, Samples samples,
                                     Counter *histogram, int num_levels, Level lower, Level upper, N num_samples,
                                     cudaStream_t stream = 0)
    {
        KIT_EMU_CUB_PROLOGUE("cub::DeviceHistogram::HistogramEven")
        if (num_levels < 2)
            return cudaErrorInvalidValue;
        size_t n = (size_t)num_samples, bins = (size_t)num_levels - 1;
        return ::kit_emu::enqueue_host_work(stream, "cub::DeviceHistogram::HistogramEven", [=] {
            if (!::kit_emu::temp_ok(d_temp_storage) ||
                !::kit_emu::range_ok(samples, n, "its samples") ||
                !::kit_emu::range_ok(histogram, bins, "its histogram"))
                return;
            std::vector<Counter> count(bins, 0);
            for (size_t i = 0; i < n; i++) {
                Level s = (Level)samples[i];
                if (!(s >= lower && s < upper))
                    continue;
                size_t bin;
                if constexpr (std::is_integral<Level>::value)
                    bin = (size_t)((unsigned __int128)((__int128)s - (__int128)lower) * bins /
                                   (unsigned __int128)((__int128)upper - (__int128)lower));
                else
                    bin = (size_t)(((double)s - (double)lower) / ((double)upper - (double)lower) * (double)bins);
                count[bin < bins ? bin : bins - 1]++;
            }
            std::copy(count.begin(), count.end(), histogram);
        });
    }
};

namespace detail {
/* The key's bits in an order where unsigned comparison sorts it as CUB does
 * (negative floats reversed, -0.0 equal to +0.0, NaNs by their bits at the ends). */
template <class K>
unsigned long long ordered_bits(K k)
{
    unsigned long long b = 0;
    memcpy(&b, &k, sizeof k);
    const unsigned long long sign = 1ull << (8 * sizeof(K) - 1);
    if constexpr (std::is_floating_point<K>::value) {
        if (b == sign) /* CUB sorts -0.0 as +0.0 */
            b = 0;
        b = (b & sign) ? ~b & (sign | (sign - 1)) : b | sign;
    }
    else if constexpr (std::is_signed<K>::value)
        b ^= sign;
    return b;
}
} // namespace detail

struct DeviceRadixSort {
    template <class K, class V, class N>
    static cudaError_t SortPairs(void *d_temp_storage, size_t &temp_storage_bytes, const K *keys_in, K *keys_out,
                                 const V *values_in, V *values_out, N num_items, int begin_bit = 0,
                                 int end_bit = (int)sizeof(K) * 8, cudaStream_t stream = 0)
    {
        KIT_EMU_CUB_PROLOGUE("cub::DeviceRadixSort")
        if (begin_bit < 0 || end_bit > (int)sizeof(K) * 8 || begin_bit > end_bit)
            return cudaErrorInvalidValue;
        size_t n = (size_t)num_items;
        return ::kit_emu::enqueue_host_work(stream, "cub::DeviceRadixSort", [=] {
            if (!::kit_emu::temp_ok(d_temp_storage) ||
                !::kit_emu::range_ok(keys_in, n, "its keys_in") || !::kit_emu::range_ok(keys_out, n, "its keys_out") ||
                (values_in && !::kit_emu::range_ok(values_in, n, "its values_in")) ||
                (values_out && !::kit_emu::range_ok(values_out, n, "its values_out")))
                return;
            const int bits = end_bit - begin_bit;
            const unsigned long long digit = bits >= 64 ? ~0ull : (1ull << bits) - 1;
            std::vector<size_t> order(n);
            for (size_t i = 0; i < n; i++)
                order[i] = i;
            std::vector<K> keys(keys_in, keys_in + n);
            std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
                return (detail::ordered_bits(keys[a]) >> begin_bit & digit) <
                       (detail::ordered_bits(keys[b]) >> begin_bit & digit);
            });
            std::vector<V> values;
            if (values_in)
                values.assign(values_in, values_in + n);
            for (size_t i = 0; i < n; i++) {
                keys_out[i] = keys[order[i]];
                if (values_in)
                    values_out[i] = values[order[i]];
            }
        });
    }
    template <class K, class N>
    static cudaError_t SortKeys(void *d_temp_storage, size_t &temp_storage_bytes, const K *keys_in, K *keys_out,
                                N num_items, int begin_bit = 0, int end_bit = (int)sizeof(K) * 8,
                                cudaStream_t stream = 0)
    {
        return SortPairs(d_temp_storage, temp_storage_bytes, keys_in, keys_out, (const char *)nullptr,
                         (char *)nullptr, num_items, begin_bit, end_bit, stream);
    }
};

struct DeviceMerge {
    /* Stable: of equal keys, those of the first input come first. */
    template <class K1, class V1, class K2, class V2, class KO, class VO, class N1, class N2, class Less>
    static cudaError_t MergePairs(void *d_temp_storage, size_t &temp_storage_bytes, K1 keys1, V1 values1, N1 num1,
                                  K2 keys2, V2 values2, N2 num2, KO keys_out, VO values_out, Less less = Less(),
                                  cudaStream_t stream = 0)
    {
        KIT_EMU_CUB_PROLOGUE("cub::DeviceMerge")
        size_t n1 = (size_t)num1, n2 = (size_t)num2;
        return ::kit_emu::enqueue_host_work(stream, "cub::DeviceMerge", [=] {
            if (!::kit_emu::temp_ok(d_temp_storage) ||
                !::kit_emu::range_ok(keys1, n1, "its first keys") || !::kit_emu::range_ok(keys2, n2, "its second keys") ||
                !::kit_emu::range_ok(keys_out, n1 + n2, "its output keys") ||
                (values1 && !::kit_emu::range_ok(values1, n1, "its first values")) ||
                (values2 && !::kit_emu::range_ok(values2, n2, "its second values")) ||
                (values_out && !::kit_emu::range_ok(values_out, n1 + n2, "its output values")))
                return;
            typedef ::kit_emu::value_of<KO> K;
            std::vector<K> a(keys1, keys1 + n1), b(keys2, keys2 + n2);
            std::vector<::kit_emu::value_of<VO>> va, vb;
            if (values_out) {
                va.assign(values1, values1 + n1);
                vb.assign(values2, values2 + n2);
            }
            size_t i = 0, j = 0, k = 0;
            while (i < n1 || j < n2) {
                bool take_b = i == n1 || (j < n2 && less(b[j], a[i]));
                keys_out[k] = take_b ? b[j] : a[i];
                if (values_out)
                    values_out[k] = take_b ? vb[j] : va[i];
                k++;
                (take_b ? j : i)++;
            }
        });
    }
    template <class K1, class K2, class KO, class N1, class N2, class Less>
    static cudaError_t MergeKeys(void *d_temp_storage, size_t &temp_storage_bytes, K1 keys1, N1 num1, K2 keys2,
                                 N2 num2, KO keys_out, Less less = Less(), cudaStream_t stream = 0)
    {
        return MergePairs(d_temp_storage, temp_storage_bytes, keys1, (const char *)nullptr, num1, keys2,
                          (const char *)nullptr, num2, keys_out, (char *)nullptr, less, stream);
    }
};

struct DeviceSelect {
    template <class In, class Out, class Count, class N, class Pred>
    static cudaError_t If(void *d_temp_storage, size_t &temp_storage_bytes, In in, Out out, Count *num_selected,
                          N num_items, Pred select, cudaStream_t stream = 0)
    {
        KIT_EMU_CUB_PROLOGUE("cub::DeviceSelect::If")
        size_t n = (size_t)num_items;
        return ::kit_emu::enqueue_host_work(stream, "cub::DeviceSelect::If", [=] {
            if (!::kit_emu::temp_ok(d_temp_storage) ||
                !::kit_emu::range_ok(in, n, "its input") || !::kit_emu::range_ok(num_selected, 1, "its count"))
                return;
            std::vector<::kit_emu::value_of<In>> v(in, in + n); /* in place is allowed */
            size_t kept = 0;
            for (size_t i = 0; i < n; i++)
                if (select(v[i]))
                    kept++;
            if (!::kit_emu::range_ok(out, kept, "its output"))
                return;
            kept = 0;
            for (size_t i = 0; i < n; i++)
                if (select(v[i]))
                    out[kept++] = v[i];
            *num_selected = (Count)kept;
        });
    }
};
#undef KIT_EMU_CUB_PROLOGUE

/* A block-wide scan: every thread of the block calls it (it holds barriers). */
template <class T, int BLOCK_DIM_X, BlockScanAlgorithm ALGORITHM = BLOCK_SCAN_RAKING, int BLOCK_DIM_Y = 1,
          int BLOCK_DIM_Z = 1>
class BlockScan {
    enum { THREADS = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z };

public:
    struct TempStorage {
        T in[THREADS];
        T out[THREADS];
        T total;
    };
    explicit BlockScan(TempStorage &storage) : s(storage) {}
    void ExclusiveSum(T input, T &output) { T total; ExclusiveSum(input, output, total); }
    void ExclusiveSum(T input, T &output, T &block_aggregate)
    {
        scan(input, output, block_aggregate, T(0), std::plus<T>(), true);
    }
    void InclusiveSum(T input, T &output) { T total; InclusiveSum(input, output, total); }
    void InclusiveSum(T input, T &output, T &block_aggregate)
    {
        scan(input, output, block_aggregate, T(0), std::plus<T>(), false);
    }
    template <class Op>
    void ExclusiveScan(T input, T &output, T initial, Op op)
    {
        T total;
        scan(input, output, total, initial, op, true);
    }

private:
    TempStorage &s;
    template <class Op>
    void scan(T input, T &output, T &total, T initial, Op op, bool exclusive)
    {
        const int tid = (int)((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x);
        s.in[tid] = input;
        __syncthreads();
        if (tid == 0) {
            T sum = initial;
            for (int i = 0; i < THREADS; i++) {
                T next = op(sum, s.in[i]);
                s.out[i] = exclusive ? sum : next;
                sum = next;
            }
            s.total = exclusive ? op(s.out[THREADS - 1], s.in[THREADS - 1]) : s.out[THREADS - 1];
        }
        __syncthreads();
        output = s.out[tid];
        total = s.total;
    }
};

} // namespace cub
#endif
