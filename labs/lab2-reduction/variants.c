/* lab2's variant table: one row per step, in the order the sheet teaches them.
 * A type a variant does not support has no row in the table or CSV. */
#include "lab2.h"

#define I64_ONLY LAB2_TYPE_BIT(LAB2_I64)

const lab2_variant lab2_variants[] = {
    { { "interleaved", "2.0", "shared-memory tree, tid % (2*stride) picks the workers: divergent warps (i64 only)" }, I64_ONLY, lab2_interleaved, NULL },
    { { "strided-index", "2.1", "the first threads do the work (index 2*stride*tid): no divergence, bank conflicts (i64 only)" }, I64_ONLY, lab2_strided_index, NULL },
    { { "sequential", "2.2", "sequential addressing (stride halves): conflict-free (i64 only)" }, I64_ONLY, lab2_sequential, NULL },
    { { "first-add", "2.3", "each thread adds two values while loading: no idle threads, half the blocks (i64 only)" }, I64_ONLY, lab2_first_add, NULL },
    { { "warp-shuffle", "2.4", "__shfl_down_sync inside warps: two barriers per block (i64, f32, max)" }, LAB2_ALL_TYPES, lab2_warp_shuffle, NULL },
    { { "register-blocked", "2.5", "int4 loads, NT x VT tiles, grid-stride loop over an occupancy-sized grid (i64, f32, max)" }, LAB2_ALL_TYPES, lab2_register_blocked, lab2_register_blocked_grid },
    { { "single-pass", "2.6", "one launch: the last block to draw a ticket reduces the block partials (i64, f32, max)" }, LAB2_ALL_TYPES, lab2_single_pass, lab2_single_pass_grid },
};
const int lab2_variant_count = sizeof lab2_variants / sizeof lab2_variants[0];
