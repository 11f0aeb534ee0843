/* hooks.cc: where the checks see a kernel's memory accesses. The emulation build
 * compiles the labs' CUDA files with GCC's -fsanitize=thread instrumentation, which
 * calls __tsan_read4(address) before a 4-byte load and so on, but links no
 * ThreadSanitizer: these functions are the runtime instead. Each hands the access
 * to access() (bounds, owner GPU, the shared-memory race detector); volatile and
 * atomic loads also tell a polling thread from a working one, and atomics on
 * device memory are points where another block may run. */
#include "emu.h"

#include <string.h>

namespace kit_emu {
/* The common case inline: an access of a running thread to its own GPU's memory,
 * within one addressable 8-byte granule; everything else goes to access(). */
static inline void checked(const volatile void *a, size_t n, unsigned flags, const void *pc)
{
    const uintptr_t x = (uintptr_t)a, off = x - watched_lo;
    if (off >= watched_span) {
        if (x < 65536) /* the rest is the host's */
            access(x, n, flags, pc);
        return;
    }
    const thread_info *t = current;
    if (t && off < HEAP_SPAN && (x & 7) + n <= heap_shadow[off / 8] && heap_owners[off / HEAP_PAGE] == t->owner &&
        !(flags & ACC_ATOMIC)) {
        if ((flags & ACC_WRITE) && !t->spinning)
            made_progress();
        return;
    }
    access(x, n, flags, pc);
}

static inline bool global(const volatile void *a) { return !in_shared((uintptr_t)a); }

/* An atomic that keeps seeing the same value is a poll (atomicAdd(p, 0), a failing
 * CAS); one on device memory is a point where another block may run. */
static inline void after_rmw(const volatile void *a, uint64_t seen)
{
    polled((uintptr_t)a, seen);
    if (global(a))
        sync_point(nullptr, 0);
}

template <class T>
static void volatile_read_at(void *a, const void *pc)
{
    checked(a, sizeof(T), ACC_VOLATILE, pc);
    T v;
    memcpy(&v, a, sizeof v);
    polled((uintptr_t)a, (uint64_t)v); /* a volatile load is how older code polls */
}

template <class T>
static T atomic_load_at(const volatile T *a, const void *pc)
{
    checked(a, sizeof(T), ACC_ATOMIC, pc);
    T v = __atomic_load_n(a, __ATOMIC_SEQ_CST);
    polled((uintptr_t)a, (uint64_t)v);
    return v;
}

template <class T>
static void atomic_store_at(volatile T *a, T v, const void *pc)
{
    checked(a, sizeof(T), ACC_ATOMIC | ACC_WRITE, pc);
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);
    if (global(a))
        sync_point(nullptr, 0);
}

/* *c: the value expected, and afterwards the one found. */
template <class T>
static int cas_at(volatile T *a, T *c, T v, const void *pc)
{
    checked(a, sizeof(T), ACC_ATOMIC | ACC_WRITE, pc);
    int ok = __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    after_rmw(a, ok ? v : *c);
    return ok;
}
} // namespace kit_emu

using namespace kit_emu;

#define PC __builtin_return_address(0)

extern "C" {
void __tsan_init() {}
void __tsan_func_entry(void *) {}
void __tsan_func_exit() {}
void __tsan_vptr_update(void **, void *) {}
void __tsan_vptr_read(void **) {}

#define PLAIN(N, T)                                                                                    \
    void __tsan_read##N(void *a) { checked(a, N, 0, PC); }                                             \
    void __tsan_write##N(void *a) { checked(a, N, ACC_WRITE, PC); }                                    \
    void __tsan_unaligned_read##N(void *a) { checked(a, N, 0, PC); }                                   \
    void __tsan_unaligned_write##N(void *a) { checked(a, N, ACC_WRITE, PC); }                          \
    void __tsan_volatile_read##N(void *a) { volatile_read_at<T>(a, PC); }                              \
    void __tsan_volatile_write##N(void *a) { checked(a, N, ACC_WRITE | ACC_VOLATILE, PC); }
PLAIN(1, uint8_t)
PLAIN(2, uint16_t)
PLAIN(4, uint32_t)
PLAIN(8, uint64_t)
PLAIN(16, uint64_t)
#undef PLAIN

void __tsan_read_range(void *a, unsigned long n) { checked(a, n, 0, PC); }
void __tsan_write_range(void *a, unsigned long n) { checked(a, n, ACC_WRITE, PC); }

void __tsan_atomic_thread_fence(int) { sync_point(nullptr, 0); }
void __tsan_atomic_signal_fence(int) {}

#define RMW(N, T, NAME, BUILTIN)                                                                        \
    T __tsan_atomic##N##_##NAME(volatile T *a, T v, int)                                                \
    {                                                                                                   \
        checked(a, sizeof(T), ACC_ATOMIC | ACC_WRITE, PC);                                              \
        T old = BUILTIN(a, v, __ATOMIC_SEQ_CST);                                                        \
        after_rmw(a, old);                                                                              \
        return old;                                                                                     \
    }
#define ATOMICS(N, T)                                                                                   \
    T __tsan_atomic##N##_load(const volatile T *a, int) { return atomic_load_at(a, PC); }              \
    void __tsan_atomic##N##_store(volatile T *a, T v, int) { atomic_store_at(a, v, PC); }              \
    RMW(N, T, exchange, __atomic_exchange_n)                                                            \
    RMW(N, T, fetch_add, __atomic_fetch_add)                                                            \
    RMW(N, T, fetch_sub, __atomic_fetch_sub)                                                            \
    RMW(N, T, fetch_and, __atomic_fetch_and)                                                            \
    RMW(N, T, fetch_or, __atomic_fetch_or)                                                              \
    RMW(N, T, fetch_xor, __atomic_fetch_xor)                                                            \
    RMW(N, T, fetch_nand, __atomic_fetch_nand)                                                          \
    int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, int, int)                  \
    {                                                                                                   \
        return cas_at(a, c, v, PC);                                                                     \
    }                                                                                                   \
    int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, int, int)                    \
    {                                                                                                   \
        return cas_at(a, c, v, PC);                                                                     \
    }                                                                                                   \
    T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int, int)                        \
    {                                                                                                   \
        cas_at(a, &c, v, PC);                                                                           \
        return c;                                                                                       \
    }
ATOMICS(8, uint8_t)
ATOMICS(16, uint16_t)
ATOMICS(32, uint32_t)
ATOMICS(64, uint64_t)
#undef ATOMICS
#undef RMW
}
