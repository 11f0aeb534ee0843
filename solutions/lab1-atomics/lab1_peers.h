/* lab1_peers.h: the bit logic of warp-aggregated atomics, shared by the kernels
 * and the CPU tests (valid C when not compiled by nvcc).
 *
 * A "peer mask" has bit L set for every lane L of the warp that holds the same key.
 * The two stages of the algorithm (Westphal, GTC S5151):
 *   Stage 1 finds each lane's peer mask: take the lowest lane not yet assigned, let
 *     every unassigned lane vote on "my key equals its key", and hand the vote to
 *     the lanes that said yes. One iteration per distinct key in the warp.
 *   Stage 2 sums the values of each peer group with a binary tree walked over the
 *     peer mask: in every round, a lane at an even position among the live peers adds
 *     the value of the next live peer above it; lanes at odd positions are then done.
 *     After ceil(log2(group size)) rounds the lowest lane of the group (its leader)
 *     holds the group's sum and does the one atomic for the group.
 * This file also holds a host model of both stages over 32 host "lanes": plain loops
 * that play the warp in lockstep, for the unit tests and for `--trace` to compare. */
#ifndef LAB1_PEERS_H
#define LAB1_PEERS_H

#include <stdint.h>

#include "kit_hd.h"

#define LAB1_WARP 32
/* Stage 2 on a full warp of one key needs log2(32) = 5 rounds. */
#define LAB1_MAX_ROUNDS 5

/* Lowest set bit as a lane number, or -1 for an empty mask (like __ffs(m) - 1). */
KIT_HD int lab1_lowest_lane(uint32_t mask)
{
    for (int lane = 0; lane < LAB1_WARP; lane++)
        if (mask >> lane & 1u)
            return lane;
    return -1;
}

KIT_HD int lab1_count_lanes(uint32_t mask)
{
    int c = 0;
    for (; mask; mask &= mask - 1)
        c++;
    return c;
}

/* Lanes strictly below `lane` (0 for lane 0: no shift by 32). */
KIT_HD uint32_t lab1_lanes_below(int lane) { return (1u << lane) - 1u; }

/* Lanes strictly above `lane` (0 for lane 31: 2u << 31 wraps to 0 in unsigned math). */
KIT_HD uint32_t lab1_lanes_above(int lane) { return ~((2u << lane) - 1u); }

/* Stage 2 starts from these: my position among my peers (0 for the leader), and
 * the peers above me (the only ones I may ever add). */
KIT_HD int lab1_peer_position(uint32_t peers, int lane)
{
    return lab1_count_lanes(peers & lab1_lanes_below(lane));
}
KIT_HD uint32_t lab1_peers_above(uint32_t peers, int lane) { return peers & lab1_lanes_above(lane); }

/* ---- host model ------------------------------------------------------------ */

/* One Stage 1 iteration: who led it and what the vote returned. */
typedef struct {
    int leader;          /* lowest unassigned lane */
    int key;             /* its key */
    uint32_t unassigned; /* lanes still looking for their peers before the vote */
    uint32_t ballot;     /* unassigned lanes whose key equals `key` */
} lab1_stage1_step;

/* Stage 1 over 32 lanes: lanes in `active` hold keys[lane]. Writes each lane's peer
 * mask (0 for inactive lanes) and, if steps is not NULL, one record per iteration.
 * Returns the number of iterations (= distinct keys among the active lanes). */
KIT_HD int lab1_model_find_peers(const int keys[LAB1_WARP], uint32_t active,
                                 uint32_t peers[LAB1_WARP], lab1_stage1_step *steps)
{
    for (int lane = 0; lane < LAB1_WARP; lane++)
        peers[lane] = 0;
    uint32_t unassigned = active;
    int iter = 0;
    while (unassigned) {
        int leader = lab1_lowest_lane(unassigned);
        uint32_t ballot = 0;
        for (int lane = 0; lane < LAB1_WARP; lane++)
            if ((unassigned >> lane & 1u) && keys[lane] == keys[leader])
                ballot |= 1u << lane;
        if (steps) {
            steps[iter].leader = leader;
            steps[iter].key = keys[leader];
            steps[iter].unassigned = unassigned;
            steps[iter].ballot = ballot;
        }
        for (int lane = 0; lane < LAB1_WARP; lane++)
            if (ballot >> lane & 1u)
                peers[lane] = ballot;
        unassigned &= ~ballot;
        iter++;
    }
    return iter;
}

/* One addition of Stage 2: in `round`, `lane` added the value of lane `src`. */
typedef struct {
    int round, lane, src;
    double added, total;
} lab1_stage2_step;

/* Stage 2 over 32 lanes in lockstep. x[lane] holds each active lane's value on
 * entry; on return the leader of each group holds the group's sum (other lanes
 * hold partial sums). Records every addition in steps (room for
 * LAB1_MAX_ROUNDS * 32) if not NULL and its count in *step_count. Returns the
 * number of rounds. */
KIT_HD int lab1_model_reduce_peers(const uint32_t peers[LAB1_WARP], uint32_t active,
                                   double x[LAB1_WARP], lab1_stage2_step *steps, int *step_count)
{
    int pos[LAB1_WARP], live[LAB1_WARP];
    uint32_t above[LAB1_WARP];
    double before[LAB1_WARP];
    int count = 0, round = 0;
    for (int lane = 0; lane < LAB1_WARP; lane++) {
        int on = (int)(active >> lane & 1u);
        pos[lane] = on ? lab1_peer_position(peers[lane], lane) : 0;
        above[lane] = on ? lab1_peers_above(peers[lane], lane) : 0;
        live[lane] = on;
    }
    for (;;) {
        uint32_t any = 0;
        for (int lane = 0; lane < LAB1_WARP; lane++)
            any |= above[lane];
        if (!any)
            break;
        for (int lane = 0; lane < LAB1_WARP; lane++)
            before[lane] = x[lane]; /* a shuffle reads the values from before the round */
        uint32_t still_live = 0;
        for (int lane = 0; lane < LAB1_WARP; lane++) {
            if (!live[lane])
                continue;
            if (pos[lane] % 2 == 0 && above[lane]) {
                int src = lab1_lowest_lane(above[lane]);
                x[lane] += before[src];
                if (steps) {
                    lab1_stage2_step s = { round, lane, src, before[src], x[lane] };
                    steps[count] = s;
                }
                count++;
            }
            if (pos[lane] % 2 == 1)
                live[lane] = 0; /* my value was just taken by the peer below me */
            else
                still_live |= 1u << lane;
        }
        for (int lane = 0; lane < LAB1_WARP; lane++) {
            above[lane] = live[lane] ? above[lane] & still_live : 0;
            pos[lane] /= 2;
        }
        round++;
    }
    if (step_count)
        *step_count = count;
    return round;
}

#endif
