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
 * one empty object so the exclusive scan's last entry is the total. */
__global__ void join_counts(const int32_t *__restrict__ lower, const int32_t *__restrict__ upper,
                            const uint8_t *__restrict__ b_matched, int64_t a_count, int64_t b_count,
                            int keep_a, int keep_b, int64_t *__restrict__ counts,
                            int32_t *__restrict__ first_b)
{
    // TODO(Step 4.4): per A row its matches (or 1 kept without), per B row 1 if kept without match, last 0 (about 10 lines)
}

/* Output row k belongs to object o = LBS(k) with rank r: write its pair. */
__global__ void __launch_bounds__(NT)
join_expand(const int64_t *__restrict__ offsets, const int32_t *__restrict__ first_b,
            int64_t a_count, int64_t obj_count, int64_t rows, const int64_t *__restrict__ partitions,
            int32_t *__restrict__ out_a, int32_t *__restrict__ out_b)
{
    // TODO(Step 4.4): stage first_b of objects obj_begin - 1 .. obj_end - 1 (slot o - obj_begin + 1, like off_s), run lab4_tile_lbs, write (a, b) pairs coalesced (about 26 lines)
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

extern "C" int lab4_join(const lab4_io *io, cudaStream_t stream)
{
    int64_t a_count = (int64_t)io->a_count, b_count = (int64_t)io->b_count;
    int64_t objs = a_count + b_count;
    int err;
    *io->join_rows = 0;
    if (objs == 0) {
        for (int ph = 0; ph < 3; ph++)
            if ((err = record_phase(io, ph, stream)))
                return err;
        return 0;
    }
    // TODO(Step 4.4): search (lower + flags, upper); counts, scan, read the row count back, check it; expand; record_phase(io, 0, 1, 2) after each phase (lab4.h: lab4_io.phase_events) (about 45 lines)
    return KIT_TODO;
}
