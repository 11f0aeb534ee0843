/* memory.cc: device memory of the emulated GPUs.
 *
 * Every allocation (cudaMalloc on any emulated GPU, cudaMallocHost) comes from one
 * reserved range of addresses, page-aligned, with a page nobody may touch after it.
 * A shadow byte per 8 bytes says how many of them are addressable (0: none, 8: all),
 * so an instrumented access one element past the end of a buffer is caught exactly
 * (the guard page catches what is not instrumented); a page table says which GPU
 * owns each page. Freed ranges stay unaddressable until the range runs out. */
#include "emu.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <map>

namespace kit_emu {

static const size_t PAGE = HEAP_PAGE;
static uintptr_t heap_lo;
uintptr_t watched_lo;
size_t watched_span;
static uint8_t *shadow; /* per 8 bytes: addressable bytes from the start of the granule */
static uint8_t *owners; /* per page: OWNER_NONE, device + 1, OWNER_HOST */
uint8_t *heap_shadow, *heap_owners;
static size_t bump;     /* offset of the first never-used page */
static std::map<uintptr_t, allocation> allocations; /* by base, freed ones kept for messages */
static std::multimap<size_t, uintptr_t> free_spans; /* reused once the range is used up */
static size_t in_use[MAX_GPUS + 2];

static void *reserve(size_t bytes, int prot)
{
    void *p = mmap(nullptr, bytes, prot, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        fatal("cannot reserve %zu MiB of address space for the emulated GPUs' memory", bytes >> 20);
    return p;
}

void memory_init()
{
    if (heap_lo)
        return;
    /* The heap and, right after it, the windows of shared memory: one range to test. */
    heap_lo = (uintptr_t)reserve(HEAP_SPAN + SHARED_WINDOWS, PROT_NONE);
    watched_lo = heap_lo;
    watched_span = HEAP_SPAN + SHARED_WINDOWS;
    shared_windows_at((char *)heap_lo + HEAP_SPAN);
    shadow = (uint8_t *)reserve(HEAP_SPAN / 8, PROT_READ | PROT_WRITE);
    owners = (uint8_t *)reserve(HEAP_SPAN / PAGE, PROT_READ | PROT_WRITE);
    heap_shadow = shadow;
    heap_owners = owners;
}

bool in_heap(uintptr_t a) { return a - heap_lo < HEAP_SPAN; }

int owner_of(uintptr_t a) { return in_heap(a) ? (int)owners[(a - heap_lo) / PAGE] : (int)OWNER_NONE; }

static size_t round_up(size_t x, size_t to) { return (x + to - 1) / to * to; }

static void mark(uintptr_t base, size_t bytes, size_t span, int owner)
{
    size_t g0 = (base - heap_lo) / 8, full = bytes / 8;
    memset(shadow + g0, 8, full);
    if (bytes % 8)
        shadow[g0 + full] = (uint8_t)(bytes % 8);
    size_t tail = full + (bytes % 8 != 0);
    memset(shadow + g0 + tail, 0, span / 8 - tail);
    memset(owners + (base - heap_lo) / PAGE, owner, span / PAGE);
}

void *heap_alloc(size_t bytes, int owner, const void *caller)
{
    memory_init();
    size_t used = round_up(bytes, PAGE), span = used + PAGE; /* + the guard page */
    uintptr_t base = 0;
    if (bump + span <= HEAP_SPAN) {
        base = heap_lo + bump;
        bump += span;
    } else {
        auto fit = free_spans.lower_bound(span);
        if (fit == free_spans.end())
            return nullptr;
        base = fit->second;
        size_t rest = fit->first - span;
        free_spans.erase(fit);
        if (rest)
            free_spans.emplace(rest, base + span);
        allocations.erase(base);
    }
    if (mprotect((void *)base, used, PROT_READ | PROT_WRITE) != 0)
        return nullptr;
    mark(base, bytes, span, owner);
    allocation a = { base, bytes, span, owner, false, "", caller };
    allocations[base] = a;
    in_use[owner == OWNER_HOST ? MAX_GPUS + 1 : owner] += bytes;
    return (void *)base;
}

cudaError_t heap_free(void *p, bool host, const char *call)
{
    if (!p)
        return cudaSuccess;
    auto it = allocations.find((uintptr_t)p);
    if (it == allocations.end() || it->second.freed || (it->second.owner == OWNER_HOST) != host) {
        note("%s(%p): %s", call, p,
             it == allocations.end() ? "not the start of an allocation"
             : it->second.freed      ? "already freed"
             : host                  ? "device memory: use cudaFree"
                                     : "pinned host memory: use cudaFreeHost");
        return cudaErrorInvalidValue;
    }
    allocation &a = it->second;
    a.freed = true;
    in_use[a.owner == OWNER_HOST ? MAX_GPUS + 1 : a.owner] -= a.size;
    memset(shadow + (a.base - heap_lo) / 8, 0, a.span / 8);
    mprotect((void *)a.base, a.span, PROT_NONE);
    madvise((void *)a.base, a.span, MADV_DONTNEED);
    if (bump + PAGE > HEAP_SPAN)
        free_spans.emplace(a.span, a.base);
    return cudaSuccess;
}

size_t heap_in_use(int owner) { return in_use[owner == OWNER_HOST ? MAX_GPUS + 1 : owner]; }

allocation *allocation_near(uintptr_t a)
{
    auto it = allocations.upper_bound(a);
    if (it == allocations.begin())
        return nullptr;
    --it;
    return &it->second;
}

bool heap_addressable(uintptr_t a, size_t n, uintptr_t *bad)
{
    for (uintptr_t x = a; x < a + n;) {
        uint8_t ok = shadow[(x - heap_lo) / 8];
        uintptr_t granule_end = (x | 7) + 1, end = granule_end < a + n ? granule_end : a + n;
        if ((x & 7) + (end - x) > ok) {
            if (bad)
                *bad = (x & 7) < ok ? (x & ~(uintptr_t)7) + ok : x;
            return false;
        }
        x = end;
    }
    return true;
}

static std::string name_of(const allocation &a)
{
    std::string who = a.owner == OWNER_HOST ? "pinned host memory" : format("memory of GPU %d", a.owner - 1);
    std::string what = a.name.empty() ? "a buffer" : "'" + a.name + "'";
    return format("%s (%zu bytes of %s, allocated at %s)", what.c_str(), a.size, who.c_str(),
                  a.caller ? caller_place(a.caller).c_str() : "?");
}

std::string describe_heap(uintptr_t x, size_t n)
{
    allocation *a = allocation_near(x);
    if (!a || x >= a->base + a->span)
        return format("address %p, in no allocation", (void *)x);
    long long at = (long long)(x - a->base);
    std::string elem = n > 1 && n <= 16 && at > 0
                           ? format(" (element %lld if its elements are %zu bytes)", at / (long long)n, n)
                           : "";
    if (a->freed)
        return format("byte %lld of %s, which was freed", at, name_of(*a).c_str());
    if (x >= a->base + a->size)
        return format("byte %lld of %s: %s%s", at, name_of(*a).c_str(),
                      x == a->base + a->size ? "just past its end"
                                             : format("%lld bytes past its end", at - (long long)a->size).c_str(),
                      elem.c_str());
    return format("byte %lld of %s%s", at, name_of(*a).c_str(), elem.c_str());
}

bool heap_range_ok(const void *p, size_t n, int owner, const char *what, const char *op)
{
    if (n == 0)
        return true;
    uintptr_t a = (uintptr_t)p, bad = 0;
    if (!in_heap(a)) {
        note("%s: %s (%p) is not memory of an emulated GPU (cudaMalloc or cudaMallocHost)", op, what, p);
        return false;
    }
    if (!heap_addressable(a, n, &bad)) {
        note("%s: %s [%p, +%zu bytes) is not all addressable: %s", op, what, p, n, describe_heap(bad, 1).c_str());
        return false;
    }
    int o = owner_of(a);
    if (owner >= 0 && o != owner + 1 && o != OWNER_HOST) {
        note("%s: %s is memory of GPU %d, not of GPU %d", op, what, o - 1, owner);
        return false;
    }
    return true;
}

} // namespace kit_emu

extern "C" void kitEmuNameAllocation(const void *ptr, const char *what)
{
    auto it = kit_emu::allocations.find((uintptr_t)ptr);
    if (it != kit_emu::allocations.end() && what)
        it->second.name = what;
}
