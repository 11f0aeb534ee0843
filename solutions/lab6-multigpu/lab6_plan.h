/* lab6_plan.h: the arithmetic of lab6, in plain C so that the CPU tests check it
 * and the launchers, the kernels and the lecture all use the same definitions:
 *   - splitting n items into contiguous parts (shards, ring segments, chunks);
 *   - the ring all-reduce: what GPU g does at step q, and what it waits for;
 *   - bandwidth as nccl-tests defines it (algbw, busbw);
 *   - the sort across GPUs: digits of (key - min), whole digits per GPU, and the
 *     all-to-all exchange that follows from every shard's digit counts.
 * Needs neither NCCL nor a GPU. */
#ifndef LAB6_PLAN_H
#define LAB6_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "kit_hd.h"

/* ---- contiguous parts ----------------------------------------------------------- */

/* Part j (0 <= j < parts) of n items cut into `parts` contiguous parts whose
 * boundaries are multiples of `granule` (the end excepted): [*begin, *begin + *count).
 * With granule 1 the sizes differ by at most one. Exact for n < 2^50, parts < 2^14. */
KIT_HD void lab6_split(size_t n, size_t parts, size_t granule, size_t j, size_t *begin,
                       size_t *count)
{
    uint64_t units = ((uint64_t)n + granule - 1) / granule;
    uint64_t b = (uint64_t)granule * (units * j / parts);
    uint64_t e = (uint64_t)granule * (units * (j + 1) / parts);
    b = b < n ? b : n;
    e = e < n ? e : n;
    *begin = (size_t)b;
    *count = (size_t)(e - b);
}

/* ---- the ring all-reduce ----------------------------------------------------------
 * G GPUs in a ring; GPU g reads only from its left neighbour g-1 (mod G). The n
 * values are cut into G segments. Reduce-scatter (G-1 steps): at step q GPU g reads
 * the neighbour's running sum of segment (g-1-q) mod G (its input at step 0), adds its
 * own input and keeps the result; after G-1 steps it holds the complete sum of segment
 * (g+1) mod G. All-gather (G-1 steps): at step t GPU g copies the complete segment
 * (g-t) mod G from its neighbour. Each GPU reads 2(G-1) segments: 2(G-1)/G x n values.
 *
 * Running sums are kept in the output buffer itself. That is safe: the all-gather step
 * that overwrites a running sum of GPU g with the final value comes G-1 links down the
 * chain of waits from the step of GPU g+1 that reads it (the chain goes round the
 * ring), so the read has always happened. tests/cpu/test_lab6_plan.c checks this by
 * running the schedule in random orders. */

typedef enum { LAB6_INPUT, LAB6_OUTPUT } lab6_buffer;

typedef struct {
    int segment;       /* which of the G segments this step works on */
    lab6_buffer from;  /* the left neighbour's buffer it reads */
    int add_own_input; /* 1: output = from + own input (reduce-scatter); 0: output = from */
} lab6_ring_step;

/* 2(G-1) steps: G-1 of reduce-scatter, then G-1 of all-gather. */
KIT_HD int lab6_ring_steps(int G) { return 2 * (G - 1); }

KIT_HD int lab6_mod(int a, int m) { return ((a % m) + m) % m; }

/* The left neighbour: the GPU whose buffers g reads. */
KIT_HD int lab6_ring_left(int G, int g) { return lab6_mod(g - 1, G); }

/* Step q (0 <= q < 2(G-1)) of GPU g. It may start once step q-1 of the left
 * neighbour has finished on the same chunk (for q = 0: at once). */
KIT_HD lab6_ring_step lab6_ring_step_of(int G, int g, int q)
{
    lab6_ring_step s;
    if (q < G - 1) {
        s.segment = lab6_mod(g - 1 - q, G);
        s.from = q == 0 ? LAB6_INPUT : LAB6_OUTPUT;
        s.add_own_input = 1;
    } else {
        s.segment = lab6_mod(g - (q - (G - 1)), G);
        s.from = LAB6_OUTPUT;
        s.add_own_input = 0;
    }
    return s;
}

/* Ring segments start on multiples of this many values (256 bytes of 4-byte values),
 * so every chunk a step reads can use 16-byte loads. */
#define LAB6_RING_GRANULE 64

/* Values GPU g reads from its neighbour in one ring all-reduce of n values. */
static inline size_t lab6_ring_values_read(size_t n, int G, int g)
{
    size_t total = 0;
    for (int q = 0; q < lab6_ring_steps(G); q++) {
        size_t begin, count;
        lab6_split(n, (size_t)G, LAB6_RING_GRANULE, (size_t)lab6_ring_step_of(G, g, q).segment, &begin, &count);
        total += count;
    }
    return total;
}

/* ---- bandwidth, with nccl-tests' definitions ---------------------------------------
 * For an all-reduce of S bytes per GPU taking t: algbw = S / t, and busbw = algbw x
 * 2(G-1)/G, the bytes each GPU must send (and receive) per byte of message in the best
 * algorithm. busbw is what compares with the link's rate, whatever G; it is 0 for one
 * GPU, where nothing crosses a link. */
