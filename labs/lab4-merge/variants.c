/* lab4's variant table: one row per step, in the order the sheet teaches them.
 * The operation says which of the driver's --op groups a variant belongs to. */
#include "lab4.h"

const lab4_variant lab4_variants[] = {
    { { "naive-merge", "4.0", "one thread per item, binary search in the other array (baseline, O(n log n))" }, LAB4_MERGE, lab4_naive_merge },
    { { "merge-path", "4.1", "Merge Path partitions, then VT items merged serially per thread (O(n))" }, LAB4_MERGE, lab4_merge_path },
    { { "sorted-search", "4.2", "sorted needles in a sorted haystack: the merge keeping only the cursors" }, LAB4_SEARCH, lab4_sorted_search },
    { { "load-balancing-search", "4.3", "pair every output with its object: a sorted search of 0, 1, 2, ... in the scan" }, LAB4_LBS, lab4_load_balancing_search },
    { { "join", "4.4", "sort-merge joins: both searches, the counts and their scan in one pass, then a load-balancing search" }, LAB4_JOIN, lab4_join },
    { { "join-fused", "4.5", "the join in one pass: each search tile expands its own rows after its look-back" }, LAB4_JOIN, lab4_join_fused },
};
const int lab4_variant_count = sizeof lab4_variants / sizeof lab4_variants[0];
