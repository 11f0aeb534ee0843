/* emu.h: the inside of the kit's CPU emulator, shared by its sources (never by a
 * lab's). The design is in README.md beside this file: one host thread runs
 * everything; each CUDA thread is a fiber; streams are queues run at the host's
 * synchronizing calls in a seeded random legal order. */
#ifndef KIT_EMU_EMU_H
#define KIT_EMU_EMU_H

#include "include/cuda_runtime_api.h"
#include "include/kit_emu/device.h"
#include "include/cuda/barrier"

#include <stdarg.h>
#include <stdint.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace kit_emu {

enum { MAX_GPUS = 16, MAX_THREADS = 1024, WARP = 32 };

/* ---- settings (environment, read once) -------------------------------------------- */
struct settings {
    int gpus;               /* KIT_EMU_GPUS */
    int sms;                /* KIT_EMU_SMS: the emulated multiprocessors per GPU */
    unsigned long long seed; /* KIT_EMU_SEED */
    size_t stack_bytes;     /* KIT_EMU_STACK_KB */
    size_t memory_bytes;    /* KIT_EMU_MEMORY_MIB: device memory each GPU reports */
    double hang_s;          /* KIT_EMU_HANG_S: a kernel without progress this long is stopped */
    int preempt;            /* KIT_EMU_PREEMPT: 1 in N sync points switch blocks (0: never) */
};
const settings &config();
uint64_t random_u64(); /* the seeded generator every choice draws from */

/* ---- messages ----------------------------------------------------------------------- */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
[[noreturn]] void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "file:line" of code at pc (the caller of an instrumented access), inlined frames too. */
std::string where_is(const void *pc);
std::string caller_place(const void *pc); /* file:line of the outermost frame only */
std::string function_name(const void *fn);
std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- device memory ------------------------------------------------------------------- */
enum { OWNER_NONE = 0, OWNER_HOST = 0xff }; /* else device + 1 */
struct allocation {
    uintptr_t base;
    size_t size, span; /* bytes asked for; bytes reserved (pages, guard included) */
    int owner;
    bool freed;
    std::string name;
    const void *caller;
};
void memory_init();
/* Every address the checks care about (device memory, shared memory) lies in
 * [watched_lo, watched_lo + watched_span): one comparison lets the others pass. */
extern uintptr_t watched_lo;
extern size_t watched_span;
static const size_t SHARED_WINDOWS = (size_t)256 << 20; /* 256 blocks' shared memory of 1 MiB */
void shared_windows_at(char *lo); /* kernel.cc: their place, in memory_init's reservation */
bool in_heap(uintptr_t a);
int owner_of(uintptr_t a);
allocation *allocation_near(uintptr_t a); /* the allocation at or just before a */
void *heap_alloc(size_t bytes, int owner, const void *caller);
cudaError_t heap_free(void *p, bool host, const char *call);
size_t heap_in_use(int owner);
/* Bytes [a, a + n) all addressable? If not, *bad is the first that is not. */
bool heap_addressable(uintptr_t a, size_t n, uintptr_t *bad);
/* "byte 132 of 'input' (132 bytes, allocated at x.c:40)", or what else p is. */
std::string describe_heap(uintptr_t a, size_t n);
/* Check [p, p + n) for an operation (memcpy, NCCL, CUB): device memory of owner
 * (-1: any device or pinned host memory), addressable. Reports and returns false. */
bool heap_range_ok(const void *p, size_t n, int owner, const char *what, const char *op);

/* ---- errors of the CUDA API --------------------------------------------------------------- */
cudaError_t set_last(cudaError_t e);
void set_async(cudaError_t e); /* a failure inside a kernel or an operation: the next sync returns it */
cudaError_t take_async();
bool async_pending(); /* a failure not yet returned to the program */

/* ---- devices -------------------------------------------------------------------------- */
int current_device();
bool peer_enabled(int from, int to);
int blocks_per_sm(int threads, size_t shared_bytes);
struct kernel_attr {
    size_t max_dynamic_shared = 48 * 1024;
    /* Measured when a block of it ran (0 before): so the emulator cannot hold static +
     * dynamic shared memory to the limit, and does not (common/emu/README.md). */
    size_t static_shared = 0;
};
kernel_attr &attributes_of(const void *kernel);
enum : size_t { SHARED_DEFAULT = 48 * 1024, SHARED_OPTIN = 227 * 1024, SHARED_PER_SM = 228 * 1024 };

/* ---- streams and their operations --------------------------------------------------------- */
struct op;
struct stream_state;
typedef std::shared_ptr<op> op_ptr;
struct op {
    const char *what = "";
    stream_state *stream = nullptr;
    std::vector<op_ptr> after; /* operations it waits for (other streams, events) */
    std::function<void()> run;
    std::shared_ptr<struct multi_op> multi; /* the whole of an operation spanning streams */
    bool done = false;
};
/* One operation on several streams (an NCCL group): runs once all its parts lead. */
struct multi_op {
    std::vector<op *> parts;
    std::function<void()> run;
    bool done = false;
};
stream_state *stream_of(cudaStream_t s); /* NULL for a destroyed or foreign handle */
int device_of(stream_state *s);
cudaError_t enqueue(cudaStream_t s, const char *what, std::function<void()> run, op_ptr *made = nullptr);
/* Run operations (in a random legal order) until done() holds; false if it never can. */
bool drain(const std::function<bool()> &done, const char *waiting_for);
bool device_idle(int device);
extern bool in_device_work; /* an operation's CPU work (CUB, NCCL) is running */

/* ---- kernels --------------------------------------------------------------------------------- */
struct launch_request {
    launch_config cfg;
    const void *kernel;
    std::unique_ptr<kernel_body> body;
    int device;
};
void run_kernel(launch_request &req); /* inside an operation */
struct fiber;
extern fiber *running; /* == (fiber *)current */

/* ---- checks a GPU run cannot give ------------------------------------------------------------ */
enum access_flags { ACC_WRITE = 1, ACC_ATOMIC = 2, ACC_VOLATILE = 4, ACC_RELEASE = 8, ACC_ACQUIRE = 16 };
void access(uintptr_t a, size_t n, unsigned flags, const void *pc, const char *file = nullptr, int line = 0);
/* A load that returned value: if it returned the same from the same place last
 * time, this thread is polling: let the others run. */
void polled(uintptr_t a, uint64_t value);
void sync_point(const char *file, int line); /* atomics, fences: maybe switch blocks */
/* Stop the running kernel with err after printing why (never returns to the fiber). */
[[noreturn]] void kernel_failure(cudaError_t err, const std::string &why);
void signals_init();

/* Progress: a write by a thread that is not polling. The scheduler tells a
 * deadlock of polling threads from a slow wait by it. */
extern uint64_t spins_since_progress;
extern std::atomic<uint64_t> progress;
inline void made_progress()
{
    spins_since_progress = 0;
    progress.store(progress.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}
/* The heap's shadow and page owners, for the hooks' fast path (memory.cc). */
extern uint8_t *heap_shadow, *heap_owners;
static const size_t HEAP_SPAN = (size_t)64 << 30, HEAP_PAGE = 4096;

/* Shared memory and the race detector (kernel.cc). */
bool in_shared(uintptr_t a);
void shared_access(uintptr_t a, size_t n, unsigned flags, const void *pc, const char *file, int line);
std::string thread_name(const fiber *f);

} // namespace kit_emu
#endif
