/* CPU suite for lab6 (no GPU, no NCCL): the arithmetic in lab6_plan.h.
 *   - contiguous parts (shards, ring segments, chunks) cover every item once;
 *   - the ring schedule, run by brute force on small G and n in random orders that
 *     respect only the dependencies the launcher enforces: every output element is
 *     the sum of every GPU's input exactly once (so no running sum is overwritten
 *     before it is read), and no step reads a value not yet written;
 *   - the bytes each GPU moves in the ring, and nccl-tests' algbw / busbw;
 *   - the sort's digit split and the all-to-all plan built on it. */
#include "kit_test.h"
#include "lab6_plan.h"

#include <stdlib.h>
#include <string.h>

/* ---- contiguous parts ------------------------------------------------------------ */

static void check_split(size_t n, size_t parts, size_t granule)
{
    size_t expect_begin = 0, smallest = (size_t)-1, largest = 0;
    for (size_t j = 0; j < parts; j++) {
        size_t begin, count;
        lab6_split(n, parts, granule, j, &begin, &count);
        cr_assert(eq(sz, begin, expect_begin), "n=%zu parts=%zu granule=%zu part %zu", n, parts, granule, j);
        if (begin < n)
            cr_assert(eq(sz, begin % granule, 0), "part %zu starts off the granule", j);
        expect_begin = begin + count;
        smallest = count < smallest ? count : smallest;
        largest = count > largest ? count : largest;
    }
    cr_assert(eq(sz, expect_begin, n), "parts of n=%zu end at %zu", n, expect_begin);
    if (granule == 1)
        cr_assert(le(sz, largest - smallest, 1), "n=%zu in %zu parts: sizes %zu..%zu", n, parts, smallest, largest);
    else
        cr_assert(le(sz, largest - smallest, granule), "n=%zu in %zu parts of granule %zu", n, parts, granule);
}

Test(lab6_plan, parts_cover_every_item_once)
{
    size_t sizes[] = { 0, 1, 2, 3, 7, 31, 63, 64, 65, 1025, 100003, ((size_t)1 << 20) + 7, ((size_t)1 << 33) + 5 };
    size_t granules[] = { 1, 4, LAB6_RING_GRANULE };
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (size_t parts = 1; parts <= 9; parts++)
            for (size_t k = 0; k < 3; k++)
                check_split(sizes[s], parts, granules[k]);
    check_split(((size_t)1 << 40) + 3, 1024, 1);
}

/* ---- the ring schedule, by brute force ---------------------------------------------
 * Each buffer element holds how many times each GPU's input went into it (counts[G]),
 * or "not written" / "stale". The launcher enforces exactly two orders: a lane runs its
 * steps in launch order (step-major, chunk k on lane k % lanes), and step q of a chunk
 * on GPU g waits for step q-1 of the same chunk on g's left neighbour. The simulation
 * runs the steps one at a time in a random order allowed by those two rules. */

enum { MAX_G = 6, MAX_N = 800, MAX_CHUNKS = 3, LANES = 2 };

typedef struct {
    signed char counts[MAX_G]; /* counts[0] < 0: never written */
} cell;

typedef struct {
    int G, chunks;
    int skip_neighbour_wait; /* drop the cross-GPU dependency (to show it is needed) */
    size_t n;
    cell buf[MAX_G][2][MAX_N]; /* [gpu][lab6_buffer][i] */
    int done[MAX_G][2 * MAX_G][MAX_CHUNKS];
} ring_sim;

static void chunk_of(const ring_sim *s, int g, int q, int k, size_t *begin, size_t *count)
{
    size_t seg_begin, seg_count, b, c;
    lab6_split(s->n, (size_t)s->G, LAB6_RING_GRANULE, (size_t)lab6_ring_step_of(s->G, g, q).segment, &seg_begin,
               &seg_count);
    lab6_split(seg_count, (size_t)s->chunks, LAB6_RING_GRANULE, (size_t)k, &b, &c);
    *begin = seg_begin + b;
    *count = c;
}

