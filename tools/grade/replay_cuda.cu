/* replay_cuda.cu: the memory backend of tools/grade/replay.h on a GPU, and the CUDA
 * calls it watches. Linked with -Xlinker --wrap=SYMBOL for every runtime call below
 * (the Makefile's GRADE_WRAPS), so that the allocations and events of the tests, and
 * the events the submission records, pass through here first. Every buffer the tests
 * allocate starts zeroed, in the worker and in the judge alike: a buffer a call
 * leaves alone then holds the same bytes in both. */
#include "replay.h"

#include <cuda_runtime.h>

#include <string.h>

extern "C" {
cudaError_t __real_cudaMalloc(void **ptr, size_t bytes);
cudaError_t __real_cudaFree(void *ptr);
cudaError_t __real_cudaMallocHost(void **ptr, size_t bytes);
cudaError_t __real_cudaHostAlloc(void **ptr, size_t bytes, unsigned int flags);
cudaError_t __real_cudaFreeHost(void *ptr);
cudaError_t __real_cudaEventCreate(cudaEvent_t *event);
cudaError_t __real_cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
cudaError_t __real_cudaEventDestroy(cudaEvent_t event);
cudaError_t __real_cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t __real_cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags);

/* The devices the tests allocated on: the ones to wait for (a bit per device). */
static unsigned long long used_devices;

static int current_device(void)
{
    int device = 0;
    cudaGetDevice(&device);
    return device;
}

cudaError_t __wrap_cudaMalloc(void **ptr, size_t bytes)
{
    cudaError_t r = __real_cudaMalloc(ptr, bytes);
    if (r == cudaSuccess && !grade_inside() && bytes) {
        int device = current_device();
        used_devices |= 1ull << (device & 63);
        r = cudaMemset(*ptr, 0, bytes);
        if (r == cudaSuccess)
            r = cudaDeviceSynchronize();
        grade_buffer_added(*ptr, bytes, device, 0);
    }
    return r;
}

cudaError_t __wrap_cudaFree(void *ptr)
{
    if (!grade_inside())
        grade_buffer_removed(ptr);
    return __real_cudaFree(ptr);
}

static cudaError_t pinned_added(cudaError_t r, void **ptr, size_t bytes)
{
    if (r == cudaSuccess && !grade_inside() && bytes) {
        memset(*ptr, 0, bytes);
        grade_buffer_added(*ptr, bytes, -1, 1);
    }
    return r;
}

cudaError_t __wrap_cudaMallocHost(void **ptr, size_t bytes)
{
    return pinned_added(__real_cudaMallocHost(ptr, bytes), ptr, bytes);
}

cudaError_t __wrap_cudaHostAlloc(void **ptr, size_t bytes, unsigned int flags)
{
    return pinned_added(__real_cudaHostAlloc(ptr, bytes, flags), ptr, bytes);
}

cudaError_t __wrap_cudaFreeHost(void *ptr)
{
    if (!grade_inside())
        grade_buffer_removed(ptr);
    return __real_cudaFreeHost(ptr);
}

cudaError_t __wrap_cudaEventCreate(cudaEvent_t *event)
{
    cudaError_t r = __real_cudaEventCreate(event);
    if (r == cudaSuccess && !grade_inside())
        grade_event_added(*event, current_device());
    return r;
}

cudaError_t __wrap_cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    cudaError_t r = __real_cudaEventCreateWithFlags(event, flags);
    if (r == cudaSuccess && !grade_inside())
        grade_event_added(*event, current_device());
    return r;
}

cudaError_t __wrap_cudaEventDestroy(cudaEvent_t event)
{
    if (!grade_inside())
        grade_event_removed(event);
    return __real_cudaEventDestroy(event);
}

cudaError_t __wrap_cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    if (grade_inside())
        grade_event_recorded(event);
    return __real_cudaEventRecord(event, stream);
}

cudaError_t __wrap_cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags)
{
    if (grade_inside())
        grade_event_recorded(event);
    return __real_cudaEventRecordWithFlags(event, stream, flags);
}
} /* extern "C" */

/* Two independent 64-bit sums of every word mixed with its index: a changed byte
 * anywhere changes them (the order of the atomic adds does not). */
