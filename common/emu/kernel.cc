/* kernel.cc: running a kernel. Each CUDA thread is a fiber; the blocks of a launch
 * start in blockIdx order, as many at once as the emulated GPU holds (so a block
 * that waits for an earlier block's status waits for one that runs or is done),
 * and one host thread switches between their fibers at the meeting points:
 * barriers, warp collectives, cuda::barrier waits, and polls that see nothing new.
 *
 * The same places keep the race detector's clocks (a happens-before detector for
 * shared memory, FastTrack-like): each thread has a clock; __syncthreads publishes
 * every thread's clock to the block (`floor`); __syncwarp and cuda::barrier pass
 * clocks between the threads they join (`known`). An access to shared memory that
 * follows another thread's conflicting access it does not know about is a race. */
#include "emu.h"
#include "fiber.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <deque>
#include <map>

namespace kit_emu {

thread_info *current = nullptr;
fiber *running = nullptr;

/* ---- vector clocks: sorted (thread, clock) pairs ------------------------------------ */
typedef std::vector<std::pair<uint16_t, uint32_t>> vclock;

static uint32_t vc_get(const vclock &vc, unsigned t)
{
    auto it = std::lower_bound(vc.begin(), vc.end(), std::make_pair((uint16_t)t, (uint32_t)0));
    return it != vc.end() && it->first == t ? it->second : 0;
}

static void vc_join(vclock &into, const vclock &from)
{
    vclock out;
    out.reserve(into.size() + from.size());
    size_t i = 0, j = 0;
    while (i < into.size() || j < from.size()) {
        if (j == from.size() || (i < into.size() && into[i].first < from[j].first))
            out.push_back(into[i++]);
        else if (i == into.size() || from[j].first < into[i].first)
            out.push_back(from[j++]);
        else {
            out.emplace_back(into[i].first, std::max(into[i].second, from[j].second));
            i++, j++;
        }
    }
    into.swap(out);
}

static void vc_set(vclock &vc, unsigned t, uint32_t c)
{
    vclock one{ { (uint16_t)t, c } };
    vc_join(vc, one);
}

/* ---- threads, blocks, launches ------------------------------------------------------------ */
enum wait_kind { W_NONE, W_BARRIER, W_WARP, W_CBAR, W_SPIN };
enum fiber_state { F_RUNNABLE, F_BLOCKED, F_DONE };

struct pending_copy {
    void *dst;
    const void *src;
    size_t bytes, zero;
};

struct fiber {
    thread_info info; /* first: kit_emu::current points here */
    void *sp = nullptr;
    char *stack = nullptr; /* lowest address: a guard page */
    struct block *blk = nullptr;
    unsigned tid = 0, lane = 0, warp = 0;
    fiber_state st = F_DONE;
    fiber *next = nullptr;
    wait_kind wk = W_NONE;
    const char *wfile = nullptr;
    int wline = 0;
    /* a warp collective */
    collective ck = COLL_SYNCWARP;
    unsigned cmask = 0;
    uint64_t cval = 0, cresult = 0;
    int cbytes = 0, carg = 0, cwidth = 32;
    /* a cuda::barrier wait: for its phase to pass `ctoken`, or for parity `cparity` */
    cta_barrier *cbar = nullptr;
    unsigned long long ctoken = 0;
    int cparity = -1;
    /* polls: the last values seen, to tell a spin from progress */
    uintptr_t poll_addr[4] = { 0, 0, 0, 0 };
    uint64_t poll_val[4] = { 0, 0, 0, 0 };
    unsigned poll_next = 0;
    const void *poll_pc = nullptr;
    const char *poll_file = nullptr;
    int poll_line = 0;
    /* the race detector */
    uint32_t clock = 1, known_gen = 0;
    vclock known;
    /* __pipeline_memcpy_async */
    std::vector<pending_copy> pipe_open;
    std::deque<std::vector<pending_copy>> pipe_groups;
};

struct shared_decl {
    const void *site;
    size_t off, bytes, elem;
    const char *name;
};

struct cbar_rec {
    vclock vc;
    std::vector<pending_copy> copies;
    const char *file;
    int line;
};

struct launch;
struct block {
    launch *l = nullptr;
    uint32_t serial = 0;
    uint3 idx;
    unsigned nthreads = 0, live = 0;
    std::vector<fiber *> threads;
    fiber *rq_head = nullptr, *rq_tail = nullptr;
    unsigned runnable = 0;
    /* __syncthreads */
    unsigned bar_arrived = 0;
    int bar_acc = 0;
    barrier_reduce bar_op = BAR_PLAIN;
    const char *bar_file = nullptr, *bar_file2 = nullptr;
    int bar_line = 0, bar_line2 = 0;
    unsigned bar_tid1 = 0, bar_tid2 = 0;
    /* warps */
    unsigned warp_exited[MAX_THREADS / WARP] = {};
    unsigned warp_arrived[MAX_THREADS / WARP] = {};
    /* The call most lanes of a warp wait in (its mask and kind), to match arrivals fast. */
    unsigned group_mask[MAX_THREADS / WARP] = {};
    collective group_kind[MAX_THREADS / WARP] = {};
    /* shared memory: [0, dyn_bytes) dynamic, then red zone, then the static variables */
    int slot = -1;
    char *base = nullptr;
    size_t dyn_bytes = 0, static_top = 0, static_bytes = 0;
    std::vector<shared_decl> decls;
    /* race detector */
    std::vector<uint32_t> floor;
    uint32_t gen = 1;
    std::vector<cbar_rec> cbars;
};

struct launch {
    launch_request *req = nullptr;
    size_t nblocks = 0, next = 0;
    std::atomic<size_t> done{ 0 };
    unsigned threads = 0, window = 1;
    std::vector<block *> inflight;
    bool aborted = false;
    cudaError_t error = cudaSuccess;
    size_t static_bytes = 0;
};

static launch *active = nullptr;
static void *sched_sp = nullptr;
static uint32_t serial_counter = 0;
static std::vector<fiber *> fiber_pool;
/* Stacks go to the threads that start running, last freed first: a thread that
 * never waits runs on the stack (still in cache) of the one before it. */
static std::vector<char *> free_stacks;
static fiber *exited = nullptr; /* its stack is freed once the scheduler is off it */
/* Below each stack, pages nobody may touch: with -fstack-clash-protection every
 * frame probes its pages, so an overflow faults here, not in a neighbour's stack. */
static const size_t STACK_GUARD = 64 * 1024;
uint64_t spins_since_progress = 0;
std::atomic<uint64_t> progress{ 0 };
static std::atomic<uint64_t> heartbeat{ 0 };

/* ---- shared memory windows ------------------------------------------------------------------ */
static const size_t SLOT_BYTES = (size_t)1 << 20, MAX_SLOTS = 256, RED_ZONE = 64;
/* The last write and a read of a 4-byte word of shared memory in this block
 * (serial): the thread, its clock then, the bytes of the word, the place (a code
 * offset, or with TID_SITE the index of a file:line). */
struct race_cell {
    uint32_t serial, w_clock, r_clock;
    uint16_t w_tid, r_tid;
    uint8_t w_bytes, r_bytes;
    uint16_t pad;
    uint32_t w_at, r_at;
};
enum : uint16_t { TID_NONE = 0x7ff, TID_MASK = 0x7ff, TID_ATOMIC = 0x800, TID_SITE = 0x1000 };
static char *shared_lo;
static uint8_t *shared_shadow; /* per 8 bytes, as the heap's */
static race_cell *cells;
static block *slot_owner[MAX_SLOTS];

void shared_windows_at(char *lo)
{
    auto map = [](size_t bytes) {
        void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            fatal("cannot reserve address space for emulated shared memory");
        return p;
    };
    static_assert(SLOT_BYTES * MAX_SLOTS == SHARED_WINDOWS, "the windows fill memory_init's reservation");
    if (mprotect(lo, SHARED_WINDOWS, PROT_READ | PROT_WRITE) != 0)
        fatal("cannot map emulated shared memory");
    shared_lo = lo;
    shared_shadow = (uint8_t *)map(SLOT_BYTES * MAX_SLOTS / 8);
    cells = (race_cell *)map(SLOT_BYTES * MAX_SLOTS / 4 * sizeof(race_cell));
}

bool in_shared(uintptr_t a) { return a - (uintptr_t)shared_lo < SLOT_BYTES * MAX_SLOTS; }

static void shared_mark(block *b, size_t off, size_t bytes, bool addressable)
{
    uint8_t *s = shared_shadow + (b->base - shared_lo + off) / 8;
    if (!addressable) {
        memset(s, 0, (bytes + 7) / 8);
        return;
    }
    memset(s, 8, bytes / 8);
    if (bytes % 8)
        s[bytes / 8] = (uint8_t)(bytes % 8);
}

static bool shared_addressable(uintptr_t a, size_t n)
{
    for (uintptr_t x = a; x < a + n;) {
        uint8_t ok = shared_shadow[(x - (uintptr_t)shared_lo) / 8];
        uintptr_t end = std::min(((x | 7) + 1), a + n);
        if ((x & 7) + (end - x) > ok)
            return false;
        x = end;
    }
    return true;
}

/* ---- names and places ------------------------------------------------------------------------ */
static std::string coords(uint3 v, dim3 d)
{
    if (d.y == 1 && d.z == 1)
        return format("%u", v.x);
    return format("(%u,%u,%u)", v.x, v.y, v.z);
}

std::string thread_name(const fiber *f)
{
    return format("thread %s of block %s", coords(f->info.thread_idx, f->info.block_dim).c_str(),
                  coords(f->info.block_idx, f->info.grid_dim).c_str());
}

/* Places in a race cell: code by its offset in the program, a file:line by number. */
extern "C" char __executable_start;
static std::vector<std::string> site_names;

static uint32_t site_of(const char *file, int line)
{
    static std::map<std::pair<const char *, int>, uint32_t> known;
    auto it = known.find({ file, line });
    if (it != known.end())
        return it->second;
    site_names.push_back(format("%s:%d", file, line));
    return known[{ file, line }] = (uint32_t)site_names.size() - 1;
}

static uint32_t code_offset(const void *pc) { return (uint32_t)((uintptr_t)pc - (uintptr_t)&__executable_start); }

static std::string place(uint32_t at, uint16_t tid_flags)
{
    return tid_flags & TID_SITE ? site_names[at] : where_is(&__executable_start + at);
}

static std::string launch_name()
{
    const launch_request &r = *active->req;
    return format("%s<<<%s, %s>>> (launched at %s:%d)", function_name(r.kernel).c_str(),
                  coords(uint3{ r.cfg.grid.x, r.cfg.grid.y, r.cfg.grid.z }, r.cfg.grid).c_str(),
                  coords(uint3{ r.cfg.block.x, r.cfg.block.y, r.cfg.block.z }, r.cfg.block).c_str(), r.cfg.file,
                  r.cfg.line);
}

/* ---- failing ------------------------------------------------------------------------------------ */
sigjmp_buf *device_work_escape = nullptr;

void kernel_failure(cudaError_t err, const std::string &why)
{
    if (running && active) {
        fiber *f = running;
        if (!active->aborted) {
            note("%s\n  in %s\n  (a GPU run gives no such message; KIT_EMU_SEED=%llu replays this run)", why.c_str(),
                 launch_name().c_str(), config().seed);
            active->aborted = true;
            active->error = err;
        }
        running = nullptr;
        current = nullptr;
        kit_emu_switch(&f->sp, sched_sp); /* never resumed */
        __builtin_unreachable();
    }
    if (in_device_work && device_work_escape) {
        note("%s", why.c_str());
        set_async(err);
        siglongjmp(*device_work_escape, 1);
    }
    fatal("%s", why.c_str());
}

static std::string lanes_text(unsigned mask)
{
    std::string s;
    for (int i = 0; i < 32;) {
        if (!(mask >> i & 1)) {
            i++;
            continue;
        }
        int j = i;
        while (j + 1 < 32 && (mask >> (j + 1) & 1))
            j++;
        s += s.empty() ? "" : ",";
        s += i == j ? format("%d", i) : format("%d-%d", i, j);
        i = j + 1;
    }
    return s.empty() ? "none" : s;
}

/* ---- scheduling ------------------------------------------------------------------------------- */
static void rq_push(block *b, fiber *f)
{
    f->st = F_RUNNABLE;
    f->next = nullptr;
    if (b->rq_tail)
        b->rq_tail->next = f;
    else
        b->rq_head = f;
    b->rq_tail = f;
    b->runnable++;
}

static fiber *rq_pop(block *b)
{
    fiber *f = b->rq_head;
    if (f) {
        b->rq_head = f->next;
        if (!b->rq_head)
            b->rq_tail = nullptr;
        b->runnable--;
    }
    return f;
}

static void fiber_main(void *arg);

/* Make f the running thread; its stack pointer (a fiber gets its first frame only
 * now, on a stack line about to be used anyway). */
static char *take_stack()
{
    if (!free_stacks.empty()) {
        char *s = free_stacks.back();
        free_stacks.pop_back();
        return s;
    }
    size_t bytes = config().stack_bytes + STACK_GUARD;
    void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        fatal("cannot allocate the stack of an emulated thread (%zu KiB)", config().stack_bytes >> 10);
    mprotect(p, STACK_GUARD, PROT_NONE); /* the guard: a stack overflow faults here */
    return (char *)p;
}

static void *enter(fiber *f)
{
    running = f;
    current = &f->info;
    if (!f->sp) {
        f->stack = take_stack();
        f->sp = kit_emu_fiber_prepare(f->stack + config().stack_bytes + STACK_GUARD, fiber_main, f);
    }
    return f->sp;
}

/* The running fiber f has blocked, queued itself or finished: run the next thread of
 * its block, or go back to the scheduler (always, when to_scheduler). */
static void leave(fiber *f, bool to_scheduler)
{
    heartbeat.store(heartbeat.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    fiber *n = to_scheduler ? nullptr : rq_pop(f->blk);
    if (n) {
        kit_emu_switch(&f->sp, enter(n));
    } else {
        running = nullptr;
        current = nullptr;
        kit_emu_switch(&f->sp, sched_sp);
    }
}

static void block_on(fiber *f, wait_kind wk, const char *file, int line)
{
    f->st = F_BLOCKED;
    f->wk = wk;
    f->wfile = file;
    f->wline = line;
    leave(f, false);
    f->wk = W_NONE;
}

static void wake(fiber *f)
{
    f->wk = W_NONE;
    f->info.spinning = false;
    rq_push(f->blk, f);
}

/* The running thread polls and sees nothing new: let every other thread run first. */
static void spin_yield(fiber *f)
{
    spins_since_progress++;
    f->info.spinning = true;
    f->wk = W_SPIN;
    rq_push(f->blk, f);
    leave(f, true);
    f->wk = W_NONE;
}

void polled(uintptr_t a, uint64_t value)
{
    fiber *f = running;
    if (!f)
        return;
    for (int i = 0; i < 4; i++)
        if (f->poll_addr[i] == a && f->poll_val[i] == value) {
            spin_yield(f);
            return;
        }
    f->info.spinning = false;
    f->poll_addr[f->poll_next] = a;
    f->poll_val[f->poll_next] = value;
    f->poll_next = (f->poll_next + 1) % 4;
}

void spin_pause(const char *file, int line)
{
    fiber *f = running;
    if (!f)
        return;
    f->poll_file = file;
    f->poll_line = line;
    f->poll_pc = nullptr;
    spin_yield(f);
}

void sync_point(const char *file, int line)
{
    (void)file, (void)line;
    fiber *f = running;
    if (!f || !config().preempt || random_u64() % (uint64_t)config().preempt)
        return;
    rq_push(f->blk, f);
    leave(f, true);
}

/* ---- the race detector -------------------------------------------------------------------------- */
static inline bool knows(const fiber *u, unsigned t, uint32_t c)
{
    const block *b = u->blk;
    if (t == u->tid || c <= b->floor[t])
        return true;
    return u->known_gen == b->gen && vc_get(u->known, t) >= c;
}

static const vclock &known_of(const fiber *f)
{
    static const vclock none;
    return f->known_gen == f->blk->gen ? f->known : none;
}

/* f hands what it knows (and its own clock) to vc, then ticks. */
static void release_into(fiber *f, vclock &vc)
{
    vc_join(vc, known_of(f));
    vc_set(vc, f->tid, f->clock);
    f->clock++;
}

static void acquire_from(fiber *f, const vclock &vc)
{
    if (f->known_gen != f->blk->gen) {
        f->known.clear();
        f->known_gen = f->blk->gen;
    }
    vc_join(f->known, vc);
}

static std::string describe_shared(block *b, size_t off, size_t n)
{
    if (off < b->dyn_bytes + RED_ZONE && b->dyn_bytes + RED_ZONE <= b->static_top) {
        if (off < b->dyn_bytes)
            return format("byte %zu of the dynamic shared memory (extern __shared__, %zu bytes)", off, b->dyn_bytes);
        return format("byte %zu of the dynamic shared memory (extern __shared__): %zu bytes past its end (the "
                      "launch asked for %zu bytes)",
                      off, off - b->dyn_bytes, b->dyn_bytes);
    }
    const shared_decl *best = nullptr;
    for (const shared_decl &d : b->decls)
        if (d.off <= off && (!best || d.off > best->off))
            best = &d;
    if (!best)
        return format("byte %zu of shared memory, in no variable", off);
    size_t at = off - best->off, elems = best->bytes / best->elem;
    std::string index = format("%s[%zu]", best->name, at / best->elem);
    if (best->bytes == best->elem)
        index = at ? format("byte %zu of %s", at, best->name) : std::string(best->name);
    if (at >= best->bytes)
        return format("%s, past the end of %s (%zu element%s of %zu bytes)", index.c_str(), best->name, elems,
                      elems == 1 ? "" : "s", best->elem);
    (void)n;
    return format("%s (shared)", index.c_str());
}

static fiber *thread_of(block *b, uint16_t tid) { return b->threads[tid & TID_MASK]; }

[[noreturn]] static void race(fiber *u, block *b, size_t off, size_t n, bool u_writes, uint32_t u_at,
                              uint16_t u_flags, uint16_t other, bool other_writes, uint32_t other_at)
{
    kernel_failure(cudaErrorLaunchFailure,
                   format("shared-memory race on %s:\n  %s %s it at %s\n  %s %s it at %s\n  and no barrier "
                          "(__syncthreads, __syncwarp, cuda::barrier) orders the two",
                          describe_shared(b, off, n).c_str(), thread_name(u).c_str(), u_writes ? "writes" : "reads",
                          place(u_at, u_flags).c_str(), thread_name(thread_of(b, other)).c_str(),
                          other_writes ? "wrote" : "read", place(other_at, other).c_str()));
}

void shared_access(uintptr_t a, size_t n, unsigned flags, const void *pc, const char *file, int line)
{
    fiber *u = running;
    if (!u)
        return;
    size_t slot = (a - (uintptr_t)shared_lo) / SLOT_BYTES;
    block *b = slot_owner[slot];
    size_t off = a - (uintptr_t)shared_lo - slot * SLOT_BYTES;
    if (b != u->blk)
        kernel_failure(cudaErrorIllegalAddress,
                       format("%s %s shared memory of another block (a pointer to shared memory kept past its "
                              "block?) at %s",
                              thread_name(u).c_str(), flags & ACC_WRITE ? "writes" : "reads",
                              file ? format("%s:%d", file, line).c_str() : where_is(pc).c_str()));
    uint16_t site = file ? TID_SITE : 0;
    const uint32_t at = file ? site_of(file, line) : code_offset(pc);
    if (!shared_addressable(a, n))
        kernel_failure(cudaErrorIllegalAddress,
                       format("out-of-bounds shared-memory access: %s %s %zu bytes at %s\n  at %s", thread_name(u).c_str(),
                              flags & ACC_WRITE ? "writes" : "reads", n, describe_shared(b, off, n).c_str(),
                              place(at, site).c_str()));
    const bool write = flags & ACC_WRITE, atomic = flags & ACC_ATOMIC;
    const uint16_t me = (uint16_t)(u->tid | (atomic ? TID_ATOMIC : 0) | site);
    const uintptr_t word0 = (a - (uintptr_t)shared_lo) / 4, words = (a + n + 3) / 4 - a / 4;
    race_cell *first = cells + word0, before = *first;
    for (uintptr_t i = 0; i < words; i++) {
        race_cell *c = first + i;
        uintptr_t lo = std::max(a, (word0 + i) * 4 + (uintptr_t)shared_lo), hi = std::min(a + n, lo / 4 * 4 + 4);
        const uint8_t bytes = (uint8_t)(((1u << (hi - lo)) - 1) << (lo % 4));
        if (i > 0 && bytes == 0xf && memcmp(c, &before, sizeof before) == 0) { /* words accessed together share a history */
            *c = *first;
            continue;
        }
        if (c->serial != b->serial) {
            c->serial = b->serial;
            c->w_tid = c->r_tid = TID_NONE;
        }
        if (c->w_tid != TID_NONE && (c->w_bytes & bytes) && (c->w_tid & TID_MASK) != u->tid &&
            !(atomic && (c->w_tid & TID_ATOMIC)) && !knows(u, c->w_tid & TID_MASK, c->w_clock))
            race(u, b, off + (lo - a), n, write, at, site, c->w_tid, true, c->w_at);
        if (write) {
            if (c->r_tid != TID_NONE && (c->r_bytes & bytes) && (c->r_tid & TID_MASK) != u->tid &&
                !(atomic && (c->r_tid & TID_ATOMIC)) && !knows(u, c->r_tid & TID_MASK, c->r_clock))
                race(u, b, off + (lo - a), n, true, at, site, c->r_tid, false, c->r_at);
            bool mine = c->w_tid == me && c->w_clock == u->clock;
            c->w_bytes = mine ? (uint8_t)(c->w_bytes | bytes) : bytes;
            c->w_tid = me;
            c->w_clock = u->clock;
            c->w_at = at;
        } else if (c->r_tid == TID_NONE || (c->r_tid & TID_MASK) == u->tid ||
                   knows(u, c->r_tid & TID_MASK, c->r_clock)) {
            bool mine = c->r_tid == me && c->r_clock == u->clock;
            c->r_bytes = mine ? (uint8_t)(c->r_bytes | bytes) : bytes;
            c->r_tid = me;
            c->r_clock = u->clock;
            c->r_at = at;
        }
    }
    if (write && !u->info.spinning)
        made_progress();
}

/* ---- checked accesses from the instrumentation hooks and the runtime ---------------------------- */
void access(uintptr_t a, size_t n, unsigned flags, const void *pc, const char *file, int line)
{
    if (in_shared(a)) {
        shared_access(a, n, flags, pc, file, line);
        return;
    }
    auto at = [&] { return file ? format("%s:%d", file, line) : where_is(pc); };
    const char *verb = flags & ACC_WRITE ? "writes" : "reads";
    if (in_heap(a)) {
        uintptr_t bad = 0;
        bool ok = heap_addressable(a, n, &bad);
        if (running) {
            if (!ok)
                kernel_failure(cudaErrorIllegalAddress,
                               format("out-of-bounds or freed memory: %s %s %zu bytes at %s\n  at %s",
                                      thread_name(running).c_str(), verb, n, describe_heap(bad, n).c_str(), at().c_str()));
            int o = owner_of(a), dev = active->req->device;
            if (o != OWNER_HOST && o - 1 != dev && !peer_enabled(dev, o - 1))
                kernel_failure(cudaErrorIllegalAddress,
                               format("%s (GPU %d) %s memory of GPU %d without peer access "
                                      "(cudaDeviceEnablePeerAccess(%d) on GPU %d): %s\n  at %s",
                                      thread_name(running).c_str(), dev, verb, o - 1, o - 1, dev,
                                      describe_heap(a, n).c_str(), at().c_str()));
            if ((flags & ACC_WRITE) && !running->info.spinning)
                made_progress();
        } else if (!ok) {
            kernel_failure(cudaErrorIllegalAddress, format("out-of-bounds or freed memory: %s %zu bytes at %s\n  at %s",
                                                           verb, n, describe_heap(bad, n).c_str(), at().c_str()));
        } else if (!in_device_work && owner_of(a) != OWNER_HOST) {
            fatal("host code %s device memory (%s) at %s: a GPU's memory is not the host's; copy it with "
                  "cudaMemcpy first",
                  verb, describe_heap(a, n).c_str(), at().c_str());
        }
        return;
    }
    if (a < 65536 && running)
        kernel_failure(cudaErrorIllegalAddress, format("%s %s %zu bytes at address %p: a null pointer?\n  at %s",
                                                       thread_name(running).c_str(), verb, n, (void *)a, at().c_str()));
}

/* ---- shared variables --------------------------------------------------------------------------- */
void *shared_alloc(const void *site, size_t bytes, size_t align, size_t elem, const char *name)
{
    fiber *f = running;
    if (!f)
        fatal("__shared__ %s used outside a kernel (a __shared__ variable at namespace scope is not emulated)", name);
    block *b = f->blk;
    for (const shared_decl &d : b->decls)
        if (d.site == site)
            return b->base + d.off;
    align = std::max(align, (size_t)16);
    size_t off = (b->static_top + align - 1) / align * align;
    if (off + bytes + RED_ZONE > SLOT_BYTES)
        kernel_failure(cudaErrorInvalidValue, format("__shared__ %s: the block's shared memory passes %zu bytes",
                                                     name, SLOT_BYTES));
    b->static_top = off + bytes + RED_ZONE;
    b->static_bytes += bytes;
    b->decls.push_back({ site, off, bytes, elem ? elem : bytes, name });
    shared_mark(b, off, bytes, true);
    return b->base + off;
}

void *dynamic_shared_base(size_t align)
{
    (void)align; /* the window is 1 MiB-aligned */
    if (!running)
        fatal("extern __shared__ used outside a kernel");
    return running->blk->base;
}

/* ---- block barriers --------------------------------------------------------------------------- */
static void complete_barrier(block *b)
{
    if (b->bar_file2)
        kernel_failure(cudaErrorLaunchFailure,
                       format("a __syncthreads reached at two places: thread %u at %s:%d, thread %u at %s:%d "
                              "(every thread of a block must reach the same barrier)",
                              b->bar_tid1, b->bar_file, b->bar_line, b->bar_tid2, b->bar_file2, b->bar_line2));
    int result = b->bar_acc;
    for (fiber *t : b->threads) {
        b->floor[t->tid] = t->clock;
        if (t->st != F_DONE)
            t->clock++;
        if (t->st == F_BLOCKED && t->wk == W_BARRIER) {
            t->cresult = (uint64_t)result;
            wake(t);
        }
    }
    b->gen++;
    b->bar_arrived = 0;
    b->bar_file = b->bar_file2 = nullptr;
    made_progress();
}

int block_barrier(barrier_reduce op, int predicate, const char *file, int line)
{
    fiber *f = running;
    if (!f)
        fatal("__syncthreads called outside a kernel (%s:%d)", file, line);
    block *b = f->blk;
    if (b->bar_arrived == 0) {
        b->bar_op = op;
        b->bar_file = file;
        b->bar_line = line;
        b->bar_tid1 = f->tid;
        b->bar_acc = op == BAR_AND ? 1 : 0;
    } else if ((file != b->bar_file && strcmp(file, b->bar_file) != 0) || line != b->bar_line) {
        if (!b->bar_file2) {
            b->bar_file2 = file;
            b->bar_line2 = line;
            b->bar_tid2 = f->tid;
        }
    }
    if (op == BAR_COUNT)
        b->bar_acc += predicate != 0;
    else if (op == BAR_AND)
        b->bar_acc &= predicate != 0;
    else if (op == BAR_OR)
        b->bar_acc |= predicate != 0;
    b->bar_arrived++;
    if (b->bar_arrived == b->live) {
        int result = b->bar_acc;
        complete_barrier(b);
        return result;
    }
    block_on(f, W_BARRIER, file, line);
    return (int)f->cresult;
}

/* ---- warp collectives ------------------------------------------------------------------------- */
static const char *collective_name(collective k)
{
    static const char *names[] = { "__syncwarp",      "__shfl_sync",       "__shfl_up_sync",    "__shfl_down_sync",
                                   "__shfl_xor_sync", "__ballot_sync",     "__any_sync",        "__all_sync",
                                   "__match_any_sync", "__match_all_sync", "__reduce_add_sync", "__reduce_min_sync",
                                   "__reduce_max_sync", "__reduce_min_sync", "__reduce_max_sync", "__reduce_and_sync",
                                   "__reduce_or_sync", "__reduce_xor_sync" };
    return names[k];
}

static uint64_t truncate_bits(uint64_t v, int bytes) { return bytes >= 8 ? v : v & ((1ull << (8 * bytes)) - 1); }

/* Every lane of the group (mask) has arrived: each lane's result. */
/* The result every lane of a group gets from a vote or a reduction. */
static uint64_t group_result(collective k, fiber *const *lanes, unsigned mask)
{
    uint64_t votes = 0, acc = 0;
    bool have = false;
    for (int j = 0; j < WARP; j++) {
        if (!lanes[j])
            continue;
        uint32_t v = (uint32_t)lanes[j]->cval;
        votes |= (uint64_t)(v != 0) << j;
        if (!have) {
            acc = v;
            have = true;
            continue;
        }
        switch (k) {
        case COLL_REDUCE_ADD: acc = (uint32_t)(acc + v); break;
        case COLL_REDUCE_MIN: acc = (uint32_t)std::min((int32_t)acc, (int32_t)v); break;
        case COLL_REDUCE_MAX: acc = (uint32_t)std::max((int32_t)acc, (int32_t)v); break;
        case COLL_REDUCE_UMIN: acc = std::min((uint32_t)acc, v); break;
        case COLL_REDUCE_UMAX: acc = std::max((uint32_t)acc, v); break;
        case COLL_REDUCE_AND: acc &= v; break;
        case COLL_REDUCE_OR: acc |= v; break;
        default: acc ^= v; break;
        }
    }
    return k == COLL_BALLOT ? votes : k == COLL_ANY ? votes != 0 : k == COLL_ALL ? votes == mask : acc;
}

/* The lane whose value lane i of a shuffle reads. */
static int shuffle_source(const fiber *l, int i)
{
    int width = l->cwidth, base = i & ~(width - 1);
    switch (l->ck) {
    case COLL_SHFL_IDX: return base + (l->carg & (width - 1));
    case COLL_SHFL_UP: return (i - base) >= l->carg ? i - l->carg : i;
    case COLL_SHFL_DOWN: return (i - base) + l->carg < width ? i + l->carg : i;
    default: {
        int src = i ^ l->carg;
        return src < base || src >= base + width ? i : src;
    }
    }
}

/* Every lane of the group (mask) has arrived: each lane's result. */
static void complete_collective(block *b, unsigned w, unsigned mask)
{
    fiber *lanes[WARP] = {};
    for (int i = 0; i < WARP; i++)
        if (mask >> i & 1)
            lanes[i] = b->threads[w * WARP + i];
    const collective k = lanes[__builtin_ctz(mask)]->ck;
    if (k == COLL_SYNCWARP) { /* the lanes know what each other knew */
        vclock joined;
        for (int i = 0; i < WARP; i++)
            if (lanes[i]) {
                vc_join(joined, known_of(lanes[i]));
                vc_set(joined, lanes[i]->tid, lanes[i]->clock);
            }
        for (int i = 0; i < WARP; i++)
            if (lanes[i]) {
                lanes[i]->known = joined;
                lanes[i]->known_gen = b->gen;
                lanes[i]->clock++;
            }
    }
    const bool shuffle = k >= COLL_SHFL_IDX && k <= COLL_SHFL_XOR, match = k == COLL_MATCH_ANY || k == COLL_MATCH_ALL;
    const uint64_t common = shuffle || match || k == COLL_SYNCWARP ? 0 : group_result(k, lanes, mask);
    for (int i = 0; i < WARP; i++) {
        fiber *l = lanes[i];
        if (!l)
            continue;
        uint64_t r = common;
        if (shuffle) {
            int src = shuffle_source(l, i);
            if (!(mask >> src & 1))
                kernel_failure(cudaErrorLaunchFailure,
                               format("%s at %s:%d: lane %d reads lane %d, which is not in the mask 0x%08x (its "
                                      "value is undefined on a GPU)",
                                      collective_name(k), l->wfile, l->wline, i, src, mask));
            r = lanes[src]->cval;
        } else if (match) {
            uint64_t same = 0, mine = truncate_bits(l->cval, l->cbytes);
            for (int j = 0; j < WARP; j++)
                if (lanes[j] && truncate_bits(lanes[j]->cval, l->cbytes) == mine)
                    same |= 1ull << j;
            r = k == COLL_MATCH_ANY ? same : same == mask ? (mask | 1ull << 32) : 0;
        }
        l->cresult = r;
    }
    b->warp_arrived[w] &= ~mask;
    for (int i = 0; i < WARP; i++)
        if (lanes[i] && lanes[i] != running)
            wake(lanes[i]);
    made_progress();
}

uint64_t warp_collective(collective kind, unsigned mask, uint64_t value, int value_bytes, int arg, int width,
                         const char *file, int line)
{
    fiber *f = running;
    if (!f)
        fatal("%s called outside a kernel (%s:%d)", collective_name(kind), file, line);
    block *b = f->blk;
    const unsigned w = f->warp, bit = 1u << f->lane;
    const char *name = collective_name(kind);
    if (!(mask & bit))
        kernel_failure(cudaErrorLaunchFailure,
                       format("%s at %s:%d: %s calls it with mask 0x%08x, which does not name its own lane %u",
                              name, file, line, thread_name(f).c_str(), mask, f->lane));
    if (mask & b->warp_exited[w])
        kernel_failure(cudaErrorLaunchFailure,
                       format("%s at %s:%d: the mask 0x%08x names lane(s) %s of warp %u, which have exited (or do "
                              "not exist): their value is undefined and the call may hang on a GPU",
                              name, file, line, mask, lanes_text(mask & b->warp_exited[w]).c_str(), w));
    if (kind >= COLL_SHFL_IDX && kind <= COLL_SHFL_XOR && (width < 1 || width > 32 || (width & (width - 1))))
        kernel_failure(cudaErrorLaunchFailure,
                       format("%s at %s:%d: width %d is not a power of two from 1 to 32", name, file, line, width));
    f->ck = kind;
    f->cmask = mask;
    f->cval = value;
    f->cbytes = value_bytes;
    f->carg = arg;
    f->cwidth = width;
    f->wfile = file;
    f->wline = line;
    /* Lanes of one warp may sit in different collectives (independent thread
     * scheduling): a lane waiting in another call whose mask leaves me out will come
     * here once that call is done. Two lanes that each name the other but are in
     * different calls, or with different masks, can never meet. */
    unsigned ready = bit;
    const unsigned waiting = b->warp_arrived[w];
    if (waiting == 0 || (b->group_mask[w] == mask && b->group_kind[w] == kind && (waiting & ~mask) == 0)) {
        /* The common case: every lane waiting is in this very call. */
        b->group_mask[w] = mask;
        b->group_kind[w] = kind;
        ready |= waiting;
    } else {
        for (unsigned others = mask & waiting & ~bit; others; others &= others - 1) {
            fiber *o = b->threads[w * WARP + __builtin_ctz(others)];
            if (o->cmask == mask && o->ck == kind)
                ready |= 1u << o->lane;
            else if (o->cmask & bit)
                kernel_failure(cudaErrorLaunchFailure,
                               format("warp %u's lanes disagree: lane %u calls %s at %s:%d with mask 0x%08x while "
                                      "lane %u waits in %s at %s:%d with mask 0x%08x (each names the other)",
                                      w, f->lane, name, file, line, mask, o->lane, collective_name(o->ck), o->wfile,
                                      o->wline, o->cmask));
        }
        b->group_mask[w] = 0; /* several calls wait: no fast matching until they are done */
    }
    b->warp_arrived[w] |= bit;
    if (ready == mask)
        complete_collective(b, w, mask);
    else
        block_on(f, W_WARP, file, line);
    return f->cresult;
}

unsigned active_mask()
{
    fiber *f = running;
    if (!f)
        return 0;
    return ~f->blk->warp_exited[f->warp];
}

void trap(const char *file, int line)
{
    kernel_failure(cudaErrorLaunchFailure, format("__trap() (or a failed device-side check) at %s:%d", file, line));
}

long long clock_ticks()
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* ---- cuda::barrier ---------------------------------------------------------------------------- */
static cbar_rec &record_of(fiber *f, cta_barrier *bar, const char *file, int line)
{
    block *b = f->blk;
    if (bar->id == 0 || bar->id > b->cbars.size() || !in_shared((uintptr_t)bar))
        kernel_failure(cudaErrorLaunchFailure,
                       format("a cuda::barrier used at %s:%d was never initialised in this block (init(&bar, "
                              "count) by one thread, then __syncthreads, before any use)",
                              file, line));
    return b->cbars[bar->id - 1];
}

void cbar_init(cta_barrier *bar, long expected, const char *file, int line)
{
    fiber *f = running;
    if (!f)
        fatal("init(cuda::barrier) outside a kernel (%s:%d)", file, line);
    if (!in_shared((uintptr_t)bar))
        kernel_failure(cudaErrorLaunchFailure,
                       format("init at %s:%d: the emulator's block-scope cuda::barrier must be in shared memory", file,
                              line));
    if (expected < 1 || expected > (1 << 20))
        kernel_failure(cudaErrorLaunchFailure, format("init at %s:%d: a barrier of %ld arrivals", file, line, expected));
    access((uintptr_t)bar, sizeof *bar, ACC_WRITE, nullptr, file, line);
    f->blk->cbars.push_back(cbar_rec{ {}, {}, file, line });
    bar->expected = bar->pending = (unsigned)expected;
    bar->phase = 0;
    bar->id = (unsigned)f->blk->cbars.size();
}

static void land(const pending_copy &c)
{
    memcpy(c.dst, c.src, c.bytes);
    memset((char *)c.dst + c.bytes, 0, c.zero);
}

static bool cbar_passed(const cta_barrier *bar, const fiber *f)
{
    return f->cparity >= 0 ? (int)(bar->phase & 1) != f->cparity : bar->phase != f->ctoken;
}

unsigned long long cbar_arrive(cta_barrier *bar, long update, bool drop, const char *file, int line)
{
    fiber *f = running;
    if (!f)
        fatal("cuda::barrier::arrive outside a kernel (%s:%d)", file, line);
    cbar_rec &r = record_of(f, bar, file, line);
    if (update < 1 || (unsigned long)update > bar->pending)
        kernel_failure(cudaErrorLaunchFailure,
                       format("%s arrives on a cuda::barrier (initialised at %s:%d for %u arrivals) at %s:%d, but "
                              "its phase has %u arrival(s) left: more threads arrive than the count says",
                              thread_name(f).c_str(), r.file, r.line, bar->expected, file, line, bar->pending));
    release_into(f, r.vc);
    unsigned long long token = bar->phase;
    bar->pending -= (unsigned)update;
    if (drop)
        bar->expected--;
    if (bar->pending == 0) {
        for (const pending_copy &c : r.copies)
            land(c);
        r.copies.clear();
        bar->phase++;
        bar->pending = bar->expected;
        for (fiber *t : f->blk->threads)
            if (t->st == F_BLOCKED && t->wk == W_CBAR && t->cbar == bar && cbar_passed(bar, t)) {
                acquire_from(t, r.vc);
                wake(t);
            }
        made_progress();
    }
    return token;
}

static void cbar_wait(cta_barrier *bar, unsigned long long token, int parity, const char *file, int line)
{
    fiber *f = running;
    if (!f)
        fatal("cuda::barrier wait outside a kernel (%s:%d)", file, line);
    cbar_rec &r = record_of(f, bar, file, line);
    f->cbar = bar;
    f->ctoken = token;
    f->cparity = parity;
    if (cbar_passed(bar, f)) {
        acquire_from(f, r.vc);
        return;
    }
    block_on(f, W_CBAR, file, line);
}

void cbar_wait_token(cta_barrier *bar, unsigned long long token, const char *file, int line)
{
    cbar_wait(bar, token, -1, file, line);
}

void cbar_wait_parity(cta_barrier *bar, bool parity, const char *file, int line)
{
    cbar_wait(bar, 0, parity ? 1 : 0, file, line);
}

bool cbar_test_parity(cta_barrier *bar, bool parity, const char *file, int line)
{
    fiber *f = running;
    if (!f)
        fatal("cuda::barrier::try_wait_parity outside a kernel (%s:%d)", file, line);
    cbar_rec &r = record_of(f, bar, file, line);
    f->cparity = parity ? 1 : 0;
    if (cbar_passed(bar, f)) {
        acquire_from(f, r.vc);
        return true;
    }
    f->poll_file = file;
    f->poll_line = line;
    polled((uintptr_t)bar, bar->phase);
    return false;
}

/* A copy's bytes are checked, and its writes recorded as this thread's, when it is
 * issued; they land later (when the barrier's phase completes, or at the pipeline
 * wait), so a thread that reads before waiting reads the old bytes. */
static void check_copy(void *dst, const void *src, size_t bytes, size_t zero, const char *file, int line)
{
    access((uintptr_t)src, bytes, 0, nullptr, file, line);
    access((uintptr_t)dst, bytes + zero, ACC_WRITE, nullptr, file, line);
}

void cbar_copy(cta_barrier *bar, void *dst, const void *src, size_t bytes, const char *file, int line)
{
    fiber *f = running;
    if (!f)
        fatal("cuda::memcpy_async outside a kernel (%s:%d)", file, line);
    cbar_rec &r = record_of(f, bar, file, line);
    if (!in_shared((uintptr_t)dst))
        kernel_failure(cudaErrorLaunchFailure,
                       format("cuda::memcpy_async at %s:%d copies to %p, which is not shared memory", file, line, dst));
    check_copy(dst, src, bytes, 0, file, line);
    r.copies.push_back({ dst, src, bytes, 0 });
}

void misaligned_copy(const void *dst, const void *src, size_t bytes, size_t align, const char *file, int line)
{
    kernel_failure(cudaErrorMisalignedAddress,
                   format("cuda::memcpy_async at %s:%d promises %zu-byte alignment (aligned_size_t) but copies %zu "
                          "bytes from %p to %p",
                          file, line, align, bytes, src, dst));
}

void pipeline_copy(void *dst, const void *src, size_t bytes, size_t zero_fill, const char *file, int line)
{
    fiber *f = running;
    if (!f)
        fatal("__pipeline_memcpy_async outside a kernel (%s:%d)", file, line);
    if (bytes != 4 && bytes != 8 && bytes != 16)
        kernel_failure(cudaErrorLaunchFailure,
                       format("__pipeline_memcpy_async at %s:%d copies %zu bytes (4, 8 or 16 only)", file, line, bytes));
    if (((uintptr_t)dst | (uintptr_t)src) % bytes)
        kernel_failure(cudaErrorMisalignedAddress,
                       format("__pipeline_memcpy_async at %s:%d: %p or %p is not aligned to %zu bytes", file, line,
                              dst, src, bytes));
    check_copy(dst, src, bytes - zero_fill, zero_fill, file, line);
    f->pipe_open.push_back({ dst, src, bytes - zero_fill, zero_fill });
}

void pipeline_commit()
{
    if (running) {
        running->pipe_groups.push_back(std::move(running->pipe_open));
        running->pipe_open.clear();
    }
}

void pipeline_wait_prior(size_t keep, const char *file, int line)
{
    (void)file, (void)line;
    fiber *f = running;
    while (f && f->pipe_groups.size() > keep) {
        for (const pending_copy &c : f->pipe_groups.front())
            land(c);
        f->pipe_groups.pop_front();
    }
}

/* ---- fibers and blocks ------------------------------------------------------------------------ */
static void fiber_exit(fiber *f);

void fiber_main(void *arg)
{
    fiber *f = (fiber *)arg;
    active->req->body->run();
    fiber_exit(f);
}

static fiber *new_fiber()
{
    if (fiber_pool.empty())
        return new fiber;
    fiber *f = fiber_pool.back();
    fiber_pool.pop_back();
    return f;
}

static void start_block(launch &L, size_t linear)
{
    const launch_config &cfg = L.req->cfg;
    block *b = new block;
    b->l = &L;
    b->serial = ++serial_counter;
    b->idx = uint3{ (unsigned)(linear % cfg.grid.x), (unsigned)(linear / cfg.grid.x % cfg.grid.y),
                    (unsigned)(linear / cfg.grid.x / cfg.grid.y) };
    for (size_t s = 0; s < MAX_SLOTS; s++)
        if (!slot_owner[s]) {
            b->slot = (int)s;
            break;
        }
    slot_owner[b->slot] = b;
    b->base = shared_lo + (size_t)b->slot * SLOT_BYTES;
    b->dyn_bytes = cfg.smem;
    shared_mark(b, 0, b->dyn_bytes, true);
    b->static_top = (b->dyn_bytes + RED_ZONE + 127) / 128 * 128;
    b->nthreads = b->live = L.threads;
    b->floor.assign(L.threads, 0);
    b->threads.resize(L.threads);
    for (unsigned t = 0; t < L.threads; t++) {
        fiber *f = new_fiber();
        f->info.thread_idx = uint3{ t % cfg.block.x, t / cfg.block.x % cfg.block.y, t / cfg.block.x / cfg.block.y };
        f->info.block_idx = b->idx;
        f->info.block_dim = cfg.block;
        f->info.grid_dim = cfg.grid;
        f->blk = b;
        f->tid = t;
        f->lane = t % WARP;
        f->warp = t / WARP;
        f->clock = 1;
        f->known.clear();
        f->known_gen = 0;
        f->wk = W_NONE;
        f->info.spinning = false;
        for (int i = 0; i < 4; i++)
            f->poll_addr[i] = 0;
        f->info.owner = L.req->device + 1;
        f->sp = nullptr; /* enter() prepares it */
        b->threads[t] = f;
        rq_push(b, f);
    }
    unsigned last = (L.threads - 1) / WARP, tail = L.threads % WARP;
    if (tail)
        b->warp_exited[last] = ~((1u << tail) - 1);
    L.inflight.push_back(b);
    made_progress();
}

static void release_block(launch &L, block *b)
{
    L.static_bytes = std::max(L.static_bytes, b->static_bytes);
    shared_mark(b, 0, b->static_top, false);
    slot_owner[b->slot] = nullptr;
    for (fiber *f : b->threads) {
        f->st = F_DONE;
        if (!f->pipe_open.empty() || !f->pipe_groups.empty()) { /* an aborted launch */
            f->pipe_open.clear();
            f->pipe_groups.clear();
        }
        if (f->stack) { /* a thread stopped mid-way */
            free_stacks.push_back(f->stack);
            f->stack = nullptr;
        }
        fiber_pool.push_back(f);
    }
    L.inflight.erase(std::find(L.inflight.begin(), L.inflight.end(), b));
    delete b;
}

static void fiber_exit(fiber *f)
{
    block *b = f->blk;
    if (!f->pipe_open.empty() || !f->pipe_groups.empty()) { /* copies never waited for still land */
        pipeline_commit();
        pipeline_wait_prior(0, nullptr, 0);
    }
    f->st = F_DONE;
    b->live--;
    const unsigned w = f->warp, bit = 1u << f->lane;
    b->warp_exited[w] |= bit;
    for (unsigned waiting = b->warp_arrived[w]; waiting; waiting &= waiting - 1) {
        fiber *o = b->threads[w * WARP + __builtin_ctz(waiting)];
        if (o->cmask & bit)
            kernel_failure(cudaErrorLaunchFailure,
                           format("%s exits while lane %u of its warp waits for it in %s at %s:%d (mask 0x%08x): a "
                                  "mask must name only lanes that reach the call",
                                  thread_name(f).c_str(), o->lane, collective_name(o->ck), o->wfile, o->wline,
                                  o->cmask));
    }
    if (b->bar_arrived && b->bar_arrived == b->live)
        complete_barrier(b);
    made_progress();
    exited = f;
    running = nullptr;
    current = nullptr;
    kit_emu_switch(&f->sp, sched_sp);
    __builtin_unreachable();
}

/* Where every thread of the launch that cannot go on waits: for a deadlock or a hang. */
static std::string waiting_report(launch &L)
{
    std::string out;
    int lines = 0;
    for (block *b : L.inflight) {
        for (size_t i = 0; i < b->threads.size() && lines < 12;) {
            fiber *f = b->threads[i];
            if (f->st == F_DONE) {
                i++;
                continue;
            }
            std::string what;
            switch (f->wk) {
            case W_BARRIER: what = format("waits in __syncthreads at %s:%d", f->wfile, f->wline); break;
            case W_WARP:
                what = format("waits in %s at %s:%d (mask 0x%08x)", collective_name(f->ck), f->wfile, f->wline,
                              f->cmask);
                break;
            case W_CBAR: what = format("waits on a cuda::barrier at %s:%d", f->wfile, f->wline); break;
            case W_SPIN:
                what = f->poll_file  ? format("polls at %s:%d and sees nothing new", f->poll_file, f->poll_line)
                       : f->poll_pc ? format("polls at %s and sees nothing new", where_is(f->poll_pc).c_str())
                                    : std::string("polls and sees nothing new");
                break;
            default: what = "is ready to run"; break;
            }
            size_t j = i + 1;
            while (j < b->threads.size() && b->threads[j]->st != F_DONE && b->threads[j]->wk == f->wk &&
                   b->threads[j]->wfile == f->wfile && b->threads[j]->wline == f->wline &&
                   b->threads[j]->poll_file == f->poll_file && b->threads[j]->poll_line == f->poll_line)
                j++;
            out += format("\n  block %s, thread%s %u%s %s", coords(b->idx, L.req->cfg.grid).c_str(), j - i > 1 ? "s" : "",
                          (unsigned)i, j - i > 1 ? format("-%u", (unsigned)(j - 1)).c_str() : "", what.c_str());
            lines++;
            i = j;
        }
    }
    return out;
}

/* ---- the watchdog: notes on long kernels, a stop for a thread that never yields ---------------- */
static std::atomic<bool> kernel_running{ false };
static std::atomic<uint64_t> kernel_serial{ 0 };
static std::atomic<int> watchdog_verdict{ 0 }; /* 1: no switch for hang_s, 2: no progress for hang_s */
static pthread_t host_thread;
static const launch_config *watched; /* the running kernel's launch, for the watchdog's notes */

static void *watchdog(void *)
{
    uint64_t beat = 0, prog = 0, serial = 0;
    double still = 0, stuck = 0, running_s = 0;
    for (;;) {
        sleep(1);
        if (!kernel_running.load() || kernel_serial.load() != serial) {
            serial = kernel_serial.load();
            running_s = still = stuck = 0;
            continue;
        }
        running_s += 1;
        uint64_t h = heartbeat.load(), p = progress.load();
        still = h == beat ? still + 1 : 0;
        stuck = p == prog ? stuck + 1 : 0;
        beat = h;
        prog = p;
        if ((int)running_s % 10 == 0)
            fprintf(stderr, "kit emulator: still running the kernel launched at %s:%d (%.0f s so far)\n",
                    watched->file, watched->line, running_s);
        if (still >= config().hang_s || stuck >= config().hang_s) {
            watchdog_verdict = still >= config().hang_s ? 1 : 2;
            pthread_kill(host_thread, SIGUSR1);
            still = stuck = 0;
        }
    }
    return nullptr;
}

static void on_watchdog(int, siginfo_t *, void *uc)
{
    if (!running || !active) /* between switches: the scheduler checks the verdict itself */
        return;
    const void *pc = nullptr;
#if defined(__x86_64__)
    pc = (const void *)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    pc = (const void *)((ucontext_t *)uc)->uc_mcontext.pc;
#endif
    int verdict = watchdog_verdict.exchange(0);
    if (verdict == 1)
        kernel_failure(cudaErrorLaunchFailure,
                       format("%s has run %.0f s without reaching a barrier, a warp collective or a poll (an "
                              "endless loop?); it is at %s",
                              thread_name(running).c_str(), config().hang_s, where_is(pc).c_str()));
    if (verdict == 2)
        kernel_failure(cudaErrorLaunchFailure,
                       format("no progress for %.0f s (KIT_EMU_HANG_S): every thread left waits or polls:%s",
                              config().hang_s, waiting_report(*active).c_str()));
}

/* A fault in a kernel (a guard page, a stack overflow, an access not instrumented). */
static void on_fault(int sig, siginfo_t *si, void *)
{
    uintptr_t a = (uintptr_t)si->si_addr;
    if (running && active) {
        fiber *f = running;
        if (a >= (uintptr_t)f->stack && a < (uintptr_t)f->stack + STACK_GUARD)
            kernel_failure(cudaErrorIllegalAddress,
                           format("%s overflowed its stack of %zu KiB (deep recursion or large local arrays; "
                                  "KIT_EMU_STACK_KB raises it)",
                                  thread_name(f).c_str(), config().stack_bytes >> 10));
        kernel_failure(cudaErrorIllegalAddress,
                       format("%s: %s at address %p: %s", thread_name(f).c_str(), sig == SIGBUS ? "bus error" : "fault",
                              (void *)a, in_heap(a) ? describe_heap(a, 1).c_str() : "not device memory"));
    }
    if (in_device_work && device_work_escape)
        kernel_failure(cudaErrorIllegalAddress,
                       format("fault at address %p: %s", (void *)a, in_heap(a) ? describe_heap(a, 1).c_str() : "?"));
    fprintf(stderr, "kit emulator: host code faulted at address %p%s%s\n", (void *)a, in_heap(a) ? ": " : "",
            in_heap(a) ? describe_heap(a, 1).c_str() : "");
    signal(sig, SIG_DFL);
    raise(sig);
}

void signals_init()
{
    static bool done = false;
    if (done)
        return;
    done = true;
    static char alt[1 << 16];
    stack_t ss = {};
    ss.ss_sp = alt;
    ss.ss_size = sizeof alt;
    sigaltstack(&ss, nullptr);
    struct sigaction sa = {};
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigaction(SIGSEGV, &sa, nullptr);
    sigaction(SIGBUS, &sa, nullptr);
    sa.sa_sigaction = on_watchdog;
    sigaction(SIGUSR1, &sa, nullptr);
    host_thread = pthread_self();
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_create(&t, &attr, watchdog, nullptr);
}

/* ---- a launch --------------------------------------------------------------------------------- */
static block *pick_block(launch &L)
{
    static size_t turn = 0;
    size_t n = L.inflight.size();
    size_t start = config().preempt ? random_u64() % n : turn++ % n;
    for (size_t k = 0; k < n; k++) {
        block *b = L.inflight[(start + k) % n];
        if (b->runnable)
            return b;
    }
    return nullptr;
}

void run_kernel(launch_request &req)
{
    memory_init();
    signals_init();
    const launch_config &cfg = req.cfg;
    launch L;
    L.req = &req;
    L.nblocks = (size_t)cfg.grid.x * cfg.grid.y * cfg.grid.z;
    L.threads = cfg.block.x * cfg.block.y * cfg.block.z;
    size_t static_known = attributes_of(req.kernel).static_shared;
    size_t resident = (size_t)config().sms * (size_t)std::max(1, blocks_per_sm((int)L.threads, cfg.smem + static_known));
    L.window = (unsigned)std::min({ L.nblocks, resident, (size_t)MAX_SLOTS });
    active = &L;
    watched = &req.cfg;
    kernel_serial.fetch_add(1);
    kernel_running = true;
    spins_since_progress = 0;
    block *last = nullptr;
    bool yielded = false;
    while (!L.aborted) {
        while (L.inflight.size() < L.window && L.next < L.nblocks)
            start_block(L, L.next++);
        if (L.inflight.empty())
            break;
        block *b = last && last->runnable && !yielded ? last : pick_block(L);
        if (!b) {
            note("deadlock: no thread of the kernel can go on:%s\n  in %s", waiting_report(L).c_str(),
                 launch_name().c_str());
            L.error = cudaErrorLaunchFailure;
            break;
        }
        fiber *f = rq_pop(b);
        kit_emu_switch(&sched_sp, enter(f));
        yielded = !exited; /* a thread yielded (to another block, maybe): choose again */
        last = b;
        if (exited) {
            free_stacks.push_back(exited->stack);
            exited->stack = nullptr;
            exited = nullptr;
        }
        if (L.aborted)
            break;
        if (b->live == 0) { /* a block ends while it runs */
            release_block(L, b);
            last = nullptr;
            L.done++;
        }
        if (spins_since_progress > 1000000) {
            note("no progress: every thread left waits or polls, and no write changes what they poll:%s\n  in %s",
                 waiting_report(L).c_str(), launch_name().c_str());
            L.error = cudaErrorLaunchFailure;
            break;
        }
    }
    kernel_running = false;
    while (!L.inflight.empty())
        release_block(L, L.inflight.back());
    kernel_attr &attr = attributes_of(req.kernel);
    attr.static_shared = std::max(attr.static_shared, L.static_bytes);
    running = nullptr;
    current = nullptr;
    active = nullptr;
    if (L.error)
        set_async(L.error);
}

} // namespace kit_emu