static int ready(const ring_sim *s, int g, int q, int k)
{
    if (s->done[g][q][k])
        return 0;
    /* earlier steps on the same lane */
    for (int q2 = 0; q2 <= q; q2++)
        for (int k2 = k % LANES; k2 < s->chunks; k2 += LANES)
            if ((q2 < q || k2 < k) && !s->done[g][q2][k2])
                return 0;
    return q == 0 || s->skip_neighbour_wait || s->done[lab6_ring_left(s->G, g)][q - 1][k];
}

/* Returns how many values the step read before they were written. */
static int run_step(ring_sim *s, int g, int q, int k)
{
    lab6_ring_step st = lab6_ring_step_of(s->G, g, q);
    int left = lab6_ring_left(s->G, g);
    size_t begin, count;
    chunk_of(s, g, q, k, &begin, &count);
    int unwritten = 0;
    for (size_t i = begin; i < begin + count; i++) {
        cell from = s->buf[left][st.from][i];
        if (from.counts[0] < 0) {
            unwritten++;
            from.counts[0] = 0;
        }
        if (st.add_own_input)
            for (int c = 0; c < s->G; c++)
                from.counts[c] += s->buf[g][LAB6_INPUT][i].counts[c];
        s->buf[g][LAB6_OUTPUT][i] = from;
    }
    s->done[g][q][k] = 1;
    return unwritten;
}

/* Runs every step in a random allowed order; returns the unwritten values read. */
static int simulate_ring(int G, size_t n, int chunks, uint64_t seed, int skip_neighbour_wait)
{
    static ring_sim s;
    memset(&s, 0, sizeof s);
    s.skip_neighbour_wait = skip_neighbour_wait;
    s.G = G;
    s.n = n;
    s.chunks = chunks;
    for (int g = 0; g < G; g++)
        for (size_t i = 0; i < n; i++) {
            s.buf[g][LAB6_INPUT][i].counts[g] = 1;
            s.buf[g][LAB6_OUTPUT][i].counts[0] = -1;
        }
    int steps = lab6_ring_steps(G), left_to_run = G * steps * chunks, unwritten = 0;
    for (uint64_t pick = 0; left_to_run > 0; pick++) {
        int candidates[MAX_G * 2 * MAX_G * MAX_CHUNKS][3], m = 0;
        for (int g = 0; g < G; g++)
            for (int q = 0; q < steps; q++)
                for (int k = 0; k < chunks; k++)
                    if (ready(&s, g, q, k)) {
                        candidates[m][0] = g;
                        candidates[m][1] = q;
                        candidates[m][2] = k;
                        m++;
                    }
        cr_assert(gt(int, m, 0), "G=%d n=%zu: the schedule deadlocks", G, n);
        int *c = candidates[kit_hash64(seed, pick) % (uint64_t)m];
        unwritten += run_step(&s, c[0], c[1], c[2]);
        left_to_run--;
    }
    if (skip_neighbour_wait)
        return unwritten;
    cr_assert(eq(int, unwritten, 0), "G=%d n=%zu chunks=%d: a step read %d values before they were written", G, n,
              chunks, unwritten);
    /* every output element: each GPU's input exactly once */
    for (int g = 0; g < G; g++)
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < G; c++)
                cr_assert(eq(i8, s.buf[g][LAB6_OUTPUT][i].counts[c], 1),
                          "G=%d n=%zu chunks=%d: GPU %d output %zu holds GPU %d's input %d times", G, n, chunks, g,
                          i, c, s.buf[g][LAB6_OUTPUT][i].counts[c]);
    return 0;
}

Test(lab6_plan, ring_reduces_every_element_exactly_once)
{
    for (int G = 2; G <= MAX_G; G++) {
        size_t sizes[] = { 0, 1, (size_t)G - 1, 31, 65, (size_t)LAB6_RING_GRANULE * G + 5, 777 };
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int chunks = 1; chunks <= MAX_CHUNKS; chunks++)
                for (uint64_t seed = 0; seed < 4; seed++)
                    simulate_ring(G, sizes[s], chunks, seed * 1000 + (uint64_t)G, 0);
    }
}

