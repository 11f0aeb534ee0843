/* kit_emu/device.h: what a CUDA file sees of the GPU under the kit's emulator.
 *
 * Built with the host compiler, a kernel is an ordinary C++ function that every
 * emulated thread (a fiber) calls. threadIdx & co. read the running fiber's
 * record; barriers, warp intrinsics and cuda::barrier are meeting points in the
 * emulator's scheduler (common/emu/kernel.cc); the launch, __shared__ and inline
 * PTX reach here through tools/emu-rewrite.cc. Intrinsics take the caller's file
 * and line (__builtin_FILE) so that the emulator's messages name the student's
 * line, not this header's. */
#ifndef KIT_EMU_DEVICE_H
#define KIT_EMU_DEVICE_H

#include "../cuda_runtime_api.h"

/* What nvcc's own cuda_runtime.h brings in, which CUDA code may rely on. */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmath>
#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#define __global__ __attribute__((unused))
#define __device__ __attribute__((unused)) /* as nvcc, quiet about device code the host never calls */
#define __host__
#define __constant__
#define __managed__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#define __grid_constant__
#define KIT_EMU_HERE const char *file = __builtin_FILE(), int line = __builtin_LINE()

static constexpr int warpSize = 32;

namespace kit_emu {

/* The emulated thread's coordinates: the first member of the scheduler's fiber,
 * with two things the emulator's memory checks read on every access. */
struct thread_info {
    uint3 thread_idx, block_idx;
    dim3 block_dim, grid_dim;
    int owner;     /* the GPU running it, as the owner code of its memory (device + 1) */
    bool spinning; /* polling without seeing anything new */
};
extern thread_info *current; /* the running emulated thread; NULL on the host */

/* ---- launches (K<<<...>>>(args) becomes K % launch_at(...)(args)) ---------- */
struct launch_config {
    const char *file;
    int line;
    dim3 grid, block;
    size_t smem;
    cudaStream_t stream;
};
struct kernel_body {
    virtual void run() const = 0;
    virtual ~kernel_body() {}
};
template <class... P>
struct kernel_call final : kernel_body {
    void (*fn)(P...);
    std::tuple<std::decay_t<P>...> args;
    template <class Tuple, size_t... I>
    kernel_call(void (*f)(P...), Tuple &&a, std::index_sequence<I...>) : fn(f), args(std::get<I>(a)...) {}
    void run() const override { std::apply(fn, args); } /* each thread gets its own copies */
};
void submit_launch(const launch_config &cfg, const void *kernel, kernel_body *body);

template <class... A>
struct pending_launch {
    launch_config cfg;
    std::tuple<A...> args;
};
struct launch_site {
    launch_config cfg;
    template <class... A>
    pending_launch<std::decay_t<A>...> operator()(A &&...a) const
    {
        return { cfg, std::tuple<std::decay_t<A>...>(std::forward<A>(a)...) };
    }
};
inline launch_site launch_at(const char *file, int line, dim3 grid, dim3 block, size_t smem = 0,
                             cudaStream_t stream = 0)
{
    return { { file, line, grid, block, smem, stream } };
}
template <class... P, class... A>
void operator%(void (*kernel)(P...), pending_launch<A...> &&launch)
{
    static_assert(sizeof...(P) == sizeof...(A), "a kernel launched with the wrong number of arguments");
    submit_launch(launch.cfg, (const void *)kernel,
                  new kernel_call<P...>(kernel, std::move(launch.args), std::index_sequence_for<A...>{}));
}

/* ---- shared memory ----------------------------------------------------------- */
void *shared_alloc(const void *site, size_t bytes, size_t align, size_t elem, const char *name);
void *dynamic_shared_base(size_t align);
template <class T>
T *shared_var(size_t align, const void *site, const char *name)
{
    return static_cast<T *>(shared_alloc(site, sizeof(T), align > alignof(T) ? align : alignof(T),
                                         sizeof(std::remove_all_extents_t<T>), name));
}
template <class T>
T *dynamic_shared(size_t align)
{
    return static_cast<T *>(dynamic_shared_base(align > alignof(T) ? align : alignof(T)));
}

/* ---- inline PTX (interpreted: common/emu/ptx.cc) -------------------------- */
struct ptx_operand {
    uint64_t value;
    void *out;
    int size;
};
template <class T>
ptx_operand ptx_in(const T &v)
{
    static_assert(sizeof(T) <= 8, "an inline PTX operand wider than 64 bits");
    ptx_operand o = { 0, nullptr, (int)sizeof(T) };
    memcpy(&o.value, &v, sizeof(T));
    if (std::is_signed<T>::value && sizeof(T) < 8 && (o.value >> (8 * sizeof(T) - 1) & 1))
        o.value |= ~0ull << (8 * sizeof(T)); /* sign-extend */
    return o;
}
template <class T>
ptx_operand ptx_out(T &v)
{
    static_assert(sizeof(T) <= 8, "an inline PTX operand wider than 64 bits");
    return { 0, (void *)&v, (int)sizeof(T) };
}
template <class T>
ptx_operand ptx_inout(T &v)
{
    ptx_operand o = ptx_in(v);
    o.out = (void *)&v;
    return o;
}
void ptx_exec(const char *file, int line, const char *code, ptx_operand *ops, int count);
template <class... O>
void ptx(const char *file, int line, const char *code, O... ops)
{
    ptx_operand list[sizeof...(O) + 1] = { ops... };
    ptx_exec(file, line, code, list, (int)sizeof...(O));
}

/* ---- barriers and warp collectives (meeting points) ---------------------- */
enum collective {
    COLL_SYNCWARP,
    COLL_SHFL_IDX,
    COLL_SHFL_UP,
    COLL_SHFL_DOWN,
    COLL_SHFL_XOR,
    COLL_BALLOT,
    COLL_ANY,
    COLL_ALL,
    COLL_MATCH_ANY,
    COLL_MATCH_ALL,
    COLL_REDUCE_ADD,
    COLL_REDUCE_MIN,
    COLL_REDUCE_MAX,
    COLL_REDUCE_UMIN,
    COLL_REDUCE_UMAX,
    COLL_REDUCE_AND,
    COLL_REDUCE_OR,
    COLL_REDUCE_XOR
};
uint64_t warp_collective(collective kind, unsigned mask, uint64_t value, int value_bytes, int arg, int width,
                         const char *file, int line);
enum barrier_reduce { BAR_PLAIN, BAR_COUNT, BAR_AND, BAR_OR };
int block_barrier(barrier_reduce op, int predicate, const char *file, int line);
unsigned active_mask();
void spin_pause(const char *file, int line); /* __nanosleep: a poll that waits */
void trap(const char *file, int line);
long long clock_ticks();

template <class T>
uint64_t bits_of(T v)
{
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable<T>::value,
                  "warp shuffles move values of at most 64 bits");
    uint64_t b = 0;
    memcpy(&b, &v, sizeof v);
    return b;
}
template <class T>
T from_bits(uint64_t b)
{
    T v;
    memcpy(&v, &b, sizeof v);
    return v;
}
template <class T>
T shuffle(collective kind, unsigned mask, T var, int arg, int width, const char *file, int line)
{
    return from_bits<T>(warp_collective(kind, mask, bits_of(var), (int)sizeof(T), arg, width, file, line));
}
} // namespace kit_emu

