/* device.c: choosing the GPU, device memory (allocation, download, poisoning). */
#include "kit.h"

#include <stdlib.h>
#include <string.h>

int kit_device_open(int id, kit_device *dev, char *why, size_t why_len)
{
    memset(dev, 0, sizeof *dev);
    int count = 0;
    cudaError_t err = cudaGetDeviceCount(&count);
    if (err != cudaSuccess) {
        snprintf(why, why_len, "no CUDA-capable GPU found (%s: %s)", cudaGetErrorName(err),
                 cudaGetErrorString(err));
        return 1;
    }
    if (count == 0) {
        snprintf(why, why_len, "no CUDA-capable GPU found (the driver reports 0 devices)");
        return 1;
    }
    if (id >= count) {
        snprintf(why, why_len, "device %d requested but only %d CUDA device(s) present", id, count);
        return 1;
    }
    struct cudaDeviceProp prop;
    if ((err = cudaSetDevice(id)) != cudaSuccess ||
        (err = cudaGetDeviceProperties(&prop, id)) != cudaSuccess) {
        snprintf(why, why_len, "cannot use device %d (%s)", id, cudaGetErrorString(err));
        return 1;
    }
    dev->id = id;
    snprintf(dev->name, sizeof dev->name, "%s", prop.name);
    dev->sms = prop.multiProcessorCount;
    dev->cc_major = prop.major;
    dev->cc_minor = prop.minor;
    dev->global_mem = prop.totalGlobalMem;
    dev->l2_bytes = (size_t)prop.l2CacheSize;
    /* CUDA 13 dropped the clock fields of cudaDeviceProp: ask the attributes. */
    int mem_khz = 0, bus_bits = 0;
    if (cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, id) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, id) == cudaSuccess)
        dev->peak_gbs = 2.0 * mem_khz * 1e3 * (bus_bits / 8.0) / 1e9; /* double data rate */
    cudaGetLastError(); /* an unsupported attribute is not an error for us */
    return 0;
}

int kit_emulated(void)
{
#ifdef KIT_EMU
    return 1;
#else
    return 0;
#endif
}

void kit_device_open_or_exit(const kit_options *opt, kit_device *dev)
{
    char why[512];
    if (kit_device_open(opt->device, dev, why, sizeof why)) {
        fprintf(stderr, "%s\n", why);
        exit(KIT_EXIT_USAGE);
    }
}

void kit_device_print(const kit_device *dev, FILE *to)
{
    fprintf(to, "GPU %d: %s, compute capability %d.%d, %d SMs, %.1f GiB, L2 %.0f MiB", dev->id,
            dev->name, dev->cc_major, dev->cc_minor, dev->sms,
            dev->global_mem / (double)(1 << 30), dev->l2_bytes / (double)(1 << 20));
    if (dev->peak_gbs > 0)
        fprintf(to, ", theoretical DRAM peak %.0f GB/s", dev->peak_gbs);
    int runtime = 0, driver = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    fprintf(to, "\nCUDA runtime %d.%d, driver %d.%d\n", runtime / 1000, runtime % 1000 / 10,
            driver / 1000, driver % 1000 / 10);
}

void kit_require_device_bytes(size_t bytes, const char *what)
{
    size_t free_b = 0, total_b = 0;
    if (KIT_CHECK(cudaMemGetInfo(&free_b, &total_b)))
        exit(KIT_EXIT_USAGE);
    size_t headroom = 256u << 20; /* context, library scratch */
    if (bytes + headroom > free_b || bytes + headroom < bytes)
        kit_die(KIT_EXIT_USAGE, "%s needs %.2f GiB of device memory but only %.2f GiB of %.2f are free;"
                " use a smaller --n", what, bytes / 1073741824.0, free_b / 1073741824.0,
                total_b / 1073741824.0);
}

void *kit_device_alloc(size_t bytes, const char *what)
{
    void *p = NULL;
    if (bytes == 0)
        bytes = 1; /* a valid, distinct pointer even for empty inputs */
    cudaError_t err = cudaMalloc(&p, bytes);
    if (err != cudaSuccess)
        kit_die(KIT_EXIT_USAGE, "cannot allocate %.2f GiB of device memory for %s (%s)",
                bytes / 1073741824.0, what, cudaGetErrorString(err));
#ifdef KIT_EMU
    kitEmuNameAllocation(p, what); /* the emulator's messages name the buffer */
#endif
    return p;
}

void *kit_download(const void *d_ptr, size_t n_bytes)
{
    void *h = kit_host_alloc(n_bytes, "a download");
    if (n_bytes && KIT_CHECK(cudaMemcpy(h, d_ptr, n_bytes, cudaMemcpyDeviceToHost)))
        kit_die(KIT_EXIT_USAGE, "download of %zu bytes failed", n_bytes);
    return h;
}

int kit_poison(void *d_ptr, size_t bytes, cudaStream_t stream)
{
    return bytes ? (int)cudaMemsetAsync(d_ptr, 0xA5, bytes, stream) : 0;
}
