/* errors.c: what every other file of the harness reports with: status names, the
 * CUDA checks behind KIT_CHECK and KIT_LAUNCH_CHECK, and exiting with a message
 * (kit_die, and the allocation and the multiplication that exit with one instead
 * of failing later). Needs nothing else of the harness. */
#include "kit.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *kit_status_name(kit_status s)
{
    switch (s) {
    case KIT_PASS: return "PASS";
    case KIT_FAIL: return "FAIL";
    case KIT_ERROR: return "ERROR";
    case KIT_TODO_STATUS: return "TODO";
    }
    return "?";
}

void kit_die(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(code);
}

int kit_check_(cudaError_t err, const char *what, const char *file, int line)
{
    if (err != cudaSuccess)
        fprintf(stderr, "CUDA error at %s:%d: %s: %s (%s)\n", file, line, what,
                cudaGetErrorString(err), cudaGetErrorName(err));
    return (int)err;
}

int kit_launch_check_(const char *file, int line)
{
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) {
        const char *sync = getenv("KIT_SYNC_CHECK");
        if (sync && strcmp(sync, "1") == 0)
            err = cudaDeviceSynchronize();
    }
    return kit_check_(err, "kernel launch", file, line);
}

void *kit_host_alloc(size_t bytes, const char *what)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        kit_die(KIT_EXIT_USAGE, "cannot allocate %.2f GiB of host memory for %s", bytes / 1073741824.0,
                what);
    return p;
}

size_t kit_mul_or_die(size_t a, size_t b, const char *what)
{
    if (b != 0 && a > SIZE_MAX / b)
        kit_die(KIT_EXIT_USAGE, "%s: %zu x %zu does not fit in size_t", what, a, b);
    return a * b;
}