/* ---- coordinates ---------------------------------------------------------------- */
#define threadIdx (static_cast<const ::uint3 &>(::kit_emu::current->thread_idx))
#define blockIdx (static_cast<const ::uint3 &>(::kit_emu::current->block_idx))
#define blockDim (static_cast<const ::dim3 &>(::kit_emu::current->block_dim))
#define gridDim (static_cast<const ::dim3 &>(::kit_emu::current->grid_dim))

/* ---- barriers ---------------------------------------------------------------- */
inline void __syncthreads(KIT_EMU_HERE) { ::kit_emu::block_barrier(::kit_emu::BAR_PLAIN, 0, file, line); }
inline int __syncthreads_count(int p, KIT_EMU_HERE) { return ::kit_emu::block_barrier(::kit_emu::BAR_COUNT, p, file, line); }
inline int __syncthreads_and(int p, KIT_EMU_HERE) { return ::kit_emu::block_barrier(::kit_emu::BAR_AND, p, file, line); }
inline int __syncthreads_or(int p, KIT_EMU_HERE) { return ::kit_emu::block_barrier(::kit_emu::BAR_OR, p, file, line); }
inline void __syncwarp(unsigned mask = 0xffffffffu, KIT_EMU_HERE)
{
    ::kit_emu::warp_collective(::kit_emu::COLL_SYNCWARP, mask, 0, 0, 0, 32, file, line);
}