/* Without the wait on the neighbour, some allowed order reads a running sum before it
 * exists: the simulation can fail, and the dependency is needed. */
Test(lab6_plan, ring_without_the_neighbour_wait_reads_unwritten_sums)
{
    for (int G = 2; G <= MAX_G; G++) {
        int unwritten = 0;
        for (uint64_t seed = 0; seed < 8; seed++)
            unwritten += simulate_ring(G, 777, 2, seed, 1);
        cr_assert(gt(int, unwritten, 0), "G=%d", G);
    }
}

/* Step q of GPU g continues exactly what its neighbour did at step q-1. */
Test(lab6_plan, ring_step_reads_what_the_neighbour_wrote_one_step_before)
{
    for (int G = 2; G <= MAX_G; G++)
        for (int g = 0; g < G; g++)
            for (int q = 1; q < lab6_ring_steps(G); q++) {
                lab6_ring_step mine = lab6_ring_step_of(G, g, q);
                lab6_ring_step theirs = lab6_ring_step_of(G, lab6_ring_left(G, g), q - 1);
                cr_assert(eq(int, mine.segment, theirs.segment), "G=%d g=%d q=%d", G, g, q);
                cr_assert(eq(int, (int)mine.from, (int)LAB6_OUTPUT), "G=%d g=%d q=%d", G, g, q);
            }
}

Test(lab6_plan, ring_of_one_has_no_steps)
{
    cr_assert(eq(int, lab6_ring_steps(1), 0));
    cr_assert(eq(sz, lab6_ring_values_read(1000, 1, 0), 0));
}

/* ---- bytes and bandwidth ---------------------------------------------------------- */

Test(lab6_plan, ring_reads_2_g_minus_1_over_g_of_the_message)
{
    for (int G = 2; G <= 8; G++) {
        size_t n = (size_t)G * LAB6_RING_GRANULE * 1000; /* every segment the same size */
        for (int g = 0; g < G; g++)
            cr_assert(eq(sz, lab6_ring_values_read(n, G, g), 2 * (size_t)(G - 1) * n / G), "G=%d g=%d", G, g);
        size_t odd = n + 12345;
        for (int g = 0; g < G; g++) {
            double ideal = lab6_allreduce_bus_factor(G) * (double)odd;
            double got = (double)lab6_ring_values_read(odd, G, g);
            cr_assert(le(dbl, got > ideal ? got - ideal : ideal - got, 2.0 * LAB6_RING_GRANULE), "G=%d g=%d", G, g);
        }
    }
}

Test(lab6_plan, nccl_tests_bandwidth_definitions)
{
    cr_assert(eq(dbl, lab6_allreduce_bus_factor(1), 0.0));
    cr_assert(eq(dbl, lab6_allreduce_bus_factor(2), 1.0));
    cr_assert(eq(dbl, lab6_allreduce_bus_factor(8), 1.75));
    cr_assert(eq(dbl, lab6_algbw_gbs(1e9, 1.0), 1000.0));  /* 1 GB in 1 ms */
    cr_assert(eq(dbl, lab6_algbw_gbs(4e6, 0.0), 0.0));     /* no time measured: no rate */
    cr_assert(eq(dbl, lab6_busbw_gbs(1e9, 2.0, 4), 750.0)); /* 500 GB/s x 2 x 3/4 */
}

/* ---- the sort's split ---------------------------------------------------------------- */

Test(lab6_plan, digit_shift_fits_the_range_in_the_digits)
{
    cr_assert(eq(int, lab6_digit_shift(0, 10), 0));
    cr_assert(eq(int, lab6_digit_shift(1023, 10), 0));
    cr_assert(eq(int, lab6_digit_shift(1024, 10), 1));
    cr_assert(eq(int, lab6_digit_shift(UINT32_MAX, 10), 22));
    for (uint64_t i = 0; i < 20000; i++) {
        uint32_t range = (uint32_t)(kit_hash64(3, i) >> (kit_hash64(4, i) % 33));
        int s = lab6_digit_shift(range, LAB6_DIGIT_BITS);
        cr_assert(lt(u64, (uint64_t)range >> s, (uint64_t)LAB6_DIGITS), "range %u shift %d", range, s);
        if (s > 0)
            cr_assert(ge(u64, (uint64_t)range >> (s - 1), (uint64_t)LAB6_DIGITS), "range %u: shift %d too big", range, s);
        /* the last boundary lies past the largest key */
        cr_assert(gt(u64, lab6_digit_lower(7, s, LAB6_DIGITS), (uint64_t)7 + range));
    }
}

