/* lab4_shapes.h: every tile shape and tuning choice of lab 4, in one place: to
 * retune a variant, change it here and rebuild. Tiles are NT threads x VT items
 * per thread, NV = NT * VT items per tile (VT odd: see v1_merge_path.cu); each
 * variant's file turns its shape into enum { NT, VT, NV }, and the tests derive
 * their sizes from the same constants (one tile, one item either side, several
 * tiles): retune a shape here and its tests move with it. No -D overrides: no
 * script rebuilds lab 4 with other values. C, so that the CPU and GPU suites
 * read the same numbers. */
#ifndef LAB4_SHAPES_H
#define LAB4_SHAPES_H

#include "kit_hd.h"

/* ---- tiles ---------------------------------------------------------------------------- */

#define LAB4_NAIVE_NT 256 /* Step 4.0: one key per thread */
#define LAB4_MERGE_NT 128
#define LAB4_MERGE_VT 23
#define LAB4_SEARCH_NT 256 /* the joins' count tile too; 256 beat 128 there (lab 4 notebook, 3.3) */
#define LAB4_SEARCH_VT 11
#define LAB4_LBS_NT 128
#define LAB4_LBS_VT 7
#define LAB4_JOIN_NT 128 /* the join's expand; its search runs with the search tile */
#define LAB4_JOIN_VT 7
#define LAB4_MERGE_NV (LAB4_MERGE_NT * LAB4_MERGE_VT)
#define LAB4_SEARCH_NV (LAB4_SEARCH_NT * LAB4_SEARCH_VT)
#define LAB4_LBS_NV (LAB4_LBS_NT * LAB4_LBS_VT)
#define LAB4_JOIN_NV (LAB4_JOIN_NT * LAB4_JOIN_VT)

/* Partition arrays are sized for tiles of at least this many items: every
 * variant's NV = NT * VT must be >= LAB4_MIN_NV. */
#define LAB4_MIN_NV 64

/* ---- the partitions --------------------------------------------------------------------- */

/* Threads of a partition kernel (lab4_tile.cuh). */
#define LAB4_PARTITION_NT 128
/* The merge partition's shape (lab4_tile.cuh), by the number of tile
 * boundaries: below LAB4_PARTITION_PROBES / 4, each boundary is searched by
 * LANES lanes at once, the largest of 4, 8, 16, 32 with boundaries x LANES <=
 * LAB4_PARTITION_PROBES (probes in flight per round); from there to
 * LAB4_PARTITION_PROBES, one lane each; from LAB4_PARTITION_PROBES on, one lane
 * each in two levels (one boundary in LAB4_PARTITION_COARSE_EVERY searches its
 * whole diagonal, the others only between those). The bounds are where the
 * best shape changed in the sweeps, to within a few percent (lab 4 notebook,
 * sections 1.2 and 1.3; lecture 4, Step 4.1 says why the shapes differ). */
#define LAB4_PARTITION_PROBES 32768
#define LAB4_PARTITION_COARSE_EVERY 16

/* ---- the joins -------------------------------------------------------------------------- */

/* How far ahead a join tile asks L2 for keys, in quarters of the blocks resident
 * on the GPU (0: no prefetch; join_prefetch_keys, lab4_join.cuh). */
#define LAB4_PREFETCH_QUARTERS 4

/* The fused join (Step 4.5) is built for LAB4_FUSED_BLOCKS_PER_SM blocks an SM:
 * its count waits on barriers and on the look-back, and a fifth block's warps
 * issue meanwhile (v5_join_fused.cu has the two budgets this takes, registers
 * and shared memory). */
#define LAB4_FUSED_BLOCKS_PER_SM 5
/* A tile with more items (rows + A rows) than LAB4_FUSED_SHARE_CHUNKS chunks
 * shares them, LAB4_FUSED_CLAIM_CHUNKS chunks per claim (one atomicAdd each); a
 * block that has finished its own tile helps the LAB4_FUSED_HELP_RECENT tiles
 * shared last. */
#define LAB4_FUSED_SHARE_CHUNKS 8
#define LAB4_FUSED_CLAIM_CHUNKS 4
#define LAB4_FUSED_HELP_RECENT 16

#ifdef __CUDACC__
/* What the architecture decides (arch: KIT_ARCH, 750, 800, ...): the blocks the
 * fused join's __launch_bounds__ asks room for. 5 x 256 threads fit an SM of 2,048
 * (sm_80, sm_90, sm_100) or 1,536 (the other recent parts), not sm_75's 1,024,
 * which holds 4 (ptxas would ignore the bound there, with a warning). */
static constexpr int lab4_fused_min_blocks(int arch) { return arch == 750 ? 4 : LAB4_FUSED_BLOCKS_PER_SM; }
#endif

#endif
