/* lab1's variant table: one row per step, in the order the sheet teaches them.
 * A NULL launcher means the variant has no row for that operation; a budget hook
 * marks the variants that privatize their bins in shared memory. */
#include "lab1.h"

const lab1_variant lab1_variants[] = {
    { { "global-atomic", "1.0", "one atomicAdd per element into global bins (worked example)" },
      lab1_global_atomic_histogram, lab1_global_atomic_scatter_add, NULL },
    { { "cas-loop", "1.1", "double add from an atomicCAS loop: colliding lanes go round again" },
      NULL, lab1_cas_loop_scatter_add, NULL },
    { { "smem-private", "1.2", "per-block bins in shared memory, merged once (global if they do not fit)" },
      lab1_smem_private_histogram, lab1_smem_private_scatter_add, lab1_smem_private_budget },
    { { "warp-ballot", "1.3", "peers by __ballot_sync/__shfl_sync/__ffs, shuffle sub-tree, one atomic per key" },
      lab1_warp_ballot_histogram, lab1_warp_ballot_scatter_add, NULL },
    { { "warp-match", "1.4", "peers by __match_any_sync in one instruction, __reduce_add_sync for counts" },
      lab1_warp_match_histogram, lab1_warp_match_scatter_add, NULL },
    { { "smem-warp", "1.5",
        "five ideas: bins per warp, int4 loads in flight, occupancy grid, last-block merge, probed aggregation" },
      lab1_smem_warp_histogram, lab1_smem_warp_scatter_add, lab1_smem_warp_budget },
};
const int lab1_variant_count = sizeof lab1_variants / sizeof lab1_variants[0];
