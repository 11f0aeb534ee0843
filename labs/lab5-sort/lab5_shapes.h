/* lab5_shapes.h: every tile shape and tuning choice of lab 5, in one place: to
 * retune a sort, change it here and rebuild. NT threads x VT keys per thread = NV
 * keys per tile, one shape per variant (the variant's file turns them into its
 * enum { NT, VT, NV }); the tests run sizes of one tile +- 1 key for each, from
 * the same constants. A -D override exists only where plots/bench-lab5.sh
 * --build-tune rebuilds with other values (onesweep's tiles and look-back
 * windows). C, so that the CPU and GPU suites read the same numbers. */
#ifndef LAB5_SHAPES_H
#define LAB5_SHAPES_H

/* ---- tiles -------------------------------------------------------------------------- */

#define LAB5_SPLIT_NT 256 /* Step 5.0: one key per thread */
#define LAB5_DIGIT4_NT 256
#define LAB5_DIGIT4_VT 9 /* odd: the blocked reads out of shared memory hit 32 banks */
#define LAB5_DIGIT8_NT 256
#define LAB5_DIGIT8_VT 16
#define LAB5_ONESWEEP_NT 384
#ifndef LAB5_ONESWEEP_VT
#define LAB5_ONESWEEP_VT 24 /* keys only */
#endif
#ifndef LAB5_ONESWEEP_VT_PAIRS
#define LAB5_ONESWEEP_VT_PAIRS 22 /* keys and values, two tiles per SM */
#endif
/* Onesweep with values, one tile per SM (lab5_onesweep_tiles_per_sm): 640 x 24. */
#ifndef LAB5_ONESWEEP_SOLO_NT
#define LAB5_ONESWEEP_SOLO_NT 640
#endif
#ifndef LAB5_ONESWEEP_SOLO_VT_PAIRS
#define LAB5_ONESWEEP_SOLO_VT_PAIRS 24
#endif
#define LAB5_MERGE_NT 256
#define LAB5_MERGE_VT 11           /* odd, as for digit-4bit */
#define LAB5_MERGE_PARTITION_NT 128 /* the merge passes' Merge Path searches */
#define LAB5_DIGIT4_NV (LAB5_DIGIT4_NT * LAB5_DIGIT4_VT)
#define LAB5_DIGIT8_NV (LAB5_DIGIT8_NT * LAB5_DIGIT8_VT)
#define LAB5_ONESWEEP_NV (LAB5_ONESWEEP_NT * LAB5_ONESWEEP_VT)
#define LAB5_ONESWEEP_NV_PAIRS (LAB5_ONESWEEP_NT * LAB5_ONESWEEP_VT_PAIRS)
#define LAB5_ONESWEEP_SOLO_NV_PAIRS (LAB5_ONESWEEP_SOLO_NT * LAB5_ONESWEEP_SOLO_VT_PAIRS)
#define LAB5_MERGE_NV (LAB5_MERGE_NT * LAB5_MERGE_VT)
/* The smallest onesweep tile: the status array is sized with it. */
#define LAB5_ONESWEEP_MIN_NV (LAB5_ONESWEEP_NV < LAB5_ONESWEEP_NV_PAIRS ? LAB5_ONESWEEP_NV : LAB5_ONESWEEP_NV_PAIRS)

/* ---- onesweep ------------------------------------------------------------------------ */

/* 16-byte loads in flight per thread in onesweep's histogram kernel. */
#define LAB5_ONESWEEP_HIST_LOADS 4

/* How many predecessors a digit thread reads at once in onesweep's look-back.
 * The words of a window are loaded together, so passing k tiles costs about
 * k / W round trips to L2 instead of k: keys use W = 4. With values the same
 * window made the sort slower (the passes got less out of the DRAM for the same
 * bytes), so pairs keep W = 1. The measurements: the notebook, sections
 * 3.6-3.7. */
#ifndef LAB5_LOOKBACK_WINDOW
#define LAB5_LOOKBACK_WINDOW 4
#endif
#ifndef LAB5_LOOKBACK_WINDOW_PAIRS
#define LAB5_LOOKBACK_WINDOW_PAIRS 1
#endif

/* Onesweep's tiles per SM with values, chosen per GPU (lab5_onesweep_tiles_per_sm):
 * 1 where its DRAM is slow for its SMs (under LAB5_SOLO_GBS_PER_SM of peak
 * bandwidth per SM) and one 640 x 24 tile fits a block's shared memory, 2
 * otherwise. Fewer tiles at a time make fewer streams of scattered writes, each
 * in longer runs per digit. The threshold lies between a GPU that gained from
 * one tile per SM and one that lost (the notebook, section 3.10): on another
 * GPU, time both shapes (--tiles-per-sm 1 and 2) before trusting it. */
#define LAB5_SOLO_GBS_PER_SM 30.0

#endif