/* ---- warp shuffles, votes, matches and reductions ------------------------------ */
template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32, KIT_EMU_HERE)
{
    return ::kit_emu::shuffle(::kit_emu::COLL_SHFL_IDX, mask, var, src_lane, width, file, line);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32, KIT_EMU_HERE)
{
    return ::kit_emu::shuffle(::kit_emu::COLL_SHFL_UP, mask, var, (int)delta, width, file, line);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32, KIT_EMU_HERE)
{
    return ::kit_emu::shuffle(::kit_emu::COLL_SHFL_DOWN, mask, var, (int)delta, width, file, line);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32, KIT_EMU_HERE)
{
    return ::kit_emu::shuffle(::kit_emu::COLL_SHFL_XOR, mask, var, lane_mask, width, file, line);
}
inline unsigned __ballot_sync(unsigned mask, int predicate, KIT_EMU_HERE)
{
    return (unsigned)::kit_emu::warp_collective(::kit_emu::COLL_BALLOT, mask, predicate != 0, 4, 0, 32, file, line);
}
inline int __any_sync(unsigned mask, int predicate, KIT_EMU_HERE)
{
    return (int)::kit_emu::warp_collective(::kit_emu::COLL_ANY, mask, predicate != 0, 4, 0, 32, file, line);
}
inline int __all_sync(unsigned mask, int predicate, KIT_EMU_HERE)
{
    return (int)::kit_emu::warp_collective(::kit_emu::COLL_ALL, mask, predicate != 0, 4, 0, 32, file, line);
}
template <class T>
unsigned __match_any_sync(unsigned mask, T value, KIT_EMU_HERE)
{
    return (unsigned)::kit_emu::warp_collective(::kit_emu::COLL_MATCH_ANY, mask, ::kit_emu::bits_of(value),
                                                (int)sizeof(T), 0, 32, file, line);
}
template <class T>
unsigned __match_all_sync(unsigned mask, T value, int *pred, KIT_EMU_HERE)
{
    uint64_t r = ::kit_emu::warp_collective(::kit_emu::COLL_MATCH_ALL, mask, ::kit_emu::bits_of(value),
                                            (int)sizeof(T), 0, 32, file, line);
    *pred = (int)(r >> 32);
    return (unsigned)r;
}
#define KIT_EMU_REDUCE(NAME, KIND, T)                                                                \
    inline T NAME(unsigned mask, T value, KIT_EMU_HERE)                                             \
    {                                                                                               \
        return (T)::kit_emu::warp_collective(::kit_emu::KIND, mask, ::kit_emu::bits_of(value), 4, 0, 32, file, \
                                             line);                                                 \
    }
KIT_EMU_REDUCE(__reduce_add_sync, COLL_REDUCE_ADD, unsigned)
KIT_EMU_REDUCE(__reduce_add_sync, COLL_REDUCE_ADD, int)
KIT_EMU_REDUCE(__reduce_min_sync, COLL_REDUCE_UMIN, unsigned)
KIT_EMU_REDUCE(__reduce_min_sync, COLL_REDUCE_MIN, int)
KIT_EMU_REDUCE(__reduce_max_sync, COLL_REDUCE_UMAX, unsigned)
KIT_EMU_REDUCE(__reduce_max_sync, COLL_REDUCE_MAX, int)
KIT_EMU_REDUCE(__reduce_and_sync, COLL_REDUCE_AND, unsigned)
KIT_EMU_REDUCE(__reduce_or_sync, COLL_REDUCE_OR, unsigned)
KIT_EMU_REDUCE(__reduce_xor_sync, COLL_REDUCE_XOR, unsigned)
#undef KIT_EMU_REDUCE
inline unsigned __activemask() { return ::kit_emu::active_mask(); }

/* ---- memory fences, sleeping, clocks ------------------------------------------ */
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
inline void __nanosleep(unsigned ns, KIT_EMU_HERE) { (void)ns, ::kit_emu::spin_pause(file, line); }
inline long long clock64() { return ::kit_emu::clock_ticks(); }
inline void __trap(KIT_EMU_HERE) { ::kit_emu::trap(file, line); }

/* ---- loads and stores with cache hints ------------------------------------------ */
/* Past L1 (cg, cv, lu, cs): a volatile load here, which the emulator watches for
 * polling; through L1 or the read-only path (ca, g): a plain one. */
namespace kit_emu {
template <class T>
inline T load_past_l1(const T *p)
{
    if constexpr (std::is_scalar<T>::value)
        return *(const volatile T *)p;
    else
        return *p;
}
} // namespace kit_emu
template <class T>
inline T __ldg(const T *p) { return *p; }
template <class T>
inline T __ldca(const T *p) { return *p; }
template <class T>
inline T __ldcg(const T *p) { return ::kit_emu::load_past_l1(p); }
template <class T>
inline T __ldcs(const T *p) { return ::kit_emu::load_past_l1(p); }
template <class T>
inline T __ldlu(const T *p) { return ::kit_emu::load_past_l1(p); }
template <class T>
inline T __ldcv(const T *p) { return ::kit_emu::load_past_l1(p); }
#define KIT_EMU_STORE(NAME)                         \
    template <class T>                              \
    inline void NAME(T *p, T v) { *p = v; }
