/* Step 4.4: sort-merge relational joins (inner, left, right, full outer).
 *
 * Two sorted tables A and B with duplicate keys. Rows with equal keys expand to
 * their outer product; an A row without partner gives (a, -1) in left and outer
 * joins, a B row without partner (-1, b) in right and outer joins. Output order:
 * A rows in order, each with its matches in B order, then the unmatched B rows.
 * Nothing new is needed, only the earlier steps composed:
 *   1. search: two sorted searches give, for every A row, lower[i] and upper[i]
 *      (its run of equal keys in B) and, for every B row, whether A has its key;
 *   2. scan: the rows each object produces (an A row: upper - lower matches, or 1
 *      when it has none and the join keeps it; a B row: 1 if unmatched and the
 *      join keeps it), then an exclusive scan (CUB's DeviceScan::ExclusiveSum: a
 *      building block here, lab 3 writes one). The last offset is the output size,
 *      known before any row is written: too big is a clean error, not a crash;
 *   3. expand: a load-balancing search over rows + objects pairs every output row
 *      with its object and its rank r; an A row with matches emits
 *      (a, lower[a] + r), without (a, -1); a B row emits (-1, b).
 * Each tile gets a fixed number of inputs + outputs, so one key with a huge
 * outer product is spread over many tiles instead of stalling one thread.
 * Still slow: three passes over the inputs and a round trip to the host for the
 * output size. Expect: well below a merge; time split between the phases
 * (./lab4 --op join --phases). */
#include "lab4.h"
#include "lab4_tile.cuh"

#include <cub/cub.cuh>

enum { NT = LAB4_JOIN_NT, VT = LAB4_JOIN_VT, NV = NT * VT };
static_assert(NV >= LAB4_MIN_NV, "tiles smaller than the partition arrays allow");

#define COUNT_NT 256

/* Rows per object: objects 0 .. a_count-1 are A's rows, then b_count B rows, then
 * one empty object so the exclusive scan's last entry is the total. One thread per
 * object j = 0 .. a_count + b_count (inclusive); the kernel writes two outputs:
 *   counts[j]: lab4_join_count of object j (0 for the last, extra object);
 *   first_b[i], for each A row i only: lower[i] when the row has matches
 *     (upper[i] > lower[i]), else -1 (lab4_join_ws.first_b; the expand reads it). */
__global__ void join_counts(const int32_t *__restrict__ lower, const int32_t *__restrict__ upper,
                            const uint8_t *__restrict__ b_matched, int64_t a_count, int64_t b_count,
                            int keep_a, int keep_b, int64_t *__restrict__ counts,
                            int32_t *__restrict__ first_b)
{
    // TODO(Step 4.4): A row i: counts[i] and first_b[i] (lower[i] or -1); B row: counts only; last object: 0 (about 10 lines)
}

/* Output row k belongs to object o = LBS(k) with rank r: write its pair. An LBS
 * over rows + objects (lab4_tile_lbs on offsets), plus the first match of each
 * object, staged in shared memory with the same one-object shift as off_s:
 *   first_s[i] = first_b[obj_begin - 1 + i] for i = 0 .. obj_end - obj_begin inclusive,
 *   and -1 where there is no such entry: for object -1 (i = 0 when obj_begin == 0)
 *   and for B rows (object >= a_count; first_b has only a_count entries).
 * Stage it before calling lab4_tile_lbs: its barriers publish first_s too. Then
 * output k = out_begin + i of the tile, object o = obj_s[i], slot o - obj_begin + 1:
 * rank = k - off_s[slot], and lab4_join_row(o, rank, a_count, first_s[slot], ...).
 * Shared sizes: off_s NV + 1 int64, obj_s NV int32, first_s NV + 1 int32. */
__global__ void __launch_bounds__(NT)
join_expand(const int64_t *__restrict__ offsets, const int32_t *__restrict__ first_b,
            int64_t a_count, int64_t obj_count, int64_t rows, const int64_t *__restrict__ partitions,
            int32_t *__restrict__ out_a, int32_t *__restrict__ out_b)
{
    // TODO(Step 4.4): stage first_s (above: -1 for object -1 and B rows), run lab4_tile_lbs, write each output's (a, b) pair coalesced (about 26 lines)
}

extern "C" size_t lab4_join_scan_temp_bytes(size_t count)
{
    size_t bytes = 0;
    if (count == 0)
        return 0;
    if (KIT_CHECK(cub::DeviceScan::ExclusiveSum(NULL, bytes, (const int64_t *)NULL, (int64_t *)NULL,
                                                (int64_t)count)))
        return 0; /* reported; the real call then fails too */
    return bytes;
}

/* Record the event of a finished phase (0 search, 1 scan + row count, 2 expand)
 * if the caller asked for it: see lab4_io.phase_events. */
static int record_phase(const lab4_io *io, int phase, cudaStream_t stream)
{
    return io->phase_events[phase] ? KIT_CHECK(cudaEventRecord(io->phase_events[phase], stream)) : 0;
}

/* The join launcher (see the file's header for the three phases).
 * *io->join_rows: the true row count once it is known (the last offset, read
 * back to ws->h_rows), written BEFORE the capacity check: a join of more than
 * io->join_capacity rows returns LAB4_ERR_JOIN_TOO_LARGE with *io->join_rows =
 * its true row count (the GPU suite checks both), and expands nothing. It is 0
 * only for empty tables (below) or when an error stops the launcher earlier.
 * The expand checks its tiles + 1 boundaries against io->partition_capacity
 * like every launcher (lab4.h). */
extern "C" int lab4_join(const lab4_io *io, cudaStream_t stream)
{
    int64_t a_count = (int64_t)io->a_count, b_count = (int64_t)io->b_count;
    int64_t objs = a_count + b_count;
    int err;
    *io->join_rows = 0; /* until the row count is known: see above */
    if (objs == 0) {
        for (int ph = 0; ph < 3; ph++)
            if ((err = record_phase(io, ph, stream)))
                return err;
        return 0;
    }
    // TODO(Step 4.4): search (lower + b_matched flags, upper); counts, scan, read the row count back, *io->join_rows = rows, then refuse rows > join_capacity; expand (partition capacity check); record_phase(io, 0, 1, 2) after each phase (lab4.h: lab4_io.phase_events) (about 45 lines)
    return KIT_TODO;
}
