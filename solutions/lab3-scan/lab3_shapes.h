/* lab3_shapes.h: every tile shape and tuning choice of lab 3, in one place: to
 * retune a step, change it here and rebuild. Each variant file names its own tile
 * as enum { NT, VT, NV } (threads, values per thread, values per tile) from these;
 * the GPU suite runs every tile size +-1 (and the sizes that need a second and
 * third level of the multi-pass scans) from the same constants, so retuning a tile
 * moves its tests. What depends on the GPU's architecture is chosen in one
 * function, lab3_arch_shape_of. A -D override exists only where a script or a
 * question of the sheet rebuilds with another value (tools/maint/
 * gpu-extra-lab23.sh: Step 3.5's tile and the back-off; questions 9-10: Step
 * 3.8's ring). C, so that the CPU and GPU suites read the same numbers. */
#ifndef LAB3_SHAPES_H
#define LAB3_SHAPES_H

#include "kit_hd.h"

/* ---- tiles ------------------------------------------------------------------ */

#define LAB3_HS_NT 256      /* Step 3.0: one value per thread */
#define LAB3_WARP_NT 1024   /* Step 3.1: one value per thread */
#define LAB3_BLOCKED_NT 256 /* Steps 3.2-3.4: NT x VT values per tile, VT odd */
#define LAB3_BLOCKED_VT 9
#define LAB3_BLOCKED_NV (LAB3_BLOCKED_NT * LAB3_BLOCKED_VT)

/* Tile of the tuned single-pass scan (Step 3.5): NT threads x VT values, VT odd. */
#ifndef LAB3_TUNED_NT
#define LAB3_TUNED_NT 256
#define LAB3_TUNED_VT_I32 27
#define LAB3_TUNED_VT_I64 13
#endif
#define LAB3_TUNED_NV_I32 (LAB3_TUNED_NT * LAB3_TUNED_VT_I32)
#define LAB3_TUNED_NV_I64 (LAB3_TUNED_NT * LAB3_TUNED_VT_I64)

/* Tile of select-if (Step 3.6): smaller than Step 3.5's, because each thread keeps
 * its values in registers (it needs them after the look-back to gather them). */
#define LAB3_SELECT_NT 256
#define LAB3_SELECT_VT_I32 19
#define LAB3_SELECT_VT_I64 11
#define LAB3_SELECT_NV_I32 (LAB3_SELECT_NT * LAB3_SELECT_VT_I32)
#define LAB3_SELECT_NV_I64 (LAB3_SELECT_NT * LAB3_SELECT_VT_I64)

/* Tile of the TMA pipeline (Step 3.7): NT consumer threads x VECS 16-byte vectors
 * each (the block has 3 more warps, which load, sum and look back), so VT = 4 VECS
 * int32 or 2 VECS int64 values per thread and the same bytes for both types
 * (NT x VECS x 16 = 20 KB: a block finishes about one tile per look-back, so a
 * bigger tile moves more bytes per look-back; v7_pipeline.cu). VECS odd: the
 * 8 lanes one 16-byte shared-memory access serves at once then hit 8 different
 * groups of banks. The stages and the blocks per SM are below (the tests do not
 * need them). */
#define LAB3_TMA_NT 256
#define LAB3_TMA_VECS 5
#define LAB3_TMA_VT_I32 (4 * LAB3_TMA_VECS)
#define LAB3_TMA_VT_I64 (2 * LAB3_TMA_VECS)
#define LAB3_TMA_NV_I32 (LAB3_TMA_NT * LAB3_TMA_VT_I32)
#define LAB3_TMA_NV_I64 (LAB3_TMA_NT * LAB3_TMA_VT_I64)

/* Tile of the pipelined compaction (Step 3.8): Step 3.7's NT workers x
 * LAB3_SELECT_PIPE_VECS 16-byte vectors (20 KB; odd). A compaction does more work
 * per tile than the scan, so its tile carries more bytes per look-back. Its ring
 * has LAB3_SELECT_PIPE_STAGES_I32 stages for int32 and _I64 for int64 (below). */
#ifndef LAB3_SELECT_PIPE_VECS
#define LAB3_SELECT_PIPE_VECS 5
#endif
#define LAB3_SELECT_PIPE_NV_I32 (LAB3_TMA_NT * 4 * LAB3_SELECT_PIPE_VECS)
#define LAB3_SELECT_PIPE_NV_I64 (LAB3_TMA_NT * 2 * LAB3_SELECT_PIPE_VECS)

/* The smallest tile of a pipeline (Steps 3.7-3.8: int64): the workspace spaces
 * the statuses for tiles of this many values (lab3_workspace_status_bytes). */
#define LAB3_PIPE_MIN_NV (LAB3_TMA_NV_I64 < LAB3_SELECT_PIPE_NV_I64 ? LAB3_TMA_NV_I64 : LAB3_SELECT_PIPE_NV_I64)

