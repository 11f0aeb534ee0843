/* lab6's variant table: the all-reduces in the order the sheet teaches them, NCCL's
 * (the library row), then the applications. The driver adds the rows they are
 * measured against: memcpy, the peer-to-peer copy, and each application on one GPU. */
#include "lab6.h"

const lab6_variant lab6_variants[] = {
    { { "host-staged", "6.0", "copy every GPU's array to the host, add there, copy the sum back (worked example)" },
      LAB6_ALLREDUCE, lab6_host_staged, NULL, 1 },
    { { "gather-reduce-broadcast", "6.1", "peer copies into GPU 0, one add kernel there, peer copies back: GPU 0's links carry 2(G-1)n" },
      LAB6_ALLREDUCE, lab6_gather_reduce_broadcast, NULL, 1 },
    { { "ring", "6.2", "reduce-scatter + all-gather over peer reads, chunks pipelined on two streams: 2(G-1)/G x n per GPU" },
      LAB6_ALLREDUCE, lab6_ring, NULL, 1 },
    { { "nccl", "lib", "ncclAllReduce: the library (complete in the starter)" },
      LAB6_ALLREDUCE, lab6_nccl_allreduce, NULL, 0 },
    { { "histogram", "6.3", "histogram each shard (CUB), ncclAllReduce the bins: only the bins cross" },
      LAB6_HISTOGRAM, NULL, lab6_histogram, 0 },
    { { "scan", "6.4", "reduce each shard, ncclAllGather the totals, scan seeded with the offset (CUB): only totals cross" },
      LAB6_SCAN, NULL, lab6_scan, 0 },
    { { "sort", "6.5", "sort shards (CUB), split by digits, ncclSend/ncclRecv all-to-all, merge runs (CUB): every key crosses" },
      LAB6_SORT, NULL, lab6_sort, 0 },
};
const int lab6_variant_count = sizeof lab6_variants / sizeof lab6_variants[0];

const char *lab6_op_name(lab6_op op)
{
    static const char *const names[LAB6_OPS] = { "allreduce", "histogram", "scan", "sort" };
    return op >= 0 && op < LAB6_OPS ? names[op] : "?";
}

const char *lab6_kernel_name(lab6_op op)
{
    static const char *const names[LAB6_OPS] = { "-", "cub-hist", "cub-scan", "cub-sortkeys" };
    return op >= 0 && op < LAB6_OPS ? names[op] : "?";
}