KIT_EMU_STORE(__stcg)
KIT_EMU_STORE(__stcs)
KIT_EMU_STORE(__stwb)
KIT_EMU_STORE(__stwt)
#undef KIT_EMU_STORE

/* ---- atomics (relaxed, device scope; _block and _system alike) ---------------------- */
#define KIT_EMU_RMW(NAME, BUILTIN, T)                                                      \
    inline T NAME(T *a, T v) { return BUILTIN(a, v, __ATOMIC_RELAXED); }                    \
    inline T NAME##_block(T *a, T v) { return BUILTIN(a, v, __ATOMIC_RELAXED); }            \
    inline T NAME##_system(T *a, T v) { return BUILTIN(a, v, __ATOMIC_RELAXED); }
KIT_EMU_RMW(atomicAdd, __atomic_fetch_add, int)
KIT_EMU_RMW(atomicAdd, __atomic_fetch_add, unsigned)
KIT_EMU_RMW(atomicAdd, __atomic_fetch_add, unsigned long long)
KIT_EMU_RMW(atomicSub, __atomic_fetch_sub, int)
KIT_EMU_RMW(atomicSub, __atomic_fetch_sub, unsigned)
KIT_EMU_RMW(atomicExch, __atomic_exchange_n, int)
KIT_EMU_RMW(atomicExch, __atomic_exchange_n, unsigned)
KIT_EMU_RMW(atomicExch, __atomic_exchange_n, unsigned long long)
KIT_EMU_RMW(atomicAnd, __atomic_fetch_and, int)
KIT_EMU_RMW(atomicAnd, __atomic_fetch_and, unsigned)
KIT_EMU_RMW(atomicAnd, __atomic_fetch_and, unsigned long long)
KIT_EMU_RMW(atomicOr, __atomic_fetch_or, int)
KIT_EMU_RMW(atomicOr, __atomic_fetch_or, unsigned)
KIT_EMU_RMW(atomicOr, __atomic_fetch_or, unsigned long long)
KIT_EMU_RMW(atomicXor, __atomic_fetch_xor, int)
KIT_EMU_RMW(atomicXor, __atomic_fetch_xor, unsigned)
KIT_EMU_RMW(atomicXor, __atomic_fetch_xor, unsigned long long)
#undef KIT_EMU_RMW

