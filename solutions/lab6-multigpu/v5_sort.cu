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

// BEGIN SOLUTION (Step 6.5): a helper that merges the runs a GPU received, pairwise (lab6_cub_merge), round after round, alternating between two buffers
/* ceil(log2(runs)): the pairwise merge rounds that leave one run. */
static int merge_rounds(int runs)
{
    int rounds = 0;
    while ((1 << rounds) < runs)
        rounds++;
    return rounds;
}

/* Merge the sorted runs lying one after the other in `from` pairwise, round after
 * round, alternating between `from` and `to`, until one run is left. */
static int merge_runs(const lab6_team *t, int l, lab6_app_ws *ws, lab6_span *runs, int count, uint32_t *from,
                      uint32_t *to)
{
    cudaStream_t lane = t->lane[l][0];
    int r = 0;
    while (count > 1 && !r) {
        int merged = 0;
        for (int i = 0; i < count && !r; i += 2, merged++) {
            lab6_span a = runs[i];
            if (i + 1 == count) { /* the odd run out moves as it is */
                r = KIT_CHECK(cudaMemcpyAsync(to + a.offset, from + a.offset, a.count * sizeof *to,
                                              cudaMemcpyDeviceToDevice, lane));
                runs[merged] = a;
                continue;
            }
            lab6_span b = runs[i + 1];
            r = lab6_cub_merge(ws->cub_temp[l], &ws->cub_temp_bytes[l], from + a.offset, a.count, from + b.offset,
                               b.count, to + a.offset, lane);
            lab6_span both = { a.offset, a.count + b.count };
            runs[merged] = both;
        }
        count = merged;
        uint32_t *swap = from;
        from = to;
        to = swap;
    }
    return r;
}
// END SOLUTION

extern "C" int lab6_sort(lab6_app_io *io)
{
    int r = plan_the_split(io);
    if (r)
        return r;
    // BEGIN SOLUTION (Step 6.5): each GPU receives its runs (lab6_recv_span) where ceil(log2(runs)) merge rounds will leave the result in io->out[l]; one group of ncclSend/ncclRecv (skip empty runs); merge; set io->out_count[l] and io->out_offset[l]
    const lab6_team *t = io->team;
    lab6_app_ws *ws = io->ws;
    const int G = t->gpus;
    const uint64_t *pos = ws->host_pos;
    const int *first = ws->first_digit;
    int run_count[LAB6_MAX_LOCAL];
    uint32_t *landing[LAB6_MAX_LOCAL], *other[LAB6_MAX_LOCAL];
    for (int l = 0; l < t->local; l++) {
        int rank = lab6_rank(t, l);
        run_count[l] = 0;
        for (int src = 0; src < G; src++) {
            lab6_span run = lab6_recv_span(pos, LAB6_DIGITS, first, rank, src);
            if (run.count)
                ws->runs[l][run_count[l]++] = run;
        }
        int even = merge_rounds(run_count[l]) % 2 == 0;
        landing[l] = even ? (uint32_t *)io->out[l] : ws->received[l];
        other[l] = even ? ws->received[l] : (uint32_t *)io->out[l];
        io->out_count[l] = lab6_recv_total(pos, LAB6_DIGITS, first, G, rank);
        io->out_offset[l] = 0;
        for (int before = 0; before < rank; before++)
            io->out_offset[l] += lab6_recv_total(pos, LAB6_DIGITS, first, G, before);
    }
    r = LAB6_NCCL(ncclGroupStart());
    for (int l = 0; l < t->local && !r; l++) {
        int rank = lab6_rank(t, l);
        for (int peer = 0; peer < G && !r; peer++) {
            lab6_span out = lab6_send_span(pos, LAB6_DIGITS, first, rank, peer);
            lab6_span in = lab6_recv_span(pos, LAB6_DIGITS, first, rank, peer);
            if (out.count)
                r = LAB6_NCCL(ncclSend(ws->sorted[l] + out.offset, out.count, ncclUint32, peer, t->comm[l],
                                       t->lane[l][0]));
            if (!r && in.count)
                r = LAB6_NCCL(ncclRecv(landing[l] + in.offset, in.count, ncclUint32, peer, t->comm[l],
                                       t->lane[l][0]));
        }
    }
    int end = LAB6_NCCL(ncclGroupEnd());
    r = r ? r : end;
    for (int l = 0; l < t->local && !r; l++)
        if (!(r = lab6_use(t, l)))
            r = merge_runs(t, l, ws, ws->runs[l], run_count[l], landing[l], other[l]);
    return r;
    // STUB: return KIT_TODO;
    // END SOLUTION
}
