/* Step 4.0 (baseline and oracle): a parallel merge with one thread per item.
 *
 * Item a[i] lands at i + (how many b are < a[i]) and item b[j] at j + (how many
 * a are <= b[j]): the strict and non-strict comparisons make the merge stable
 * (on equal keys A first) and give every output slot exactly one writer. One
 * kernel does both sides, launched twice with the arrays swapped. A value, when
 * the merge carries pairs, simply goes to the same slot as its key. Each thread
 * does a binary search over the whole other array: O(n log n) work against the
 * O(n) of the sequential merge, and each of the log n probes is a dependent
 * global load that mostly misses the caches at large n.
 * Expect: correct at every size, far from the copy, and further behind as n
 * grows and the searches get deeper (lecture 4, Step 4.0's chart). */
#include "lab4.h"
#include "lab4_search.h"

enum { NT = LAB4_NAIVE_NT };

/* Thread i places keys[i] (and vals[i]) among the `other` array's keys: after the
 * other keys < it (upper = 0: this side is A) or <= it (upper = 1: this side is B). */
__global__ void naive_merge_side(const int32_t *__restrict__ keys, const int32_t *__restrict__ vals,
                                 int64_t count, const int32_t *__restrict__ other,
                                 int64_t other_count, int upper, int32_t *__restrict__ merged,
                                 int32_t *__restrict__ merged_vals)
{
    int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count)
        return;
    int32_t key = keys[i];
    int64_t before = upper ? lab4_upper_bound(other, other_count, key)
                           : lab4_lower_bound(other, other_count, key);
    merged[i + before] = key;
    if (merged_vals)
        merged_vals[i + before] = vals[i];
}

extern "C" int lab4_naive_merge(const lab4_io *io, cudaStream_t stream)
{
    int64_t a_count = (int64_t)io->a_count, b_count = (int64_t)io->b_count;
    if (a_count > 0) {
        naive_merge_side<<<kit_div_up(io->a_count, NT), NT, 0, stream>>>(
            io->a, io->a_vals, a_count, io->b, b_count, 0, io->merged, io->merged_vals);
        if (int err = KIT_LAUNCH_CHECK())
            return err;
    }
    if (b_count > 0) {
        naive_merge_side<<<kit_div_up(io->b_count, NT), NT, 0, stream>>>(
            io->b, io->b_vals, b_count, io->a, a_count, 1, io->merged, io->merged_vals);
        if (int err = KIT_LAUNCH_CHECK())
            return err;
    }
    return 0;
}
