/* lab3's variant table: one row per step, in the order the sheet teaches them.
 * The library row (`cub`) and the compaction rows are added by the driver. */
#include "lab3.h"

const lab3_variant lab3_variants[] = {
    { { "block-hillis-steele", "3.0", "Hillis-Steele scan of 256-item tiles in shared memory, tile totals scanned recursively (worked example)" },
      lab3_block_hillis_steele, 0 },
    { { "warp-shuffle", "3.1", "scan warps with __shfl_up_sync, then the warp totals with one warp: 2 barriers per tile" },
      lab3_warp_shuffle, 0 },
    { { "reduce-then-scan", "3.2", "reduce tiles, scan the totals, rescan tiles with their offset: VT values per thread, ~3n traffic" },
      lab3_reduce_then_scan, 0 },
    { { "chained", "3.3", "one pass: each tile waits for its predecessor's inclusive prefix (a serial chain of flags)" },
      lab3_chained, 0 },
    { { "decoupled-lookback", "3.4", "one pass: publish the tile aggregate first, look back over predecessors until an inclusive prefix" },
      lab3_decoupled_lookback, 1 },
    { { "lookback-tuned", "3.5", "look back over 32 predecessors per step with one warp; bigger odd-VT tiles, 16-byte loads" },
      lab3_lookback_tuned, 1 },
    { { "tma-pipeline", "3.7", "persistent blocks, a ring of tiles filled by bulk copies (TMA on sm_90); one warp loads, one sums (A on landing), one looks back, 8 scan" },
      lab3_pipeline_scan, 1 },
};
const int lab3_variant_count = sizeof lab3_variants / sizeof lab3_variants[0];