namespace kit_emu {
/* An atomic read-modify-write through compare-and-swap on the value's bits. */
template <class T, class F>
T cas_update(T *a, F update)
{
    typedef std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t> word;
    static_assert(sizeof(T) == sizeof(word), "32- or 64-bit atomics");
    word *w = reinterpret_cast<word *>(a);
    word old = __atomic_load_n(w, __ATOMIC_RELAXED), next;
    do {
        T now;
        memcpy(&now, &old, sizeof now);
        T want = update(now);
        memcpy(&next, &want, sizeof next);
    } while (!__atomic_compare_exchange_n(w, &old, next, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    T r;
    memcpy(&r, &old, sizeof r);
    return r;
}
} // namespace kit_emu
#define KIT_EMU_CAS_OP(NAME, T, EXPR)                                                          \
    inline T NAME(T *a, T v) { return ::kit_emu::cas_update(a, [v](T x) { return EXPR; }); }  \
    inline T NAME##_block(T *a, T v) { return NAME(a, v); }                                    \
    inline T NAME##_system(T *a, T v) { return NAME(a, v); }
KIT_EMU_CAS_OP(atomicAdd, float, x + v)
KIT_EMU_CAS_OP(atomicAdd, double, x + v)
KIT_EMU_CAS_OP(atomicExch, float, ((void)x, v))
KIT_EMU_CAS_OP(atomicMin, int, x < v ? x : v)
KIT_EMU_CAS_OP(atomicMin, unsigned, x < v ? x : v)
KIT_EMU_CAS_OP(atomicMin, long long, x < v ? x : v)
KIT_EMU_CAS_OP(atomicMin, unsigned long long, x < v ? x : v)
KIT_EMU_CAS_OP(atomicMax, int, x > v ? x : v)
KIT_EMU_CAS_OP(atomicMax, unsigned, x > v ? x : v)
KIT_EMU_CAS_OP(atomicMax, long long, x > v ? x : v)
KIT_EMU_CAS_OP(atomicMax, unsigned long long, x > v ? x : v)
KIT_EMU_CAS_OP(atomicInc, unsigned, x >= v ? 0u : x + 1)
KIT_EMU_CAS_OP(atomicDec, unsigned, x == 0 || x > v ? v : x - 1)
#undef KIT_EMU_CAS_OP
#define KIT_EMU_CAS(T)                                                                      \
    inline T atomicCAS(T *a, T compare, T value)                                             \
    {                                                                                        \
        __atomic_compare_exchange_n(a, &compare, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
        return compare;                                                                      \
    }                                                                                        \
    inline T atomicCAS_block(T *a, T c, T v) { return atomicCAS(a, c, v); }                   \
    inline T atomicCAS_system(T *a, T c, T v) { return atomicCAS(a, c, v); }
KIT_EMU_CAS(int)
KIT_EMU_CAS(unsigned)
KIT_EMU_CAS(unsigned long long)
KIT_EMU_CAS(unsigned short)
#undef KIT_EMU_CAS

/* ---- integer and float intrinsics --------------------------------------------------- */
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x ? __builtin_clz((unsigned)x) : 32; }
inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++)
        r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
inline unsigned long long __brevll(unsigned long long x)
{
    return (unsigned long long)__brev((unsigned)x) << 32 | __brev((unsigned)(x >> 32));
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long bytes = (unsigned long long)y << 32 | x;
    unsigned r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned)((bytes >> (8 * ((s >> (4 * i)) & 7))) & 0xff) << (8 * i);
    return r;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)((((unsigned long long)hi << 32 | lo) << (s & 31)) >> 32);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned s)
{
    return (unsigned)(((unsigned long long)hi << 32 | lo) >> (s & 31));
}
inline unsigned __umulhi(unsigned a, unsigned b) { return (unsigned)(((unsigned long long)a * b) >> 32); }
inline int __mulhi(int a, int b) { return (int)(((long long)a * b) >> 32); }
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
inline long long __mul64hi(long long a, long long b) { return (long long)(((__int128)a * b) >> 64); }
namespace kit_emu {
template <class To, class From>
inline To bit_cast(From x)
{
    static_assert(sizeof(To) == sizeof(From), "same size");
    To r;
    memcpy(&r, &x, sizeof r);
    return r;
}
} // namespace kit_emu
inline long long __double_as_longlong(double x) { return ::kit_emu::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return ::kit_emu::bit_cast<double>(x); }
inline int __float_as_int(float x) { return ::kit_emu::bit_cast<int>(x); }
inline unsigned __float_as_uint(float x) { return ::kit_emu::bit_cast<unsigned>(x); }
inline float __int_as_float(int x) { return ::kit_emu::bit_cast<float>(x); }
inline float __uint_as_float(unsigned x) { return ::kit_emu::bit_cast<float>(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __saturatef(float x) { return x < 0.f ? 0.f : x > 1.f ? 1.f : x; }
inline float rsqrtf(float x) { return 1.f / std::sqrt(x); }
inline int __float2int_rn(float x) { return (int)std::nearbyint(x); }
inline int __float2int_rz(float x) { return (int)x; }

/* CUDA's min and max for every integer and float type (the device's math header). */
#define KIT_EMU_MINMAX(T)                                   \
    inline T min(T a, T b) { return a < b ? a : b; }        \
    inline T max(T a, T b) { return a > b ? a : b; }
KIT_EMU_MINMAX(int)
KIT_EMU_MINMAX(unsigned)
KIT_EMU_MINMAX(long)
KIT_EMU_MINMAX(unsigned long)
KIT_EMU_MINMAX(long long)
KIT_EMU_MINMAX(unsigned long long)
KIT_EMU_MINMAX(float)
KIT_EMU_MINMAX(double)
#undef KIT_EMU_MINMAX
inline unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
inline long long llmin(long long a, long long b) { return a < b ? a : b; }
inline long long llmax(long long a, long long b) { return a > b ? a : b; }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }

/* ---- vector constructors -------------------------------------------------------------- */
inline int2 make_int2(int x, int y) { return { x, y }; }
inline uint2 make_uint2(unsigned x, unsigned y) { return { x, y }; }
inline float2 make_float2(float x, float y) { return { x, y }; }
inline longlong2 make_longlong2(long long x, long long y) { return { x, y }; }
inline ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y) { return { x, y }; }
inline double2 make_double2(double x, double y) { return { x, y }; }
inline int3 make_int3(int x, int y, int z) { return { x, y, z }; }
inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return { x, y, z }; }
inline float3 make_float3(float x, float y, float z) { return { x, y, z }; }
inline int4 make_int4(int x, int y, int z, int w) { return { x, y, z, w }; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return { x, y, z, w }; }
inline float4 make_float4(float x, float y, float z, float w) { return { x, y, z, w }; }

#endif
