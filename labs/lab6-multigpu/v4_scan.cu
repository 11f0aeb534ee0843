/* Step 6.4 (application): an exclusive scan across GPUs. Only the totals cross.
 *
 * Element i's result needs the sum of everything before it, including every earlier
 * shard. So each GPU first reduces its shard to one total (a read of n/G values), the
 * G totals are exchanged (ncclAllGather: every GPU gets all of them), each GPU sums
 * the totals of the shards before its own (its offset), and scans its shard with that
 * offset as the scan's seed (CUB reads the seed from device memory when the scan
 * starts: nothing waits on the host). Each value is read twice and written once.
 *
 * Why not scan first and add the offset after? That reads and writes the shard twice
 * (4 passes instead of 3). Why not skip the reduce? The offset of GPU g depends on
 * every value of the shards before it: someone must read them before g can write.
 * Expect: 2G/(2 + r) x one GPU's CUB scan, r = that scan's rate as a fraction of the
 * copy rate (2G/3 at r = 1: 3n/G values moved per GPU against 2n for one GPU), minus
 * the exchange's microseconds (lecture 6, Step 6.4). */
#include "lab6.h"

/* The sum of the totals of the shards before `rank`, in unsigned (wrapping) arithmetic. */
__global__ void offset_of_rank(const uint32_t *totals, int rank, uint32_t *offset)
{
    uint32_t sum = 0;
    for (int r = 0; r < rank; r++)
        sum += totals[r];
    *offset = sum;
}

extern "C" int lab6_scan(lab6_app_io *io)
{
    // TODO(Step 6.4): each GPU: lab6_cub_sum of its shard into ws->totals[l][rank]; one group of ncclAllGather (in place) of the totals; then offset_of_rank and lab6_cub_seeded_scan seeded with ws->offset[l] (about 24 lines)
    (void)io;
    return KIT_TODO;
}
