/* Step 4.0 (baseline and oracle): a parallel merge with one thread per item.
 *
 * Item a[i] lands at i + (how many b are < a[i]) and item b[j] at j + (how many
 * a are <= b[j]): the strict and non-strict comparisons make the merge stable
 * (on equal keys A first) and give every output slot exactly one writer. Each
 * thread does a binary search over the whole other array: O(n log n) work
 * against the O(n) of the sequential merge, and each of the log n probes is a
 * dependent global load that mostly misses the caches at large n.
 * Expect: correct at every size and far from the copy limit; the gap grows
 * with n as the searches get deeper. */
#include "lab4.h"
#include "lab4_search.h"

#define NAIVE_NT 256

__global__ void naive_merge_a(const int32_t *__restrict__ a, int64_t a_count,
                              const int32_t *__restrict__ b, int64_t b_count,
                              int32_t *__restrict__ merged)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < a_count) {
        int32_t key = a[i];
        merged[i + lab4_lower_bound(b, b_count, key)] = key;
    }
}

__global__ void naive_merge_b(const int32_t *__restrict__ a, int64_t a_count,
                              const int32_t *__restrict__ b, int64_t b_count,
                              int32_t *__restrict__ merged)
{
    int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (j < b_count) {
        int32_t key = b[j];
        merged[j + lab4_upper_bound(a, a_count, key)] = key;
    }
}

extern "C" int lab4_naive_merge(const lab4_io *io, cudaStream_t stream)
{
    int64_t a_count = (int64_t)io->a_count, b_count = (int64_t)io->b_count;
    if (a_count > 0) {
        naive_merge_a<<<kit_div_up(io->a_count, NAIVE_NT), NAIVE_NT, 0, stream>>>(
            io->a, a_count, io->b, b_count, io->merged);
        if (int err = KIT_LAUNCH_CHECK())
            return err;
    }
    if (b_count > 0) {
        naive_merge_b<<<kit_div_up(io->b_count, NAIVE_NT), NAIVE_NT, 0, stream>>>(
            io->a, a_count, io->b, b_count, io->merged);
        if (int err = KIT_LAUNCH_CHECK())
            return err;
    }
    return 0;
}
