/* Step 6.5 (application): sorting across GPUs. Here everything crosses the link.
 *
 * 1. Each GPU sorts its shard (CUB's SortKeys: the one-GPU row's routine, on n/G keys).
 * 2. The split. The keys span [min, max] (every shard's first and last key, gathered);
 *    a key's digit is (key - min) >> shift, LAB6_DIGITS digits in all. Each GPU finds
 *    where every digit starts in its sorted shard (a binary search per digit), the
 *    positions are gathered (ncclAllGather), and every process computes the same plan
 *    on the host (lab6_plan.h): GPU r receives the digits [first[r], first[r+1]),
 *    chosen so the loads are as even as whole digits allow. The global histogram is the
 *    sum of the shards' counts.
 * 3. All-to-all: from every shard, GPU r receives that shard's keys of its digits, one
 *    contiguous run of the sorted shard (grouped ncclSend / ncclRecv).
 * 4. Each GPU merges the G sorted runs it received (CUB's MergeKeys, pairwise rounds).
 * The GPUs' outputs, in ring order, are all the keys sorted.
 *
 * Costs: a sort of n/G keys, an exchange of about (G-1)/G of them over the links, and
 * log2(G) merge passes, against a sort of n keys on one GPU. Equal keys are never
 * split between GPUs, so when every key is the same, one GPU receives them all and
 * sorts nothing faster than one GPU would (it still works: each GPU's buffers hold n).
 * The plan needs the positions on the host: the one synchronization of the run. */
#include "lab6.h"

enum { NT = LAB6_SORT_NT };

/* The first and last key of a sorted shard, at ends[rank]. */
__global__ void shard_ends(const uint32_t *sorted, size_t count, lab6_key_ends *ends, int rank)
{
    lab6_key_ends e = { UINT32_MAX, 0 }; /* an empty shard changes no minimum or maximum */
    if (count) {
        e.first = sorted[0];
        e.last = sorted[count - 1];
    }
    ends[rank] = e;
}

/* pos[rank][j] = the number of keys of the sorted shard below digit boundary j. */
__global__ void digit_positions(const uint32_t *sorted, size_t count, const lab6_key_ends *ends, int G, int rank,
                                uint64_t *pos)
{
    int j = blockIdx.x * NT + threadIdx.x;
    if (j > LAB6_DIGITS)
        return;
    uint32_t lo, hi;
    lab6_key_range(ends, G, &lo, &hi);
    int shift = lab6_digit_shift(hi >= lo ? hi - lo : 0, LAB6_DIGIT_BITS);
    uint64_t bound = lab6_digit_lower(lo, shift, j);
    size_t a = 0, b = count; /* the first key >= bound lies in [a, b] */
    while (a < b) {
        size_t mid = a + (b - a) / 2;
        if (sorted[mid] < bound)
            a = mid + 1;
        else
            b = mid;
    }
    pos[(size_t)rank * (LAB6_DIGITS + 1) + j] = a;
}

/* Steps 1 and 2: sort the shards, gather the digit positions, plan on the host. */
static int plan_the_split(lab6_app_io *io)
{
    const lab6_team *t = io->team;
    lab6_app_ws *ws = io->ws;
    const int G = t->gpus, per_rank = LAB6_DIGITS + 1;
    int r = 0;
    for (int l = 0; l < t->local && !r; l++) {
        if ((r = lab6_use(t, l)) ||
            (r = lab6_cub_sort(ws->cub_temp[l], &ws->cub_temp_bytes[l], (const uint32_t *)io->in[l], io->count[l],
                               ws->sorted[l], t->lane[l][0])))
            break;
        shard_ends<<<1, 1, 0, t->lane[l][0]>>>(ws->sorted[l], io->count[l], ws->ends[l], lab6_rank(t, l));
        r = KIT_LAUNCH_CHECK();
    }
    if (r)
        return r;
    r = LAB6_NCCL(ncclGroupStart());
    for (int l = 0; l < t->local && !r; l++) /* in place: 2 uint32 per shard */
        r = LAB6_NCCL(ncclAllGather(ws->ends[l] + lab6_rank(t, l), ws->ends[l], 2, ncclUint32, t->comm[l],
                                    t->lane[l][0]));
    int end = LAB6_NCCL(ncclGroupEnd());
    r = r ? r : end;
    for (int l = 0; l < t->local && !r; l++) {
        if ((r = lab6_use(t, l)))
            break;
        digit_positions<<<(unsigned)kit_div_up(per_rank, NT), NT, 0, t->lane[l][0]>>>(
            ws->sorted[l], io->count[l], ws->ends[l], G, lab6_rank(t, l), ws->pos[l]);
        r = KIT_LAUNCH_CHECK();
    }
    if (r)
        return r;
    r = LAB6_NCCL(ncclGroupStart());
    for (int l = 0; l < t->local && !r; l++)
        r = LAB6_NCCL(ncclAllGather(ws->pos[l] + (size_t)lab6_rank(t, l) * per_rank, ws->pos[l], per_rank,
                                    ncclUint64, t->comm[l], t->lane[l][0]));
    end = LAB6_NCCL(ncclGroupEnd());
    if ((r = r ? r : end) || (r = lab6_use(t, 0)) ||
        (r = KIT_CHECK(cudaMemcpyAsync(ws->host_pos, ws->pos[0], (size_t)G * per_rank * sizeof *ws->host_pos,
                                       cudaMemcpyDeviceToHost, t->lane[0][0]))) ||
        (r = KIT_CHECK(cudaStreamSynchronize(t->lane[0][0]))))
        return r;
    lab6_global_histogram(ws->host_pos, LAB6_DIGITS, G, ws->host_hist);
    lab6_split_digits(ws->host_hist, LAB6_DIGITS, G, ws->first_digit);
    return 0;
}

// TODO(Step 6.5): a helper that merges the runs a GPU received, pairwise (lab6_cub_merge), round after round, alternating between two buffers (about 38 lines)

extern "C" int lab6_sort(lab6_app_io *io)
{
    int r = plan_the_split(io);
    if (r)
        return r;
    // TODO(Step 6.5): each GPU receives its runs (lab6_recv_span) where ceil(log2(runs)) merge rounds will leave the result in io->out[l]; one group of ncclSend/ncclRecv (skip empty runs); merge; set io->out_count[l] and io->out_offset[l] (about 43 lines)
    return KIT_TODO;
}
