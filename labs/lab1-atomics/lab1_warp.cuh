/* lab1_warp.cuh: the two stages of warp-aggregated atomics as device helpers, used
 * by warp-ballot (v3), warp-match (v4) and smem-warp (v5). The bit logic they walk
 * is in lab1_peers.h, which the CPU tests also check.
 *
 * Masks: every helper takes `active`, the lanes of the warp that hold an element
 * and call the helper together (all of them must call it). In a partial last warp
 * that is fewer than 32 lanes; a full mask there would wait for lanes that never
 * come. TRACE = true only in the one-warp trace kernel of `--trace`: the timed
 * kernels are instantiated with TRACE = false and carry no trace code at all. */
#ifndef LAB1_WARP_CUH
#define LAB1_WARP_CUH
#include "lab1.h"

__device__ __forceinline__ int lab1_lane_id() { return (int)(threadIdx.x & (LAB1_WARP - 1)); }

/* Trace hooks: each call compiles to nothing unless TRACE. */
template <bool TRACE>
__device__ __forceinline__ void lab1_trace_stage1(lab1_trace *t, int iter, int leader, int key,
                                                  unsigned unassigned, unsigned ballot)
{
    if (TRACE && iter < LAB1_WARP && lab1_lane_id() == leader) {
        t->stage1[iter].leader = leader;
        t->stage1[iter].key = key;
        t->stage1[iter].unassigned = unassigned;
        t->stage1[iter].ballot = ballot;
        atomicMax(&t->iterations, iter + 1);
    }
}

template <bool TRACE>
__device__ __forceinline__ void lab1_trace_add_step(lab1_trace *t, int round, int src, double added,
                                                    double total)
{
    if (TRACE && round < LAB1_MAX_ROUNDS) {
        lab1_trace_add *a = &t->stage2[round][lab1_lane_id()];
        a->written = 1;
        a->src = src;
        a->added = added;
        a->total = total;
    }
}

/* Stage 1 with votes: returns the mask of the lanes in `active` whose key equals
 * mine (my own bit included). One loop iteration per distinct key: the lowest lane
 * still unassigned broadcasts its key, the unassigned lanes vote on it, and the
 * lanes that voted yes leave with the vote as their peer mask. */
template <bool TRACE>
__device__ __forceinline__ unsigned lab1_peers_by_ballot(unsigned active, int key, lab1_trace *trace)
{
    // TODO(Step 1.3): Stage 1: loop { leader = lowest unassigned lane (__ffs); its key (__shfl_sync); vote (__ballot_sync over the unassigned lanes); drop the voters; leave if I voted }; call lab1_trace_stage1<TRACE> once per iteration (about 11 lines)
    (void)active;
    (void)key;
    (void)trace;
    return 0u;
}

/* Stage 2: the sum of x over my peer group, complete in the group's leader (its
 * lowest lane; the other lanes return partial sums). All lanes in `active` call it
 * with their own peer masks, which partition `active`. Each lane keeps three
 * things: its position among the live peers (pos), the live peers above it (above),
 * and whether it is still live. Round r: a live lane at an even position adds the
 * value of the lowest live peer above it; a lane at an odd position has just been
 * read and is no longer live; a vote removes the dead lanes from every `above`;
 * positions halve. Every lane in `active` takes part in every shuffle and vote,
 * live or not: the vote is a statement of its own, `still = __ballot_sync(active,
 * live)`, never an operand of `live ? ... : 0`, which would run it in the live
 * lanes only while its mask names them all (a hang). Two traps: a lane that is no
 * longer live must never add again (after the halving its position can be even),
 * so `live` is kept apart from pos; and a lane with no peer above has no lane to
 * read (__ffs(0) - 1 is -1, and a shuffle from lane -1 reads lane 31, which a
 * partial warp may not have in `active`): it reads its own lane instead and adds
 * nothing. T is int or double. */
template <typename T, bool TRACE>
__device__ __forceinline__ T lab1_reduce_peers(unsigned active, unsigned peers, T x, lab1_trace *trace)
{
    // TODO(Step 1.3): Stage 2: pos = lab1_peer_position, above = lab1_peers_above, live = true; while (__any_sync(active, above != 0)) { src = above ? lowest lane of above : my own lane (never -1); other = __shfl_sync(active, x, src); a live lane at an even pos with a peer above adds other; an odd pos is no longer live; then, in every lane, still = __ballot_sync(active, live) as its own statement (never inside the ?: below: only the live lanes would vote); above = live ? above & still : 0; pos >>= 1 }; call lab1_trace_add_step<TRACE> for each addition (about 18 lines)
    (void)active;
    (void)peers;
    (void)trace;
    return x;
}

#endif
