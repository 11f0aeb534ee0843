/* timing.c: timing a case with CUDA events (warm-up, repetitions within a time
 * budget, an L2 flush and the case's reset outside the timed span) and the
 * statistics of the samples. */
#include "kit.h"

#include <stdlib.h>
#include <time.h>
#include <nvtx3/nvToolsExt.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

kit_stats kit_stats_of(double *samples, int n)
{
    qsort(samples, (size_t)n, sizeof(double), cmp_double);
    kit_stats s;
    s.min = samples[0];
    s.max = samples[n - 1];
    s.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
    s.runs = n;
    return s;
}

static int reset_inputs(const kit_case *c, cudaStream_t stream)
{
    return c->reset ? c->reset(c->ctx, stream) : 0;
}

static double seconds_since(struct timespec start)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start.tv_sec) + 1e-9 * (double)(now.tv_nsec - start.tv_nsec);
}

/* One timed run: reset and L2 flush outside the span, the run between the events. */
static int timed_run(const kit_case *c, cudaStream_t stream, const kit_timing *t, int i,
                     cudaEvent_t start, cudaEvent_t stop, double *ms)
{
    int r = reset_inputs(c, stream);
    if (!r && t->flush_buf)
        r = (int)cudaMemsetAsync(t->flush_buf, i & 0xff, t->flush_bytes, stream);
    if (!r)
        r = (int)cudaEventRecord(start, stream);
    if (!r) {
        /* An NVTX range named after the row, around its launches only: `ncu --nvtx
         * --nvtx-include "slug/"` and Nsight Systems find one variant by name. */
        nvtxRangePushA(c->variant);
        r = c->run(c->ctx, stream);
        nvtxRangePop();
    }
    if (!r)
        r = (int)cudaEventRecord(stop, stream);
    if (!r)
        r = (int)cudaEventSynchronize(stop);
    float elapsed = 0;
    if (!r)
        r = (int)cudaEventElapsedTime(&elapsed, start, stop);
    *ms = elapsed;
    return r;
}

int kit_time(const kit_case *c, cudaStream_t stream, const kit_timing *t, kit_stats *out)
{
    struct timespec began;
    clock_gettime(CLOCK_MONOTONIC, &began);
    int over_budget_at_half = 0;
    int r = 0;
    for (int i = 0; i < t->warmup && !r && !over_budget_at_half; i++) {
        r = reset_inputs(c, stream);
        if (!r)
            r = c->run(c->ctx, stream);
        if (!r && t->budget_s > 0) {
            r = (int)cudaStreamSynchronize(stream);
            over_budget_at_half = seconds_since(began) >= 0.5 * t->budget_s;
        }
    }
    if (r)
        return r;

    cudaEvent_t start, stop;
    if ((r = KIT_CHECK(cudaEventCreate(&start))))
        return r;
    if ((r = KIT_CHECK(cudaEventCreate(&stop)))) {
        cudaEventDestroy(start);
        return r;
    }
    double *ms = kit_host_alloc(sizeof(double) * (size_t)t->reps, "timing samples");
    int runs = 0;
    while (runs < t->reps && !r) {
        r = timed_run(c, stream, t, runs, start, stop, &ms[runs]);
        if (!r)
            runs++;
        if (t->budget_s > 0 && seconds_since(began) >= t->budget_s)
            break;
    }
    if (!r)
        *out = kit_stats_of(ms, runs);
    free(ms);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return r;
}
