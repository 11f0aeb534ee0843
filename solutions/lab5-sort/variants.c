/* lab5's variant table: one row per step, in the order the sheet teaches them.
 * The library row (`cub`) is added by the driver. */
#include "lab5.h"

const lab5_variant lab5_variants[] = {
    { { "split-1bit", "5.0", "32 stable splits by one bit: flags, CUB's exclusive scan, scatter (worked example)" },
      lab5_split_1bit },
    { { "digit-4bit", "5.1", "8 passes of 4-bit digits: count per tile, scan the digit x tile counts, rank in the tile "
                             "with packed per-thread counters, scatter: ~3n traffic per pass" },
      lab5_digit_4bit },
    { { "digit-8bit-warp-rank", "5.2", "4 passes of 8-bit digits; ranks inside the tile from peers found by 8 ballots "
                                       "(one per digit bit) and per-warp digit counters in shared memory" },
      lab5_digit_8bit_warp_rank },
    { { "onesweep", "5.3", "all four digit histograms in one read up front, then one kernel per pass with decoupled "
                           "look-back over 256 digit counters per tile: ~2n traffic per pass; passes skipped when "
                           "every key shares the digit" },
      lab5_onesweep },
    { { "merge-sort", "5.4", "tiles sorted in shared memory, then log2(n/tile) Merge Path passes: a comparison sort "
                             "for contrast" },
      lab5_merge_sort },
};
const int lab5_variant_count = sizeof lab5_variants / sizeof lab5_variants[0];
