/* Step 1.3: warp-aggregated atomics with votes and shuffles (Westphal's two
 * stages, written with the _sync intrinsics of Volta and later).
 *
 * Stage 1 (lab1_peers_by_ballot in lab1_warp.cuh) gives every lane the mask of
 * the lanes that share its key, in one loop iteration per distinct key of the
 * warp. Stage 2 (lab1_reduce_peers) sums the values of each group with a tree of
 * shuffles walked over that mask. Then only the group's leader (its lowest lane)
 * does the atomic: one atomic per distinct key per warp instead of one per lane.
 * For the histogram Stage 2 is not needed: the group's count is __popc(peers).
 * Still slow: Stage 1 costs one vote round per distinct key, up to 32 for uniform
 * keys over many bins, where there is nothing to aggregate in the first place.
 * Expect: with one key per warp about 9.5x global-atomic for counts and 3x for
 * doubles (Stage 2's five rounds cost); with 32 distinct keys the same time as
 * global-atomic, the vote rounds hiding behind the warp's 32 global atomics
 * (lecture 1, Figure 1.4 and Step 1.4's table). */
#include "lab1.h"
#include "lab1_value.cuh"
#include "lab1_warp.cuh"

enum { NT = LAB1_NT }; /* a multiple of 32: whole warps */

/* What a peer group adds: a count adds the group's size (every element adds 1);
 * doubles need Stage 2. */
template <bool TRACE>
__device__ __forceinline__ int group_sum(unsigned, unsigned peers, int, lab1_trace *)
{
    return __popc(peers);
}
template <bool TRACE>
__device__ __forceinline__ double group_sum(unsigned active, unsigned peers, double x, lab1_trace *trace)
{
    return lab1_reduce_peers<double, TRACE>(active, peers, x, trace);
}

/* TRACE: the one-warp kernel of --trace (doubles only) also records Stage 1's
 * result and the leaders' atomics. */
template <typename T, bool TRACE>
__global__ void add_ballot(const int *__restrict__ keys, const double *__restrict__ values, size_t n, T *out,
                           lab1_trace *trace)
{
    // BEGIN SOLUTION (Step 1.3): active = __ballot_sync(full mask, i < n) BEFORE any lane leaves; lanes with data find their peers (lab1_peers_by_ballot<TRACE>), sum the group (group_sum<TRACE>), and the leader (lowest peer) adds the sum; with TRACE, every lane fills trace->peers[lane] and the leader trace->atomic[lane] (written = 1, its key, total = the group sum it added)
    size_t i = (size_t)blockIdx.x * NT + threadIdx.x;
    unsigned active = __ballot_sync(KIT_FULL_MASK, i < n); /* every lane of the warp is here */
    if (i >= n)
        return;
    int key = keys[i];
    unsigned peers = lab1_peers_by_ballot<TRACE>(active, key, trace);
    T sum = group_sum<TRACE>(active, peers, lab1_weight<T>(values, i), trace);
    int lane = lab1_lane_id();
    if (TRACE)
        trace->peers[lane] = peers;
    if (lane == __ffs(peers) - 1) {
        atomicAdd(&out[key], sum);
        if (TRACE) {
            trace->atomic[lane].written = 1;
            trace->atomic[lane].key = key;
            trace->atomic[lane].total = sum;
        }
    }
    // END SOLUTION
}

template <typename T> static int launch(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.3): zero the bins (lab1_zero_bins<T>), then add_ballot<T, false> with one thread per element and a null trace
    if (int err = lab1_zero_bins<T>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    add_ballot<T, false><<<kit_div_up(io->n, NT), NT, 0, stream>>>(io->keys, io->values, io->n,
                                                                   lab1_bins_of(io, (T *)0), nullptr);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)io;
    // STUB: (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab1_warp_ballot_histogram(const lab1_io *io, cudaStream_t stream)
{
    return launch<int>(io, stream);
}

extern "C" int lab1_warp_ballot_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    return launch<double>(io, stream);
}

/* --trace: the same kernel, compiled with the trace hooks on, on one warp. */
extern "C" int lab1_warp_ballot_trace(const lab1_io *io, lab1_trace *d_trace, cudaStream_t stream)
{
    if (io->n > LAB1_WARP)
        return KIT_CHECK(cudaErrorInvalidValue);
    // BEGIN SOLUTION (Step 1.3): zero the sums, then add_ballot<double, true> with one warp of 32 threads and the trace buffer; n == 0: zero the sums and launch nothing
    if (int err = lab1_zero_bins<double>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    add_ballot<double, true><<<1, LAB1_WARP, 0, stream>>>(io->keys, io->values, io->n, io->sums, d_trace);
    return KIT_LAUNCH_CHECK();
    // STUB: (void)d_trace;
    // STUB: (void)stream;
    // STUB: return KIT_TODO;
    // END SOLUTION
}