static inline double lab6_allreduce_bus_factor(int G) { return 2.0 * (G - 1) / G; }
static inline double lab6_algbw_gbs(double bytes, double ms) { return ms > 0 ? bytes / (ms * 1e-3) / 1e9 : 0; }
static inline double lab6_busbw_gbs(double bytes, double ms, int G)
{
    return lab6_algbw_gbs(bytes, ms) * lab6_allreduce_bus_factor(G);
}

/* ---- sorting across GPUs -------------------------------------------------------------
 * Each GPU sorts its shard. The keys present span [min, max]; a key's digit is
 * (key - min) >> shift, with the shift that makes LAB6_DIGITS digits cover that span.
 * Each GPU takes a contiguous range of whole digits, chosen from the global digit
 * histogram so the loads are as even as whole digits allow, and receives from every
 * shard that shard's keys of its digits: one contiguous run of the sorted shard. */

#define LAB6_DIGIT_BITS 10
#define LAB6_DIGITS (1 << LAB6_DIGIT_BITS)

/* The first and last key of a sorted shard; an empty shard reports {UINT32_MAX, 0},
 * which changes no minimum and no maximum. */
typedef struct {
    uint32_t first, last;
} lab6_key_ends;

/* The span of every shard together: [*min, *max]; *min > *max when all are empty. */
KIT_HD void lab6_key_range(const lab6_key_ends *ends, int G, uint32_t *min, uint32_t *max)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    for (int g = 0; g < G; g++) {
        lo = ends[g].first < lo ? ends[g].first : lo;
        hi = ends[g].last > hi ? ends[g].last : hi;
    }
    *min = lo;
    *max = hi;
}

/* The smallest shift s with (range >> s) < 2^bits. */
KIT_HD int lab6_digit_shift(uint32_t range, int bits)
{
    int s = 0;
    while (s < 32 && ((uint64_t)range >> s) >= ((uint64_t)1 << bits))
        s++;
    return s;
}

/* The smallest key of digit j (0 <= j <= digits), in 64 bits: boundary `digits` lies
 * past every key. */
KIT_HD uint64_t lab6_digit_lower(uint32_t min, int shift, int j)
{
    return (uint64_t)min + ((uint64_t)j << shift);
}

/* GPU r gets digits [first[r], first[r+1]); first[0] = 0, first[G] = digits. The
 * boundary before GPU r is the digit boundary whose prefix count (keys in lower
 * digits) is nearest to r x total / G (on a tie, the higher one): equal keys are never
 * split, so when one digit holds every key, one GPU receives them all. Which one:
 * the target rounds down, so on two GPUs it lies halfway (a tie: the boundary goes
 * after the keys, GPU 0 gets them) for even n, and nearer to 0 (GPU 1 gets them)
 * for odd n. */
static inline void lab6_split_digits(const uint64_t *hist, int digits, int G, int *first)
{
    uint64_t total = 0;
    for (int d = 0; d < digits; d++)
        total += hist[d];
    int d = 0;
    uint64_t prefix = 0;
    first[0] = 0;
    for (int r = 1; r < G; r++) {
        uint64_t target = total / G * r + total % G * r / G; /* floor(total * r / G) without overflow */
        while (d < digits && prefix + hist[d] <= target)
            prefix += hist[d++];
        /* prefix <= target < prefix + hist[d]: take digit d too if that ends nearer */
        if (d < digits && prefix < target && prefix + hist[d] - target <= target - prefix)
            prefix += hist[d++];
        first[r] = d;
    }
    first[G] = digits;
}

/* pos: for each shard src, digits + 1 positions in its sorted shard, pos[src * (digits
 * + 1) + j] = keys of src below digit boundary j (so pos[..j=0] = 0, pos[..digits] =
 * the shard's size). */
typedef struct {
    uint64_t offset, count;
} lab6_span;

/* The keys shard src sends to GPU dst: one run of its sorted shard. */
static inline lab6_span lab6_send_span(const uint64_t *pos, int digits, const int *first, int src, int dst)
{
    const uint64_t *p = pos + (size_t)src * (digits + 1);
    lab6_span s = { p[first[dst]], p[first[dst + 1]] - p[first[dst]] };
    return s;
}

/* Where GPU dst puts the run that src sends: runs are stored in source order. */
static inline lab6_span lab6_recv_span(const uint64_t *pos, int digits, const int *first, int dst, int src)
{
    lab6_span s = { 0, 0 };
    for (int from = 0; from <= src; from++) {
        s.offset += s.count;
        s.count = lab6_send_span(pos, digits, first, from, dst).count;
    }
    return s;
}

/* Keys GPU dst receives in all; and the global histogram (the sum over shards). */
static inline uint64_t lab6_recv_total(const uint64_t *pos, int digits, const int *first, int G, int dst)
{
    lab6_span last = lab6_recv_span(pos, digits, first, dst, G - 1);
    return last.offset + last.count;
}

static inline void lab6_global_histogram(const uint64_t *pos, int digits, int G, uint64_t *hist)
{
    for (int d = 0; d < digits; d++) {
        hist[d] = 0;
        for (int src = 0; src < G; src++)
            hist[d] += pos[(size_t)src * (digits + 1) + d + 1] - pos[(size_t)src * (digits + 1) + d];
    }
}

#endif