Test(lab6_plan, key_range_ignores_empty_shards)
{
    lab6_key_ends ends[3] = { { 50, 90 }, { UINT32_MAX, 0 }, { 10, 60 } };
    uint32_t lo, hi;
    lab6_key_range(ends, 3, &lo, &hi);
    cr_assert(eq(u32, lo, 10));
    cr_assert(eq(u32, hi, 90));
    lab6_key_range(ends + 1, 1, &lo, &hi);
    cr_assert(gt(u32, lo, hi), "only empty shards: an empty range");
}

static uint64_t prefix_at(const uint64_t *hist, int d)
{
    uint64_t p = 0;
    for (int i = 0; i < d; i++)
        p += hist[i];
    return p;
}

static void check_split_digits(const uint64_t *hist, int digits, int G)
{
    int first[65];
    lab6_split_digits(hist, digits, G, first);
    uint64_t total = prefix_at(hist, digits);
    cr_assert(eq(int, first[0], 0));
    cr_assert(eq(int, first[G], digits));
    for (int r = 1; r < G; r++) {
        cr_assert(le(int, first[r - 1], first[r]), "G=%d: boundaries go back at %d", G, r);
        /* the chosen boundary is the one whose prefix is nearest the even share */
        double target = (double)(total * (uint64_t)r / (uint64_t)G);
        double got = (double)prefix_at(hist, first[r]), best = 1e300;
        for (int d = 0; d <= digits; d++) {
            double off = (double)prefix_at(hist, d) - target;
            best = off * off < best ? off * off : best;
        }
        cr_assert(le(dbl, (got - target) * (got - target), best), "G=%d r=%d: a nearer boundary exists", G, r);
    }
}

Test(lab6_plan, digits_split_as_evenly_as_whole_digits_allow)
{
    static uint64_t hist[LAB6_DIGITS];
    for (int trial = 0; trial < 60; trial++) {
        int digits = trial % 3 == 0 ? LAB6_DIGITS : 1 + (int)(kit_hash64(trial, 0) % 40);
        for (int d = 0; d < digits; d++) /* some empty digits, some heavy ones */
            hist[d] = kit_hash64(trial, d + 1) % 4 == 0 ? 0 : kit_hash64(trial, d + 1000) % 100000;
        for (int G = 1; G <= 9; G++)
            check_split_digits(hist, digits, G);
    }
    /* uniform keys: every GPU gets its share to within one digit */
    for (int d = 0; d < LAB6_DIGITS; d++)
        hist[d] = 1000;
    int first[9];
    lab6_split_digits(hist, LAB6_DIGITS, 8, first);
    for (int r = 0; r < 8; r++)
        cr_assert(eq(int, first[r + 1] - first[r], LAB6_DIGITS / 8));
}

