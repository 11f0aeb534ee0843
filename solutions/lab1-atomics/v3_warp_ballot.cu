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
 * keys over many bins, where there was nothing to aggregate in the first place.
 * Expect: far faster than global-atomic and cas-loop when a warp holds few distinct
 * keys (kwarp:1..4, single); slower than global-atomic for uniform keys. */
#include "lab1.h"
#include "lab1_value.cuh"
#include "lab1_warp.cuh"

#define BALLOT_NT 256

__global__ void histogram_ballot(const int *__restrict__ keys, size_t n, int *counts)
{
    // BEGIN SOLUTION (Step 1.3): active = __ballot_sync(full mask, i < n) BEFORE any lane leaves; lanes with data find their peers (lab1_peers_by_ballot<false>) and the leader (lowest peer) adds __popc(peers)
    size_t i = (size_t)blockIdx.x * BALLOT_NT + threadIdx.x;
    unsigned active = __ballot_sync(LAB1_FULL_MASK, i < n); /* every lane of the warp is here */
    if (i >= n)
        return;
    int key = keys[i];
    unsigned peers = lab1_peers_by_ballot<false>(active, key, nullptr);
    if (lab1_lane_id() == __ffs(peers) - 1)
        atomicAdd(&counts[key], __popc(peers));
    // END SOLUTION
}

template <bool TRACE>
__global__ void scatter_add_ballot(const int *__restrict__ keys, const double *__restrict__ values,
                                   size_t n, double *sums, lab1_trace *trace)
{
    // BEGIN SOLUTION (Step 1.3): as the histogram, then sum the group's values (lab1_reduce_peers<double, TRACE>) and let the leader add the sum; with TRACE, the leader also fills trace->atomic[lane] and every lane trace->peers[lane]
    size_t i = (size_t)blockIdx.x * BALLOT_NT + threadIdx.x;
    unsigned active = __ballot_sync(LAB1_FULL_MASK, i < n);
    if (i >= n)
        return;
    int key = keys[i];
    unsigned peers = lab1_peers_by_ballot<TRACE>(active, key, trace);
    double sum = lab1_reduce_peers<double, TRACE>(active, peers, values[i], trace);
    int lane = lab1_lane_id();
    if (TRACE)
        trace->peers[lane] = peers;
    if (lane == __ffs(peers) - 1) {
        atomicAdd(&sums[key], sum);
        if (TRACE) {
            trace->atomic[lane].written = 1;
            trace->atomic[lane].key = key;
            trace->atomic[lane].total = sum;
        }
    }
    // END SOLUTION
}

extern "C" int lab1_warp_ballot_histogram(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.3): zero the counts, then one thread per key (BALLOT_NT is a multiple of 32: whole warps)
    if (int err = lab1_zero_bins<int>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    histogram_ballot<<<kit_div_up(io->n, BALLOT_NT), BALLOT_NT, 0, stream>>>(io->keys, io->n, io->counts);
    return KIT_LAUNCH_CHECK();
    // STUB: return KIT_TODO;
    // END SOLUTION
}

extern "C" int lab1_warp_ballot_scatter_add(const lab1_io *io, cudaStream_t stream)
{
    // BEGIN SOLUTION (Step 1.3): zero the sums, then scatter_add_ballot<false> with a null trace
    if (int err = lab1_zero_bins<double>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    scatter_add_ballot<false><<<kit_div_up(io->n, BALLOT_NT), BALLOT_NT, 0, stream>>>(
        io->keys, io->values, io->n, io->sums, nullptr);
    return KIT_LAUNCH_CHECK();
    // STUB: return KIT_TODO;
    // END SOLUTION
}

/* --trace: the same kernel, compiled with the trace hooks on, on one warp. */
extern "C" int lab1_warp_ballot_trace(const lab1_io *io, lab1_trace *d_trace, cudaStream_t stream)
{
    if (io->n > LAB1_WARP)
        return KIT_CHECK(cudaErrorInvalidValue);
    // BEGIN SOLUTION (Step 1.3): zero the sums, then scatter_add_ballot<true> with one warp of 32 threads and the trace buffer
    if (int err = lab1_zero_bins<double>(io, stream))
        return err;
    if (io->n == 0)
        return 0;
    scatter_add_ballot<true><<<1, LAB1_WARP, 0, stream>>>(io->keys, io->values, io->n, io->sums, d_trace);
    return KIT_LAUNCH_CHECK();
    // STUB: return KIT_TODO;
    // END SOLUTION
}
