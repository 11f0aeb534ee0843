/* api.cc: the CUDA runtime calls of the emulated GPUs (devices, errors, memory,
 * kernels); streams and events are in stream.cc. */
#include "emu.h"

#include <stdio.h>
#include <string.h>

#include <algorithm>

#include <map>

namespace kit_emu {

static int device_now = 0;
static bool peers[MAX_GPUS][MAX_GPUS];
static cudaError_t last_error = cudaSuccess, async_error = cudaSuccess;

cudaError_t set_last(cudaError_t e)
{
    if (e != cudaSuccess)
        last_error = e;
    return e;
}

void set_async(cudaError_t e)
{
    if (async_error == cudaSuccess)
        async_error = e;
}

bool async_pending() { return async_error != cudaSuccess; }

cudaError_t take_async()
{
    cudaError_t e = async_error;
    async_error = cudaSuccess;
    return set_last(e);
}

int current_device() { return device_now; }
bool peer_enabled(int from, int to) { return peers[from][to]; }

static bool valid_device(int d) { return d >= 0 && d < config().gpus; }

/* Resident blocks of `threads` threads with `shared_bytes` of shared memory per SM. */
int blocks_per_sm(int threads, size_t shared_bytes)
{
    if (threads < 1 || threads > MAX_THREADS || shared_bytes > SHARED_OPTIN)
        return 0;
    int by_threads = 2048 / ((threads + WARP - 1) / WARP * WARP);
    int by_shared = shared_bytes ? (int)(SHARED_PER_SM / (shared_bytes + 1024)) : 32;
    return std::min({ by_threads, by_shared, 32 });
}

kernel_attr &attributes_of(const void *kernel)
{
    static std::map<const void *, kernel_attr> attrs;
    return attrs[kernel];
}

/* The launch of a kernel: checked here as a GPU checks it, run as an operation of
 * its stream. */
void submit_launch(const launch_config &cfg, const void *kernel, kernel_body *body)
{
    std::unique_ptr<kernel_body> own(body);
    const dim3 g = cfg.grid, b = cfg.block;
    unsigned long long threads = (unsigned long long)b.x * b.y * b.z;
    const char *bad = !g.x || !g.y || !g.z                        ? "an empty grid"
                      : g.x > 0x7fffffffu || g.y > 65535 || g.z > 65535 ? "a grid dimension past the limit"
                      : !threads                                  ? "an empty block"
                      : b.x > 1024 || b.y > 1024 || b.z > 64 || threads > 1024 ? "more than 1024 threads per block"
                                                                             : nullptr;
    if (bad) {
        note("launch of %s at %s:%d with grid (%u,%u,%u) and block (%u,%u,%u): %s (cudaErrorInvalidConfiguration)",
             function_name(kernel).c_str(), cfg.file, cfg.line, g.x, g.y, g.z, b.x, b.y, b.z, bad);
        set_last(cudaErrorInvalidConfiguration);
        return;
    }
    const kernel_attr &attr = attributes_of(kernel);
    if (cfg.smem > attr.max_dynamic_shared) {
        note("launch of %s at %s:%d asks for %zu bytes of dynamic shared memory; the kernel may have %zu "
             "(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) raises it)",
             function_name(kernel).c_str(), cfg.file, cfg.line, cfg.smem, attr.max_dynamic_shared);
        set_last(cudaErrorInvalidValue);
        return;
    }
    stream_state *s = stream_of(cfg.stream);
    if (!s || device_of(s) != device_now) {
        note("launch of %s at %s:%d on %s", function_name(kernel).c_str(), cfg.file, cfg.line,
             s ? "a stream of another GPU than the current one (cudaSetDevice)" : "a stream that does not exist");
        set_last(cudaErrorInvalidResourceHandle);
        return;
    }
    auto req = std::make_shared<launch_request>();
    req->cfg = cfg;
    req->kernel = kernel;
    req->body = std::move(own);
    req->device = device_now;
    enqueue(cfg.stream, "a kernel", [req] { run_kernel(*req); });
}

enum pointer_kind { PAGEABLE, PINNED, DEVICE };
static pointer_kind kind_of(const void *p)
{
    int o = owner_of((uintptr_t)p);
    return o == OWNER_NONE ? PAGEABLE : o == OWNER_HOST ? PINNED : DEVICE;
}

/* Checks a copy's direction and device ranges; 0 or the error (reported). */
static cudaError_t check_copy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, const char *call)
{
    if (bytes == 0)
        return cudaSuccess;
    pointer_kind d = kind_of(dst), s = kind_of(src);
    bool ok = kind == cudaMemcpyDefault || (kind == cudaMemcpyHostToDevice && s != DEVICE && d == DEVICE) ||
              (kind == cudaMemcpyDeviceToHost && s == DEVICE && d != DEVICE) ||
              (kind == cudaMemcpyDeviceToDevice && s == DEVICE && d == DEVICE) ||
              (kind == cudaMemcpyHostToHost && s != DEVICE && d != DEVICE);
    if (!ok) {
        static const char *names[] = { "host", "pinned host", "device" };
        note("%s: the kind says %s but the source is %s memory and the destination %s memory", call,
             kind == cudaMemcpyHostToDevice   ? "host to device"
             : kind == cudaMemcpyDeviceToHost ? "device to host"
             : kind == cudaMemcpyDeviceToDevice ? "device to device"
                                                : "host to host",
             names[s], names[d]);
        return cudaErrorInvalidValue;
    }
    if ((s != PAGEABLE && !heap_range_ok(src, bytes, -1, "the source", call)) ||
        (d != PAGEABLE && !heap_range_ok(dst, bytes, -1, "the destination", call)))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

/* A copy as an operation of stream s: host memory that is not pinned behaves as
 * CUDA's does (the source is read at the call; a pageable destination is written
 * before the call returns). */
static cudaError_t copy_async(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind, cudaStream_t s,
                              const char *call, bool sync)
{
    if (cudaError_t e = check_copy(dst, src, bytes, kind, call))
        return set_last(e);
    if (bytes == 0)
        return cudaSuccess;
    std::shared_ptr<std::vector<char>> staged;
    if (kind_of(src) == PAGEABLE) {
        staged = std::make_shared<std::vector<char>>((const char *)src, (const char *)src + bytes);
        src = staged->data();
    }
    op_ptr made;
    cudaError_t e = enqueue(s, call, [=] {
        bool src_ok = staged || kind_of(src) == PAGEABLE || heap_range_ok(src, bytes, -1, "the source", call);
        bool dst_ok = kind_of(dst) == PAGEABLE || heap_range_ok(dst, bytes, -1, "the destination", call);
        if (src_ok && dst_ok)
            memcpy(dst, src, bytes);
        else
            set_async(cudaErrorIllegalAddress);
    }, &made);
    if (e)
        return set_last(e);
    if (sync || kind_of(dst) == PAGEABLE) {
        if (!drain([&] { return made->done; }, call))
            return set_last(cudaErrorLaunchFailure);
        return take_async();
    }
    return cudaSuccess;
}

static cudaError_t memset_async(void *p, int value, size_t bytes, cudaStream_t s, const char *call)
{
    if (bytes && !heap_range_ok(p, bytes, -1, "the destination", call))
        return set_last(cudaErrorInvalidValue);
    if (bytes == 0)
        return cudaSuccess;
    return set_last(enqueue(s, call, [=] {
        if (heap_range_ok(p, bytes, -1, "the destination", call))
            memset(p, value, bytes);
        else
            set_async(cudaErrorIllegalAddress);
    }));
}

static cudaError_t sync_device(int d, const char *call)
{
    if (!drain([d] { return device_idle(d); }, call))
        return set_last(cudaErrorLaunchFailure);
    return take_async();
}

} // namespace kit_emu

