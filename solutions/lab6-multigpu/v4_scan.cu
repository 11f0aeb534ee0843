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
    // BEGIN SOLUTION (Step 6.4): each GPU: lab6_cub_sum of its shard into ws->totals[l][rank]; one group of ncclAllGather (in place) of the totals; then offset_of_rank and lab6_cub_seeded_scan seeded with ws->offset[l]
    const lab6_team *t = io->team;
    lab6_app_ws *ws = io->ws;
    int r = 0;
    for (int l = 0; l < t->local && !r; l++)
        if (!(r = lab6_use(t, l)))
            r = lab6_cub_sum(ws->cub_temp[l], &ws->cub_temp_bytes[l], (const uint32_t *)io->in[l], io->count[l],
                             ws->totals[l] + lab6_rank(t, l), t->lane[l][0]);
    if (r)
        return r;
    r = LAB6_NCCL(ncclGroupStart());
    for (int l = 0; l < t->local && !r; l++)
        r = LAB6_NCCL(ncclAllGather(ws->totals[l] + lab6_rank(t, l), ws->totals[l], 1, ncclUint32, t->comm[l],
                                    t->lane[l][0]));
    int end = LAB6_NCCL(ncclGroupEnd());
    r = r ? r : end;
    for (int l = 0; l < t->local && !r; l++) {
        if ((r = lab6_use(t, l)))
            break;
        offset_of_rank<<<1, 1, 0, t->lane[l][0]>>>(ws->totals[l], lab6_rank(t, l), ws->offset[l]);
        if (!(r = KIT_LAUNCH_CHECK()))
            r = lab6_cub_seeded_scan(ws->cub_temp[l], &ws->cub_temp_bytes[l], (const uint32_t *)io->in[l],
                                     io->count[l], ws->offset[l], (uint32_t *)io->out[l], t->lane[l][0]);
    }
    return r;
    // STUB: (void)io;
    // STUB: return KIT_TODO;
    // END SOLUTION
}