__host__ __device__ static unsigned long long mix(unsigned long long x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

__global__ static void hash_words(const unsigned long long *words, size_t count, unsigned long long *sums)
{
    unsigned long long a = 0, b = 0;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < count; i += (size_t)gridDim.x * blockDim.x) {
        a += mix(words[i] ^ (i * 0x9e3779b97f4a7c15ull));
        b += mix(words[i] + i + 0x632be59bd9b4e019ull);
    }
    for (int offset = 16; offset > 0; offset /= 2) {
        a += __shfl_down_sync(0xffffffffu, a, offset);
        b += __shfl_down_sync(0xffffffffu, b, offset);
    }
    if (threadIdx.x % 32 == 0) {
        atomicAdd(&sums[0], a);
        atomicAdd(&sums[1], b);
    }
}

/* The last bytes % 8 of a buffer, folded in on the host. */
static void fold_tail(const unsigned char *tail, size_t count, uint64_t out[2])
{
    unsigned long long word = 0;
    memcpy(&word, tail, count);
    out[0] += mix(word ^ 0x51ed270b27a4f0e1ull);
    out[1] += mix(word + count);
}

/* Make a buffer's device current for a call, and put the old one back after. */
struct on_device {
    int before;
    explicit on_device(int device)
    {
        cudaGetDevice(&before);
        if (device >= 0)
            cudaSetDevice(device);
    }
    ~on_device() { cudaSetDevice(before); }
};

/* Wait for the current device and every device the tests allocated on (never touch
 * another: that would make a context there). */
extern "C" int grade_backend_sync(void)
{
    int before = 0, first = 0;
    cudaGetDevice(&before);
    unsigned long long devices = used_devices | 1ull << (before & 63);
    for (int d = 0; d < 64; d++) {
        if (!(devices >> d & 1))
            continue;
        cudaSetDevice(d);
        int r = (int)cudaDeviceSynchronize();
        if (!first)
            first = r;
    }
    cudaSetDevice(before);
    return first;
}

extern "C" int grade_backend_hash(const grade_buffer *b, uint64_t out[2])
{
    size_t words = b->bytes / 8, rest = b->bytes % 8;
    out[0] = out[1] = 0;
    if (b->pinned) {
        const unsigned char *p = (const unsigned char *)b->ptr;
        for (size_t i = 0; i < words; i++) {
            unsigned long long w;
            memcpy(&w, p + 8 * i, 8);
            out[0] += mix(w ^ (i * 0x9e3779b97f4a7c15ull));
            out[1] += mix(w + i + 0x632be59bd9b4e019ull);
        }
        fold_tail(p + 8 * words, rest, out);
        return 0;
    }
    on_device here(b->device);
    static unsigned long long *scratch[64]; /* the two sums, one pair per device */
    unsigned long long *&sums = scratch[b->device & 63];
    int r = sums ? 0 : (int)__real_cudaMalloc((void **)&sums, 2 * sizeof *sums);
    if (!r)
        r = (int)cudaMemset(sums, 0, 2 * sizeof *sums);
    if (!r && words)
        hash_words<<<(unsigned)(words < 1024 * 256 ? (words + 255) / 256 : 1024), 256>>>(
            (const unsigned long long *)b->ptr, words, sums);
    unsigned long long host[2] = { 0, 0 };
    if (!r)
        r = (int)cudaMemcpy(host, sums, sizeof host, cudaMemcpyDeviceToHost);
    unsigned char tail[8] = { 0 };
    if (!r && rest)
        r = (int)cudaMemcpy(tail, (const unsigned char *)b->ptr + 8 * words, rest, cudaMemcpyDeviceToHost);
    out[0] = host[0];
    out[1] = host[1];
    fold_tail(tail, rest, out);
    return r;
}

extern "C" int grade_backend_read(const grade_buffer *b, void *host)
{
    if (b->pinned) {
        memcpy(host, b->ptr, b->bytes);
        return 0;
    }
    return (int)cudaMemcpy(host, b->ptr, b->bytes, cudaMemcpyDefault);
}

extern "C" int grade_backend_write(const grade_buffer *b, const void *host)
{
    if (b->pinned) {
        memcpy(b->ptr, host, b->bytes);
        return 0;
    }
    int r = (int)cudaMemcpy(b->ptr, host, b->bytes, cudaMemcpyDefault);
    return r ? r : grade_backend_sync();
}

extern "C" int grade_backend_record_event(void *event, int device)
{
    on_device here(device);
    return (int)__real_cudaEventRecord((cudaEvent_t)event, 0);
}