using namespace kit_emu;

extern "C" {

const char *cudaGetErrorName(cudaError_t e)
{
    switch (e) {
#define NAME(x) \
    case x:     \
        return #x;
        NAME(cudaSuccess)
        NAME(cudaErrorInvalidValue)
        NAME(cudaErrorMemoryAllocation)
        NAME(cudaErrorInitializationError)
        NAME(cudaErrorInvalidConfiguration)
        NAME(cudaErrorInvalidDevicePointer)
        NAME(cudaErrorInvalidMemcpyDirection)
        NAME(cudaErrorInvalidDeviceFunction)
        NAME(cudaErrorNoDevice)
        NAME(cudaErrorInvalidDevice)
        NAME(cudaErrorInvalidResourceHandle)
        NAME(cudaErrorNotReady)
        NAME(cudaErrorIllegalAddress)
        NAME(cudaErrorLaunchOutOfResources)
        NAME(cudaErrorPeerAccessAlreadyEnabled)
        NAME(cudaErrorPeerAccessNotEnabled)
        NAME(cudaErrorAssert)
        NAME(cudaErrorMisalignedAddress)
        NAME(cudaErrorLaunchFailure)
        NAME(cudaErrorNotSupported)
        NAME(cudaErrorUnknown)
#undef NAME
    }
    return "cudaErrorUnknown";
}

const char *cudaGetErrorString(cudaError_t e)
{
    switch (e) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorIllegalAddress: return "an illegal memory access was encountered (emulator: see its message above)";
    case cudaErrorMisalignedAddress: return "misaligned address (emulator: see its message above)";
    case cudaErrorLaunchFailure: return "unspecified launch failure (emulator: see its message above)";
    case cudaErrorPeerAccessAlreadyEnabled: return "peer access is already enabled";
    case cudaErrorPeerAccessNotEnabled: return "peer access has not been enabled";
    case cudaErrorNotSupported: return "operation not supported";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    default: return "unknown error";
    }
}