Test(lab6_plan, one_digit_holding_every_key_goes_to_one_gpu)
{
    static uint64_t hist[LAB6_DIGITS];
    memset(hist, 0, sizeof hist);
    hist[0] = ((uint64_t)1 << 30) + 1;
    for (int G = 2; G <= 8; G++) {
        int first[9], owners = 0;
        lab6_split_digits(hist, LAB6_DIGITS, G, first);
        for (int r = 0; r < G; r++)
            owners += first[r] <= 0 && 0 < first[r + 1];
        cr_assert(eq(int, owners, 1), "G=%d: digit 0 must belong to exactly one GPU", G);
    }
    memset(hist, 0, sizeof hist); /* no keys at all */
    int first[5];
    lab6_split_digits(hist, LAB6_DIGITS, 4, first);
    cr_assert(eq(int, first[4], LAB6_DIGITS));
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Sorted shards -> digit positions -> plan -> exchange and sort on the CPU: the GPUs'
 * outputs, in order, are the sorted input; each GPU's runs fill its buffer exactly. */
static void check_exchange(int G, size_t n, int dist, uint64_t seed)
{
    uint32_t *all = malloc(n * sizeof *all + 4), *shard_keys = malloc(n * sizeof *all + 4);
    for (size_t i = 0; i < n; i++)
        all[i] = dist == 0 ? (uint32_t)kit_hash64(seed, i)
               : dist == 1 ? 77u
               : dist == 2 ? (uint32_t)(kit_hash64(seed, i) % 5) * 1000u
                           : (uint32_t)(kit_hash64(seed, i) & 0xfff);
    memcpy(shard_keys, all, n * sizeof *all);
    lab6_key_ends ends[8];
    size_t begin[8], count[8];
    for (int g = 0; g < G; g++) {
        lab6_split(n, (size_t)G, 1, (size_t)g, &begin[g], &count[g]);
        qsort(shard_keys + begin[g], count[g], sizeof *all, cmp_u32);
        ends[g] = count[g] ? (lab6_key_ends){ shard_keys[begin[g]], shard_keys[begin[g] + count[g] - 1] }
                           : (lab6_key_ends){ UINT32_MAX, 0 };
    }
    uint32_t lo, hi;
    lab6_key_range(ends, G, &lo, &hi);
    int shift = lab6_digit_shift(hi >= lo ? hi - lo : 0, LAB6_DIGIT_BITS);
    static uint64_t pos[8 * (LAB6_DIGITS + 1)], hist[LAB6_DIGITS];
    for (int g = 0; g < G; g++)
        for (int j = 0; j <= LAB6_DIGITS; j++) {
            uint64_t bound = lab6_digit_lower(lo, shift, j), below = 0;
            for (size_t i = 0; i < count[g]; i++)
                below += shard_keys[begin[g] + i] < bound;
            pos[g * (LAB6_DIGITS + 1) + j] = below;
        }
    lab6_global_histogram(pos, LAB6_DIGITS, G, hist);
    int first[9];
    lab6_split_digits(hist, LAB6_DIGITS, G, first);

    uint32_t *got = malloc(n * sizeof *got + 4);
    size_t filled = 0;
    for (int dst = 0; dst < G; dst++) {
        uint64_t total = lab6_recv_total(pos, LAB6_DIGITS, first, G, dst), next = 0;
        for (int src = 0; src < G; src++) {
            lab6_span in = lab6_recv_span(pos, LAB6_DIGITS, first, dst, src);
            lab6_span out = lab6_send_span(pos, LAB6_DIGITS, first, src, dst);
            cr_assert(eq(u64, in.offset, next), "runs leave a gap");
            cr_assert(eq(u64, in.count, out.count));
            memcpy(got + filled + in.offset, shard_keys + begin[src] + out.offset, out.count * sizeof *got);
            next = in.offset + in.count;
        }
        cr_assert(eq(u64, next, total));
        qsort(got + filled, total, sizeof *got, cmp_u32); /* the GPU merges its runs */
        filled += total;
    }
    cr_assert(eq(sz, filled, n), "G=%d n=%zu dist %d: %zu keys arrived", G, n, dist, filled);
    qsort(all, n, sizeof *all, cmp_u32);
    for (size_t i = 0; i < n; i++)
        cr_assert(eq(u32, got[i], all[i]), "G=%d n=%zu dist %d: key %zu", G, n, dist, i);
    free(all);
    free(shard_keys);
    free(got);
}

Test(lab6_plan, exchange_plan_sorts_across_gpus)
{
    size_t sizes[] = { 0, 1, 2, 31, 1025, 5000 };
    for (int G = 1; G <= 5; G++)
        for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (int dist = 0; dist < 4; dist++)
                check_exchange(G, sizes[s], dist, 10 * (uint64_t)G + s);
}
