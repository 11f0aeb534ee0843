/* lab1_shapes.h: every launch shape and tuning choice of lab 1, in one place: to
 * retune a step, change it here and rebuild. The #ifndef guards let
 * plots/bench-lab1.sh rebuild smem-warp (Step 1.5) with one idea taken out at a
 * time by a -D switch (lecture 1, Step 1.5's table; lab 1's notebook names the
 * switch of each row). C, so that the CPU and GPU suites read the same numbers. */
#ifndef LAB1_SHAPES_H
#define LAB1_SHAPES_H

#include "lab1_peers.h" /* LAB1_WARP */

/* Threads per block of Steps 1.0-1.4 (a multiple of 32: whole warps). */
#define LAB1_NT 256

/* smem-warp's histogram tile (v5): LAB1_SW_NT threads, each with LAB1_SW_LOADS
 * 16-byte int4 loads of 4 keys in flight, so VT = 4 * LOADS keys per lane and
 * 32 * VT per warp per tile (1024 with 8 loads). The tests cross these sizes. */
#define LAB1_SW_NT 256
#ifndef LAB1_SW_LOADS
#define LAB1_SW_LOADS 8
#endif
#define LAB1_SW_VT (4 * LAB1_SW_LOADS)
#define LAB1_SW_WARP_TILE (LAB1_WARP * LAB1_SW_VT)

/* smem-warp's other choices (v5_smem_warp.cu's header says what each idea is; lab 1's
 * notebook, how each value was chosen). */
#ifndef SW_HIST_BLOCKS_PER_SM
#define SW_HIST_BLOCKS_PER_SM 4 /* the histogram's cap on blocks per SM (idea 3); 0: none */
#endif
#ifndef SW_MAX_COPIES
#define SW_MAX_COPIES (LAB1_SW_NT / LAB1_WARP) /* one per warp; 1: one per block, as in smem-private */
#endif
#ifndef SW_MATCH_MIN
#define SW_MATCH_MIN 4 /* aggregate when this many lanes share the first lane's key (33: never) */
#endif
#ifndef SW_READ_ONCE_L2S
#define SW_READ_ONCE_L2S 8 /* the read-once hint while keys <= this many L2s (0: never) */
#endif

#endif