cudaError_t cudaGetLastError(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e ? e : take_async();
}

cudaError_t cudaPeekAtLastError(void) { return last_error ? last_error : async_error; }

cudaError_t cudaGetDeviceCount(int *count)
{
    *count = config().gpus;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *device)
{
    *device = device_now;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    if (!valid_device(device))
        return set_last(cudaErrorInvalidDevice);
    device_now = device;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    if (!valid_device(device))
        return set_last(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "emulated GPU %d (the kit's CPU emulator, KIT_EMU_SEED=%llu)", device,
             config().seed);
    p->totalGlobalMem = config().memory_bytes;
    p->sharedMemPerBlock = SHARED_DEFAULT;
    p->sharedMemPerBlockOptin = SHARED_OPTIN;
    p->sharedMemPerMultiprocessor = SHARED_PER_SM;
    p->regsPerBlock = 65536;
    p->warpSize = WARP;
    p->maxThreadsPerBlock = MAX_THREADS;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->maxThreadsPerMultiProcessor = 2048;
    p->maxBlocksPerMultiProcessor = 32;
    p->major = 9;
    p->minor = 0;
    p->multiProcessorCount = config().sms;
    p->l2CacheSize = 1 << 20;
    p->unifiedAddressing = 1;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int device)
{
    struct cudaDeviceProp p;
    if (cudaError_t e = cudaGetDeviceProperties(&p, device))
        return e;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrWarpSize: *value = WARP; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = (int)p.sharedMemPerBlockOptin; break;
    /* No clocks: an emulated GPU has no speed to speak of (the harness then prints no peak). */
    case cudaDevAttrClockRate:
    case cudaDevAttrMemoryClockRate:
    case cudaDevAttrGlobalMemoryBusWidth: *value = 0; break;
    default: return set_last(cudaErrorInvalidValue);
    }
    return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) { return sync_device(device_now, "cudaDeviceSynchronize"); }

cudaError_t cudaDeviceReset(void) { return sync_device(device_now, "cudaDeviceReset"); }

cudaError_t cudaDeviceCanAccessPeer(int *can, int device, int peer)
{
    if (!valid_device(device) || !valid_device(peer))
        return set_last(cudaErrorInvalidDevice);
    *can = device != peer;
    return cudaSuccess;
}

cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags)
{
    if (!valid_device(peer) || peer == device_now || flags)
        return set_last(peer == device_now ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
    if (peers[device_now][peer])
        return set_last(cudaErrorPeerAccessAlreadyEnabled);
    peers[device_now][peer] = true;
    return cudaSuccess;
}

cudaError_t cudaDeviceDisablePeerAccess(int peer)
{
    if (!valid_device(peer) || !peers[device_now][peer])
        return set_last(cudaErrorPeerAccessNotEnabled);
    peers[device_now][peer] = false;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version)
{
    *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int *version)
{
    *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    size_t total = config().memory_bytes, used = heap_in_use(device_now + 1);
    *total_bytes = total;
    *free_bytes = used < total ? total - used : 0;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void **ptr, size_t bytes)
{
    *ptr = nullptr;
    if (bytes == 0)
        return cudaSuccess;
    if (heap_in_use(device_now + 1) + bytes > config().memory_bytes ||
        !(*ptr = heap_alloc(bytes, device_now + 1, __builtin_return_address(0))))
        return set_last(cudaErrorMemoryAllocation);
    return cudaSuccess;
}

cudaError_t cudaFree(void *ptr)
{
    if (cudaError_t e = sync_device(device_now, "cudaFree"))
        return e;
    return set_last(heap_free(ptr, false, "cudaFree"));
}

cudaError_t cudaHostAlloc(void **ptr, size_t bytes, unsigned int flags)
{
    (void)flags;
    *ptr = heap_alloc(bytes ? bytes : 1, OWNER_HOST, __builtin_return_address(0));
    return *ptr ? cudaSuccess : set_last(cudaErrorMemoryAllocation);
}

cudaError_t cudaMallocHost(void **ptr, size_t bytes)
{
    *ptr = heap_alloc(bytes ? bytes : 1, OWNER_HOST, __builtin_return_address(0));
    return *ptr ? cudaSuccess : set_last(cudaErrorMemoryAllocation);
}

cudaError_t cudaFreeHost(void *ptr)
{
    for (int d = 0; d < config().gpus; d++)
        if (cudaError_t e = sync_device(d, "cudaFreeHost"))
            return e;
    return set_last(heap_free(ptr, true, "cudaFreeHost"));
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    return copy_async(dst, src, bytes, kind, 0, "cudaMemcpy", true);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind, cudaStream_t stream)
{
    return copy_async(dst, src, bytes, kind, stream, "cudaMemcpyAsync", false);
}

static cudaError_t peer_copy(void *dst, int dst_device, const void *src, int src_device, size_t bytes,
                             cudaStream_t stream, bool sync)
{
    const char *call = sync ? "cudaMemcpyPeer" : "cudaMemcpyPeerAsync";
    if (!valid_device(dst_device) || !valid_device(src_device))
        return set_last(cudaErrorInvalidDevice);
    if (bytes && (!heap_range_ok(dst, bytes, dst_device, "the destination", call) ||
                  !heap_range_ok(src, bytes, src_device, "the source", call)))
        return set_last(cudaErrorInvalidValue);
    return copy_async(dst, src, bytes, cudaMemcpyDeviceToDevice, stream, call, sync);
}

cudaError_t cudaMemcpyPeer(void *dst, int dst_device, const void *src, int src_device, size_t bytes)
{
    return peer_copy(dst, dst_device, src, src_device, bytes, 0, true);
}

cudaError_t cudaMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device, size_t bytes,
                                cudaStream_t stream)
{
    return peer_copy(dst, dst_device, src, src_device, bytes, stream, false);
}

cudaError_t cudaMemset(void *ptr, int value, size_t bytes) { return memset_async(ptr, value, bytes, 0, "cudaMemset"); }

cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream)
{
    return memset_async(ptr, value, bytes, stream, "cudaMemsetAsync");
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
    if (!func)
        return set_last(cudaErrorInvalidDeviceFunction);
    const kernel_attr &k = attributes_of(func);
    memset(attr, 0, sizeof *attr);
    attr->sharedSizeBytes = k.static_shared; /* known once a block of it has run */
    attr->maxThreadsPerBlock = MAX_THREADS;
    attr->numRegs = 32;
    attr->ptxVersion = attr->binaryVersion = 90;
    attr->maxDynamicSharedSizeBytes = (int)k.max_dynamic_shared;
    attr->preferredShmemCarveout = -1;
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    if (!func)
        return set_last(cudaErrorInvalidDeviceFunction);
    kernel_attr &k = attributes_of(func);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value > SHARED_OPTIN)
            return set_last(cudaErrorInvalidValue);
        k.max_dynamic_shared = (size_t)value;
        return cudaSuccess;
    }
    if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
        return value >= -1 && value <= 100 ? cudaSuccess : set_last(cudaErrorInvalidValue);
    return set_last(cudaErrorInvalidValue);
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func, int block_size,
                                                          size_t dynamic_smem)
{
    if (!func)
        return set_last(cudaErrorInvalidDeviceFunction);
    *blocks = blocks_per_sm(block_size, dynamic_smem + attributes_of(func).static_shared);
    return cudaSuccess;
}

} /* extern "C" */
