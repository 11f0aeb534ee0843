/* Step 6.0 (the baseline, complete): all-reduce through the host.
 *
 * Every GPU copies its n values into pinned host memory, the CPU adds the G arrays,
 * and the sum is copied back to every GPU. It needs nothing but cudaMemcpy, works
 * between any GPUs, and is the oracle the next steps are checked against.
 *
 * What is slow: every value crosses PCIe twice (down, then up: 2n values per GPU,
 * over a link of tens of GB/s, not NVLink's hundreds), the GPUs idle while the CPU
 * adds, and the CPU reads G arrays and writes one at the speed of host memory.
 * Expect: a few percent of the peer-to-peer copy rate; the time grows with G.
 * Needs every GPU of the ring in this process (the host holds every input). */
#include "lab6.h"

#include <stdint.h>

static void host_add(void *const *arrays, int count, size_t n, lab6_type type, void *sum)
{
    if (type == LAB6_I32) {
        uint32_t *s = sum;
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) {
            uint32_t acc = 0; /* unsigned: wrap-around is defined */
            for (int g = 0; g < count; g++)
                acc += ((const uint32_t *)arrays[g])[i];
            s[i] = acc;
        }
        return;
    }
    float *s = sum;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        float acc = 0;
        for (int g = 0; g < count; g++)
            acc += ((const float *)arrays[g])[i];
        s[i] = acc;
    }
}

int lab6_host_staged(const lab6_reduce_io *io)
{
    const lab6_team *t = io->team;
    if (t->local < t->gpus)
        return lab6_needs_one_process(t, "host-staged");
    if (io->n == 0)
        return 0;
    size_t bytes = io->n * lab6_type_bytes(io->type);
    int G = t->gpus, r = 0;
    for (int g = 0; g < G && !r; g++)
        if (!(r = lab6_use(t, g)))
            r = KIT_CHECK(cudaMemcpyAsync(io->ws->host[g], io->in[g], bytes, cudaMemcpyDeviceToHost, t->lane[g][0]));
    for (int g = 0; g < G && !r; g++)
        r = KIT_CHECK(cudaStreamSynchronize(t->lane[g][0]));
    if (r)
        return r;
    host_add(io->ws->host, G, io->n, io->type, io->ws->host[G]);
    for (int g = 0; g < G && !r; g++)
        if (!(r = lab6_use(t, g)))
            r = KIT_CHECK(cudaMemcpyAsync(io->out[g], io->ws->host[G], bytes, cudaMemcpyHostToDevice, t->lane[g][0]));
    return r;
}