/* The smallest tile any variant uses; workspace sizes are computed with it, so
 * they are large enough for every variant. */
#define LAB3_MIN_TILE 256

/* ---- the pipelines' statuses, the look-back --------------------------------- */

/* Bytes from one status to the next in a pipeline (Steps 3.7-3.8): two statuses
 * in a 128-byte line, where packed entries put 16 (32-bit values) or 8 (64-bit).
 * Every SM publishes two statuses per tile and reads a window of 32 per tile, all
 * near the front of the array, and it is these reads, not the waits, that slow
 * the ring: a look-back that reads one window and waits for nothing costs as
 * much. Spread out, a window touches more lines (16 instead of 2) and the
 * look-back gets a little slower, but the bulk copies land sooner and the scan
 * gets faster at large n; one status per line (128) lost at 2^24 (measurements:
 * lectures/notebooks/03-scan.md). The workspace's status block has room for both
 * layouts (lab3_workspace_status_bytes, lab3.h). */
#define LAB3_PIPE_STATUS_SPACING 64

/* A poll that found X backs off before reading again, for LAB3_BACKOFF_NS
 * nanoseconds: the warp leaves L2 and the issue slots to the tiles that are
 * loading and publishing (-DLAB3_BACKOFF_NS=0 turns the back-off off, for
 * measuring it). A fixed delay, not a growing one: a growing delay needs a counter
 * per poll loop, and the register it costs lowers the number of resident blocks of
 * select-if. */
#ifndef LAB3_BACKOFF_NS
#define LAB3_BACKOFF_NS 64
#endif

/* How far ahead of its ticket the pipelines' loader asks L2 for a tile, in
 * quarters of a round of tickets (one ticket per block: gridDim.x); 0: no
 * prefetch (prefetch_ahead, lab3_pipeline.cuh). */
#define LAB3_PREFETCH_QUARTERS 2

/* ---- what the architecture decides -------------------------------------------- */
#ifdef __CUDACC__
typedef struct {
    /* Shared memory an SM gives its blocks, in KB: it decides how many tiles a
     * pipeline's ring holds and how many blocks of a ring fit
     * (pipeline_shape::BLOCKS_PER_SM, and so the registers each thread may have). */
    int sm_shared_kb;
    /* Step 3.5: blocks per SM the register allocation must allow (__launch_bounds__):
     * 7 where an SM holds 2048 threads (sm_80, sm_90, sm_100), so at most 32
     * registers per thread; as many as the threads allow elsewhere (1024 threads per
     * SM on sm_75, 1536 on the other recent parts). This bounds registers only:
     * shared memory also limits the blocks. A block uses ~28 KB (the ~27 KB tile +
     * 1 KB the system reserves per block), so with the largest carveout the 228 KB of
     * sm_90 and sm_100 hold 7, but the 164 KB of sm_80 (A100) only 5 and the ~100 KB
     * of sm_86/sm_89/sm_120 only 3. */
    int tuned_min_blocks;
    /* Step 3.7: tiles in the ring of each block: 5 where an SM has 228 KB (sm_90,
     * sm_100: two blocks of 100 KB), 3 elsewhere (60 KB, which sm_75 allows a
     * block). */
    int pipe_stages;
    /* Step 3.8, int64: 4 stages (about 82 KB, 2 blocks per SM) where a block may
     * have that much shared memory (sm_80 and later), else 3 (sm_75 allows 64 KB).
     * int32 keeps 3 of 20 KB everywhere (61.7 KB with what lies beside them, 3
     * blocks per SM on sm_90): a fourth stage paid for int64 and cost int32 (which
     * loses its third block; lectures/notebooks/03-scan.md). */
    int select_pipe_stages_i64;
} lab3_arch_shape;

/* The choices for architecture `arch` (KIT_ARCH: 750, 800, 900, ...; 0: sm_75's,
 * the smallest the kit supports). */
static constexpr lab3_arch_shape lab3_arch_shape_of(int arch)
{
    return arch == 900 || (arch >= 1000 && arch < 1100) ? lab3_arch_shape{ 228, 7, 5, 4 }
           : arch == 800                                ? lab3_arch_shape{ 164, 7, 3, 4 }
           : arch >= 800                                ? lab3_arch_shape{ 100, 6, 3, 4 }
                                                        : lab3_arch_shape{ 64, 4, 3, 3 };
}

/* This build's (KIT_ARCH is the same in the host pass, so the launchers' sizeof of
 * a ring and the kernels' ring agree). */
static constexpr lab3_arch_shape LAB3_ARCH = lab3_arch_shape_of(KIT_ARCH);

#ifndef LAB3_SELECT_PIPE_STAGES_I32
#define LAB3_SELECT_PIPE_STAGES_I32 3
#endif
#ifndef LAB3_SELECT_PIPE_STAGES_I64
#define LAB3_SELECT_PIPE_STAGES_I64 (LAB3_ARCH.select_pipe_stages_i64)
#endif
#endif /* __CUDACC__ */

#endif
