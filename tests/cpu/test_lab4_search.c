/* CPU suite for lab4's shared logic (lab4_search.h, compiled here as plain C) and
 * its CPU reference: every search against brute force, then a host emulation of
 * each tiled kernel (partition kernel, tile ranges, per-thread search, serial
 * loop, exactly as the kernels call them) against the reference, at tile sizes
 * small enough that every edge case spans many tiles and at the lab's own tile
 * shapes (lab4.h). No GPU needed. A failure names the step and the helper.
 * Each test's name says its step, for one --filter per step (the lab's README,
 * "How to check"): 4.1 merge*, 4.2 sorted_search*, 4.3 lbs*, 4.4 *join*. */
#include "kit_test.h"
#include "lab4.h"
#include "lab4_search.h"

#include <stdlib.h>
#include <string.h>

/* ---- data --------------------------------------------------------------------- */

static int cmp_i32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* count sorted keys in [0, range) (range 1: all equal). */
static int32_t *sorted_keys(size_t count, int32_t range, uint64_t seed)
{
    int32_t *k = malloc((count ? count : 1) * sizeof(int32_t));
    for (size_t i = 0; i < count; i++)
        k[i] = (int32_t)kit_rand_range(seed, i, 0, range - 1);
    qsort(k, count, sizeof(int32_t), cmp_i32);
    return k;
}

/* The shapes every test runs: empty sides, one item, all keys equal, one side
 * much longer, many duplicates, few duplicates. */
typedef struct {
    size_t na, nb;
    int32_t range;
} shape;
static const shape shapes[] = {
    { 0, 0, 10 },   { 0, 7, 10 },   { 7, 0, 10 },    { 1, 1, 1 },     { 1, 50, 10 },
    { 50, 1, 10 },  { 40, 40, 1 },  { 3, 200, 20 },  { 200, 3, 20 },  { 100, 100, 5 },
    { 97, 131, 1000 }, { 64, 64, 64 }, { 250, 250, 3 }, { 1, 300, 1 }, { 300, 1, 1 },
};
#define NSHAPES (sizeof shapes / sizeof shapes[0])
/* Tile shapes (NT, VT) for the emulations: tiny, odd, and the lab's own. */
static const int tiles[][2] = { { 1, 1 },
                                { 2, 3 },
                                { 4, 3 },
                                { 3, 5 },
                                { 8, 7 },
                                { LAB4_MERGE_NT, LAB4_MERGE_VT },
                                { LAB4_SEARCH_NT, LAB4_SEARCH_VT },
                                { LAB4_LBS_NT, LAB4_LBS_VT },
                                { LAB4_JOIN_NT, LAB4_JOIN_VT } };
#define NTILES (sizeof tiles / sizeof tiles[0])
enum { MAX_VT = 64 }; /* the emulations keep one thread's items in an array this long */

/* ---- brute force ---------------------------------------------------------------- */

/* Walk the merge diag steps; how many came from A. */
static int64_t brute_split(const int32_t *a, int64_t na, const int32_t *b, int64_t nb, int64_t diag,
                           int b_first)
{
    int64_t i = 0, j = 0;
    for (int64_t k = 0; k < diag; k++) {
        int take_a = j >= nb || (i < na && (b_first ? a[i] < b[j] : a[i] <= b[j]));
        if (take_a)
            i++;
        else
            j++;
    }
    return i;
}

Test(lab4_search, bounds_match_brute_force)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        int32_t *b = sorted_keys(shapes[s].nb, shapes[s].range, 10 + s);
        for (int32_t key = -1; key <= shapes[s].range; key++) {
            int64_t lo = 0, up = 0;
            for (size_t j = 0; j < shapes[s].nb; j++) {
                lo += b[j] < key;
                up += b[j] <= key;
            }
            cr_assert(eq(i64, lab4_lower_bound(b, (int64_t)shapes[s].nb, key), lo));
            cr_assert(eq(i64, lab4_upper_bound(b, (int64_t)shapes[s].nb, key), up));
        }
        free(b);
    }
}

Test(lab4_search, merge_path_search_every_diagonal_both_tie_rules)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        int64_t na = (int64_t)shapes[s].na, nb = (int64_t)shapes[s].nb;
        int32_t *a = sorted_keys((size_t)na, shapes[s].range, 20 + s);
        int32_t *b = sorted_keys((size_t)nb, shapes[s].range, 30 + s);
        for (int b_first = 0; b_first <= 1; b_first++)
            for (int64_t d = 0; d <= na + nb; d++) {
                int64_t split = brute_split(a, na, b, nb, d, b_first);
                cr_assert(eq(i64, lab4_merge_path_search(a, na, b, nb, d, b_first), split),
                          "step 4.1, lab4_merge_path_search: shape %zu (|A|=%lld |B|=%lld) diag %lld b_first %d",
                          s, (long long)na,
                          (long long)nb, (long long)d, b_first);
                cr_assert(eq(i64, lab4_tile_merge_path_search(a, (int)na, b, (int)nb, (int)d, b_first), split),
                          "step 4.1, lab4_tile_merge_path_search: shape %zu (|A|=%lld |B|=%lld) diag %lld b_first %d",
                          s, (long long)na, (long long)nb, (long long)d, b_first);
            }
        free(a);
        free(b);
    }
}

/* The partition's second level: the search between the splits of two diagonals
 * around this one (lab4_range_between) finds the same split as the whole diagonal's, for every
 * diagonal and neighbours at 0, 1, 7 and 40 diagonals either side (clamped to
 * the ends), both tie rules. */
Test(lab4_search, merge_path_search_between_splits_equals_brute_force)
{
    static const int64_t gaps[] = { 0, 1, 7, 40 };
    enum { NGAPS = sizeof gaps / sizeof gaps[0] };
    for (size_t s = 0; s < NSHAPES; s++) {
        int64_t na = (int64_t)shapes[s].na, nb = (int64_t)shapes[s].nb, total = na + nb;
        int32_t *a = sorted_keys((size_t)na, shapes[s].range, 50 + s);
        int32_t *b = sorted_keys((size_t)nb, shapes[s].range, 60 + s);
        for (int b_first = 0; b_first <= 1; b_first++)
            for (int64_t d = 0; d <= total; d++)
                for (int lo = 0; lo < NGAPS; lo++)
                    for (int hi = 0; hi < NGAPS; hi++) {
                        int64_t d_lo = d > gaps[lo] ? d - gaps[lo] : 0;
                        int64_t d_hi = d + gaps[hi] < total ? d + gaps[hi] : total;
                        lab4_split_range r =
                            lab4_range_between(d, d_lo, brute_split(a, na, b, nb, d_lo, b_first),
                                               d_hi, brute_split(a, na, b, nb, d_hi, b_first));
                        int64_t split = lab4_merge_path_bisect(a, b, d, r.lo, r.hi, b_first);
                        cr_assert(eq(i64, split, brute_split(a, na, b, nb, d, b_first)),
                                  "step 4.1, lab4_merge_path_bisect in lab4_range_between: shape %zu (|A|=%lld "
                                  "|B|=%lld) diag %lld between %lld and %lld, b_first %d",
                                  s, (long long)na, (long long)nb, (long long)d, (long long)d_lo,
                                  (long long)d_hi, b_first);
                    }
        free(a);
        free(b);
    }
}

/* The join's gallops, past its tile (64-bit) and inside it (int): the upper
 * bound from any start that has only keys <= key before it, against brute force
 * (runs of every length, the end). */
Test(lab4_search, join_upper_bound_from_equals_brute_force)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        int64_t nb = (int64_t)shapes[s].nb;
        int32_t *b = sorted_keys((size_t)nb, shapes[s].range, 40 + s);
        for (int32_t key = -1; key <= shapes[s].range; key++) {
            int64_t up = lab4_upper_bound(b, nb, key);
            for (int64_t start = 0; start <= up; start++) {
                cr_assert(eq(i64, lab4_upper_bound_from(b, nb, start, key), up),
                          "lab4_upper_bound_from: shape %zu key %d start %lld", s, key, (long long)start);
                cr_assert(eq(i64, lab4_tile_upper_bound_from(b, (int)nb, (int)start, key), up),
                          "lab4_tile_upper_bound_from: shape %zu key %d start %lld", s, key, (long long)start);
            }
        }
        free(b);
    }
}

/* Stability is visible in the split: with all keys equal, A first puts every A
 * item before any B item; B first the opposite. */
Test(lab4_search, merge_path_search_ties)
{
    int32_t a[5] = { 7, 7, 7, 7, 7 }, b[3] = { 7, 7, 7 };
    for (int64_t d = 0; d <= 8; d++) {
        cr_assert(eq(i64, lab4_merge_path_search(a, 5, b, 3, d, 0), d < 5 ? d : 5),
                  "step 4.1, lab4_merge_path_search: all keys equal, A first, diag %lld", (long long)d);
        cr_assert(eq(i64, lab4_merge_path_search(a, 5, b, 3, d, 1), d > 3 ? d - 3 : 0),
                  "step 4.1, lab4_merge_path_search: all keys equal, B first, diag %lld", (long long)d);
    }
}

Test(lab4_search, lbs_path_search_every_diagonal)
{
    /* counts 0, 3, 0, 0, 5, 1, 0: empty objects at both ends and in the middle */
    int64_t off[] = { 0, 0, 3, 3, 3, 8, 9, 9 };
    int64_t objs = 7, outs = 9;
    for (int64_t d = 0; d <= objs + outs; d++) {
        /* brute force: merge the counting sequence with off, B first on ties */
        int64_t k = 0, j = 0;
        for (int64_t step = 0; step < d; step++) {
            if (j < objs && (k >= outs || off[j] <= k))
                j++;
            else
                k++;
        }
        cr_assert(eq(i64, lab4_lbs_path_search(0, outs, off, objs, d), k),
                  "step 4.3, lab4_lbs_path_search: offsets 0 0 3 3 3 8 9 9, diag %lld", (long long)d);
    }
}

/* ---- emulations of the tiled kernels ------------------------------------------- */

/* The partition kernel on the host: partitions[t] for t = 0 .. tiles (caller frees). */
static int64_t *merge_partitions(const int32_t *a, int64_t na, const int32_t *b, int64_t nb,
                                 int64_t nv, int b_first, int64_t *tiles)
{
    *tiles = (na + nb + nv - 1) / nv;
    int64_t *part = malloc((size_t)(*tiles + 1) * sizeof(int64_t));
    for (int64_t t = 0; t <= *tiles; t++)
        part[t] = lab4_merge_path_search(a, na, b, nb, lab4_tile_diag(t, nv, na + nb), b_first);
    return part;
}

/* v1: the partition kernel, then per tile and thread the search and serial merge;
 * with values (a_vals, b_vals, out_vals), the gather through the source indices. */
static void emulate_merge(const int32_t *a, const int32_t *a_vals, int64_t na, const int32_t *b,
                          const int32_t *b_vals, int64_t nb, int nt, int vt, int32_t *out,
                          int32_t *out_vals)
{
    cr_assert(le(int, vt, MAX_VT));
    int64_t nv = (int64_t)nt * vt, ntiles;
    int64_t *part = merge_partitions(a, na, b, nb, nv, 0, &ntiles);
    int32_t *keys = malloc((size_t)nv * sizeof(int32_t)), *vals = malloc((size_t)nv * sizeof(int32_t));
    int32_t reg[MAX_VT];
    int src[MAX_VT];
    for (int64_t t = 0; t < ntiles; t++) {
        lab4_merge_range r = lab4_merge_tile_range(part, t, nv, na, nb);
        int tile_a = (int)(r.a_end - r.a_begin), tile_b = (int)(r.b_end - r.b_begin);
        int tile_n = tile_a + tile_b;
        for (int i = 0; i < tile_n; i++) {
            keys[i] = i < tile_a ? a[r.a_begin + i] : b[r.b_begin + i - tile_a];
            if (out_vals)
                vals[i] = i < tile_a ? a_vals[r.a_begin + i] : b_vals[r.b_begin + i - tile_a];
        }
        for (int tid = 0; tid < nt; tid++) {
            int diag = tid * vt < tile_n ? tid * vt : tile_n;
            int as = (int)lab4_merge_path_search(keys, tile_a, keys + tile_a, tile_b, diag, 0);
            int count = vt < tile_n - diag ? vt : tile_n - diag;
            for (int i = 0; i < MAX_VT; i++)
                reg[i] = src[i] = 0x7eadbeef;
            lab4_serial_merge(keys, as, tile_a, tile_a + diag - as, tile_n, count, vt, reg,
                              out_vals ? src : NULL);
            for (int i = 0; i < count; i++) {
                out[t * nv + diag + i] = reg[i];
                if (out_vals) {
                    cr_assert(src[i] >= 0 && src[i] < tile_n,
                              "step 4.1, lab4_serial_merge: source index %d outside the tile", src[i]);
                    out_vals[t * nv + diag + i] = vals[src[i]];
                }
            }
            for (int i = count; i < vt; i++)
                cr_assert(reg[i] == 0x7eadbeef && src[i] == 0x7eadbeef,
                          "step 4.1, lab4_serial_merge: wrote out[%d] or src[%d] past count %d", i, i, count);
        }
    }
    free(part);
    free(keys);
    free(vals);
}

/* Origins as the problem makes them: A's then B's (lab4_origin_a/b). */
static int32_t *origins(size_t na, size_t nb)
{
    int32_t *v = malloc((na + nb + 1) * sizeof(int32_t));
    for (size_t i = 0; i < na; i++)
        v[i] = lab4_origin_a(i);
    for (size_t j = 0; j < nb; j++)
        v[na + j] = lab4_origin_b(j);
    return v;
}

/* A merge of pairs for one shape: inputs, origins and the reference merge. */
typedef struct {
    size_t na, nb, n;
    int32_t *a, *b, *vals, *ref, *ref_vals;
} pairs_case;

static pairs_case pairs_case_of(const shape *sh, uint64_t seed)
{
    pairs_case c = { sh->na, sh->nb, sh->na + sh->nb, NULL, NULL, NULL, NULL, NULL };
    c.a = sorted_keys(c.na, sh->range, seed);
    c.b = sorted_keys(c.nb, sh->range, seed + 1);
    c.vals = origins(c.na, c.nb);
    c.ref = malloc((c.n + 1) * 4);
    c.ref_vals = malloc((c.n + 1) * 4);
    lab4_ref_merge(c.a, c.vals, c.na, c.b, c.vals + c.na, c.nb, c.ref, c.ref_vals);
    return c;
}

static void pairs_case_free(pairs_case *c)
{
    free(c->a); free(c->b); free(c->vals); free(c->ref); free(c->ref_vals);
}

Test(lab4_emulate, merge_path_kernel_equals_reference_keys_and_pairs)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        pairs_case c = pairs_case_of(&shapes[s], 40 + 2 * s);
        int32_t *got = malloc((c.n + 1) * 4), *got_vals = malloc((c.n + 1) * 4);
        for (size_t t = 0; t < NTILES; t++) {
            int nt = tiles[t][0], vt = tiles[t][1];
            char msg[512];
            memset(got, 0xA5, (c.n + 1) * 4);
            emulate_merge(c.a, NULL, (int64_t)c.na, c.b, NULL, (int64_t)c.nb, nt, vt, got, NULL);
            cr_assert(eq(int, kit_compare_i32(got, c.ref, c.n, msg, sizeof msg), 0),
                      "step 4.1 (merge-path emulation: lab4_merge_path_search + lab4_serial_merge), "
                      "keys, shape %zu, NT=%d VT=%d: %s", s, nt, vt, msg);
            memset(got, 0xA5, (c.n + 1) * 4);
            memset(got_vals, 0xA5, (c.n + 1) * 4);
            emulate_merge(c.a, c.vals, (int64_t)c.na, c.b, c.vals + c.na, (int64_t)c.nb, nt, vt, got, got_vals);
            cr_assert(eq(int, lab4_compare_origins(got, got_vals, c.ref, c.ref_vals, c.n, msg, sizeof msg), 0),
                      "step 4.1 (merge-path emulation, src of lab4_serial_merge), pairs, shape %zu, "
                      "NT=%d VT=%d: %s", s, nt, vt, msg);
        }
        free(got);
        free(got_vals);
        pairs_case_free(&c);
    }
}

/* The reference merge of pairs is stable, checked independently: sorting all
 * items by (key, A before B, index) gives the same order. */
static int cmp_i64(const void *x, const void *y)
{
    int64_t p = *(const int64_t *)x, q = *(const int64_t *)y;
    return (p > q) - (p < q);
}

Test(lab4_ref, merge_of_pairs_is_a_stable_sort)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        pairs_case c = pairs_case_of(&shapes[s], 140 + 2 * s);
        /* key * 2^33 + rank, rank = i for A's item i, na + j for B's item j (keys >= 0 here) */
        int64_t *items = malloc((c.n + 1) * sizeof(int64_t));
        for (size_t k = 0; k < c.n; k++)
            items[k] = (int64_t)(k < c.na ? c.a[k] : c.b[k - c.na]) * ((int64_t)1 << 33) + (int64_t)k;
        qsort(items, c.n, sizeof(int64_t), cmp_i64);
        for (size_t k = 0; k < c.n; k++) {
            size_t rank = (size_t)(items[k] % ((int64_t)1 << 33));
            int32_t want = rank < c.na ? lab4_origin_a(rank) : lab4_origin_b(rank - c.na);
            cr_assert(eq(i32, c.ref[k], (int32_t)(items[k] >> 33)), "shape %zu key %zu", s, k);
            cr_assert(eq(i32, c.ref_vals[k], want), "shape %zu value %zu", s, k);
        }
        free(items);
        pairs_case_free(&c);
    }
}

/* The check of a merge of pairs catches a merge that puts B first on equal keys
 * (the keys are then all right) and names the tie rule; it passes the stable one. */
Test(lab4_ref, origin_check_fails_a_b_first_merge)
{
    enum { NA = 300, NB = 200 };
    int32_t *a = sorted_keys(NA, 20, 7), *b = sorted_keys(NB, 20, 8); /* many ties across A and B */
    int32_t *vals = origins(NA, NB);
    int32_t ref[NA + NB], ref_vals[NA + NB], got[NA + NB], got_vals[NA + NB];
    lab4_ref_merge(a, vals, NA, b, vals + NA, NB, ref, ref_vals);
    char msg[512];
    cr_assert(eq(int, lab4_compare_origins(ref, ref_vals, ref, ref_vals, NA + NB, msg, sizeof msg), 0));
    /* B first on ties: merge B with A's items after it (B plays the first array) */
    lab4_ref_merge(b, vals + NA, NB, a, vals, NA, got, got_vals);
    cr_assert(eq(int, kit_compare_i32(got, ref, NA + NB, msg, sizeof msg), 0), "the keys agree: %s", msg);
    cr_assert(eq(int, lab4_compare_origins(got, got_vals, ref, ref_vals, NA + NB, msg, sizeof msg), 1));
    cr_assert(strstr(msg, "not stable") != NULL, "the message names the tie rule: %s", msg);
    /* equal keys of A in the wrong order (A stable, but its items swapped) */
    memcpy(got_vals, ref_vals, sizeof got_vals);
    for (int k = 1; k < NA + NB; k++)
        if (ref[k] == ref[k - 1] && ref_vals[k] >= 0 && ref_vals[k - 1] >= 0) {
            got_vals[k] = ref_vals[k - 1];
            got_vals[k - 1] = ref_vals[k];
            break;
        }
    cr_assert(eq(int, lab4_compare_origins(ref, got_vals, ref, ref_vals, NA + NB, msg, sizeof msg), 1), "%s", msg);
    /* a wrong key is reported as such */
    memcpy(got, ref, sizeof got);
    got[17]++;
    cr_assert(eq(int, lab4_compare_origins(got, ref_vals, ref, ref_vals, NA + NB, msg, sizeof msg), 1));
    cr_assert(strstr(msg, "not stable") == NULL, "%s", msg);
    free(a); free(b); free(vals);
}

/* The tile ranges cut A and B into consecutive intervals, NV items a tile (fewer
 * in the last), at every lab tile shape and the tiny ones. */
Test(lab4_search, merge_tile_ranges_cover_the_inputs)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        int64_t na = (int64_t)shapes[s].na, nb = (int64_t)shapes[s].nb;
        int32_t *a = sorted_keys((size_t)na, shapes[s].range, 160 + s);
        int32_t *b = sorted_keys((size_t)nb, shapes[s].range, 170 + s);
        for (size_t t = 0; t < NTILES; t++)
            for (int b_first = 0; b_first <= 1; b_first++) {
                int64_t nv = (int64_t)tiles[t][0] * tiles[t][1], ntiles;
                int64_t *part = merge_partitions(a, na, b, nb, nv, b_first, &ntiles);
                int64_t a_next = 0, b_next = 0;
                for (int64_t k = 0; k < ntiles; k++) {
                    lab4_merge_range r = lab4_merge_tile_range(part, k, nv, na, nb);
                    cr_assert(r.a_begin == a_next && r.b_begin == b_next,
                              "step 4.1, partitions from lab4_merge_path_search: shape %zu tile %lld starts "
                              "where the last ended", s, (long long)k);
                    cr_assert(r.a_end >= r.a_begin && r.b_end >= r.b_begin,
                              "step 4.1, partitions from lab4_merge_path_search: shape %zu tile %lld", s,
                              (long long)k);
                    int64_t items = (r.a_end - r.a_begin) + (r.b_end - r.b_begin);
                    cr_assert(eq(i64, items, k + 1 < ntiles ? nv : na + nb - k * nv),
                              "step 4.1, partitions from lab4_merge_path_search: shape %zu tile %lld size", s,
                              (long long)k);
                    a_next = r.a_end;
                    b_next = r.b_end;
                }
                cr_assert(a_next == na && b_next == nb,
                          "step 4.1, partitions from lab4_merge_path_search: shape %zu: the tiles cover A and B", s);
                free(part);
            }
        free(a);
        free(b);
    }
}

/* v2: the sorted-search kernel (halo, shared result slots, coalesced store). */
static void emulate_search(const int32_t *a, int64_t na, const int32_t *b, int64_t nb, int nt, int vt,
                           int upper, int32_t *a_bound, int32_t *b_bound, uint8_t *a_match,
                           uint8_t *b_match)
{
    int64_t nv = (int64_t)nt * vt, ntiles;
    int64_t *part = merge_partitions(a, na, b, nb, nv, upper, &ntiles);
    int32_t *keys = malloc((size_t)nv * sizeof(int32_t)), *bound_s = malloc((size_t)nv * sizeof(int32_t));
    uint8_t *match_s = malloc((size_t)nv);
    for (int64_t t = 0; t < ntiles; t++) {
        lab4_merge_range r = lab4_merge_tile_range(part, t, nv, na, nb);
        int64_t a0 = r.a_begin, b0 = r.b_begin, b1 = r.b_end;
        int tile_a = (int)(r.a_end - a0), tile_b = (int)(b1 - b0), tile_n = tile_a + tile_b;
        for (int i = 0; i < tile_n; i++)
            keys[i] = i < tile_a ? a[a0 + i] : b[b0 + i - tile_a];
        lab4_halo halo = lab4_tile_halo(a, b, nb, r);
        memset(bound_s, 0xA5, (size_t)nv * sizeof(int32_t));
        memset(match_s, 0xA5, (size_t)nv);
        for (int tid = 0; tid < nt; tid++) {
            int diag = tid * vt < tile_n ? tid * vt : tile_n;
            int as = (int)lab4_merge_path_search(keys, tile_a, keys + tile_a, tile_b, diag, upper);
            int count = vt < tile_n - diag ? vt : tile_n - diag;
            lab4_serial_search(keys, tile_a, tile_b, as, diag - as, count, vt, upper, a0, b0, halo,
                               bound_s, bound_s + tile_a, a_match ? match_s : NULL,
                               b_match ? match_s + tile_a : NULL);
        }
        for (int i = 0; i < tile_n; i++) {
            if (i < tile_a) {
                a_bound[a0 + i] = bound_s[i];
                if (a_match)
                    a_match[a0 + i] = match_s[i];
            } else {
                b_bound[b0 + i - tile_a] = bound_s[i];
                if (b_match)
                    b_match[b0 + i - tile_a] = match_s[i];
            }
        }
    }
    free(part);
    free(keys);
    free(bound_s);
    free(match_s);
}

Test(lab4_emulate, sorted_search_kernel_equals_reference)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        size_t na = shapes[s].na, nb = shapes[s].nb;
        int32_t *a = sorted_keys(na, shapes[s].range, 60 + s);
        int32_t *b = sorted_keys(nb, shapes[s].range, 70 + s);
        int32_t *ra = malloc((na + 1) * 4), *rb = malloc((nb + 1) * 4);
        int32_t *ga = malloc((na + 1) * 4), *gb = malloc((nb + 1) * 4);
        uint8_t *rma = malloc(na + 1), *rmb = malloc(nb + 1), *gma = malloc(na + 1), *gmb = malloc(nb + 1);
        lab4_ref_search(a, na, b, nb, ra, rb, rma, rmb);
        for (size_t t = 0; t < NTILES; t++) {
            int nt = tiles[t][0], vt = tiles[t][1];
            memset(ga, 0xA5, (na + 1) * 4);
            memset(gb, 0xA5, (nb + 1) * 4);
            memset(gma, 0xA5, na + 1);
            memset(gmb, 0xA5, nb + 1);
            emulate_search(a, (int64_t)na, b, (int64_t)nb, nt, vt, 0, ga, gb, gma, gmb);
            for (size_t i = 0; i < na; i++) {
                cr_assert(eq(i32, ga[i], ra[i]), "step 4.2, lab4_serial_search (upper = 0): shape %zu NT=%d VT=%d: lower bound of a[%zu]", s, nt, vt, i);
                cr_assert(eq(u8, gma[i], rma[i]), "step 4.2, lab4_serial_search (upper = 0): shape %zu NT=%d VT=%d: a_match[%zu]", s, nt, vt, i);
            }
            for (size_t j = 0; j < nb; j++) {
                cr_assert(eq(i32, gb[j], rb[j]), "step 4.2, lab4_serial_search (upper = 0): shape %zu NT=%d VT=%d: upper bound of b[%zu]", s, nt, vt, j);
                cr_assert(eq(u8, gmb[j], rmb[j]), "step 4.2, lab4_serial_search (upper = 0): shape %zu NT=%d VT=%d: b_match[%zu]", s, nt, vt, j);
            }
            /* B first: upper bounds of A in B, lower bounds of B in A */
            emulate_search(a, (int64_t)na, b, (int64_t)nb, nt, vt, 1, ga, gb, NULL, NULL);
            for (size_t i = 0; i < na; i++)
                cr_assert(eq(i64, (int64_t)ga[i], lab4_upper_bound(b, (int64_t)nb, a[i])),
                          "step 4.2, lab4_serial_search (upper = 1): shape %zu NT=%d VT=%d: upper bound of a[%zu]", s, nt, vt, i);
            for (size_t j = 0; j < nb; j++)
                cr_assert(eq(i64, (int64_t)gb[j], lab4_lower_bound(a, (int64_t)na, b[j])),
                          "step 4.2, lab4_serial_search (upper = 1): shape %zu NT=%d VT=%d: lower bound of b[%zu]", s, nt, vt, j);
        }
        free(a); free(b); free(ra); free(rb); free(ga); free(gb);
        free(rma); free(rmb); free(gma); free(gmb);
    }
}

/* The fused join's chunk searches (lab4_tile_lbs_path_search,
 * lab4_tile_serial_lbs: int cursors) against the general ones, for every
 * diagonal of small offset arrays (empty objects at the ends and in the middle,
 * random counts) and, for a tile whose rows pass 2^31 (one object of 3e9 rows),
 * for the diagonals around each object's start and the ends: the same split,
 * and from it the same objects for VT steps. */
static void check_tile_lbs_at(const int64_t *off, int objs, int64_t outs, int64_t d)
{
    enum { VT = 9 };
    int64_t k = lab4_lbs_path_search(0, outs, off, objs, d);
    cr_assert(eq(i64, lab4_tile_lbs_path_search(outs, off, objs, d), k),
              "step 4.3, lab4_tile_lbs_path_search (against lab4_lbs_path_search): %d objects, %lld outputs, diag %lld", objs, (long long)outs,
              (long long)d);
    int64_t left = outs + objs - d;
    int count = left < VT ? (int)left : VT;
    int32_t want[VT], got[VT];
    memset(want, 0xA5, sizeof want);
    memset(got, 0x5A, sizeof got);
    lab4_serial_lbs(off, 0, objs, k, k, d - k, count, VT, want);
    lab4_tile_serial_lbs(off, objs, k, (int)(d - k), count, VT, got);
    int emitted = 0;
    for (int64_t step = 0, o = d - k; step < count; step++) /* outputs among the steps */
        if (o < objs && off[o] <= k + emitted)
            o++;
        else
            emitted++;
    for (int j = 0; j < emitted; j++)
        cr_assert(eq(i32, got[j], want[j]), "step 4.3, lab4_tile_serial_lbs (against lab4_serial_lbs): diag %lld, output %d of the thread",
                  (long long)d, j);
}

Test(lab4_search, lbs_tile_searches_equal_the_general_ones)
{
    int64_t small[] = { 0, 0, 3, 3, 3, 8, 9, 9 };
    for (int64_t d = 0; d <= 7 + 9; d++)
        check_tile_lbs_at(small, 7, 9, d);
    srand(77);
    for (int shape = 0; shape < 20; shape++) {
        int objs = 1 + rand() % 60;
        int64_t off[64], outs = 0;
        for (int j = 0; j < objs; j++) {
            off[j] = outs;
            outs += rand() % 4 == 0 ? 0 : rand() % 7;
        }
        for (int64_t d = 0; d <= outs + objs; d++)
            check_tile_lbs_at(off, objs, outs, d);
    }
    /* counts 2, 3e9, 0, 5: the rows pass 2^31 inside one tile */
    int64_t big[] = { 0, 2, 3000000002LL, 3000000002LL };
    int64_t big_outs = 3000000007LL, starts[] = { 0, 2, 3000000002LL, big_outs };
    for (int s = 0; s < 4; s++)
        for (int64_t d = starts[s] - 12; d <= starts[s] + 4 + 12; d++)
            if (d >= 0 && d <= big_outs + 4)
                check_tile_lbs_at(big, 4, big_outs, d);
}

/* The LBS partition kernel on the host: partitions[t] for t = 0 .. tiles (caller frees). */
static int64_t *lbs_partitions(const int64_t *offsets, int64_t objs, int64_t nv, int64_t *tiles)
{
    int64_t outs = offsets[objs];
    *tiles = (outs + objs + nv - 1) / nv;
    int64_t *part = malloc((size_t)(*tiles + 1) * sizeof(int64_t));
    for (int64_t t = 0; t <= *tiles; t++)
        part[t] = lab4_lbs_path_search(0, outs, offsets, objs, lab4_tile_diag(t, nv, outs + objs));
    return part;
}

/* v3 and the join's expand: the LBS tile routine (lab4_tile_lbs) on the host. */
static void emulate_lbs(const int64_t *offsets, int64_t objs, int nt, int vt, int32_t *obj,
                        int32_t *rank)
{
    int64_t outs = offsets[objs], nv = (int64_t)nt * vt, ntiles;
    int64_t *part = lbs_partitions(offsets, objs, nv, &ntiles);
    int64_t *off_s = malloc((size_t)(nv + 1) * sizeof(int64_t));
    int32_t *obj_s = malloc((size_t)nv * sizeof(int32_t));
    for (int64_t t = 0; t < ntiles; t++) {
        lab4_lbs_range r = lab4_lbs_tile_range(part, t, nv, outs, objs);
        int64_t out_begin = r.out_begin, out_end = r.out_end, obj_begin = r.obj_begin, obj_end = r.obj_end;
        int tile_objs = (int)(obj_end - obj_begin), tile_n = (int)(out_end - out_begin) + tile_objs;
        for (int i = 0; i <= tile_objs; i++)
            off_s[i] = obj_begin - 1 + i >= 0 ? offsets[obj_begin - 1 + i] : 0;
        for (int tid = 0; tid < nt; tid++) {
            int diag = tid * vt < tile_n ? tid * vt : tile_n;
            int64_t split = lab4_lbs_path_search(out_begin, out_end - out_begin, off_s + 1, tile_objs, diag);
            int count = vt < tile_n - diag ? vt : tile_n - diag;
            lab4_serial_lbs(off_s + 1, obj_begin, obj_end, out_begin, out_begin + split,
                            obj_begin + diag - split, count, vt, obj_s);
        }
        for (int64_t k = out_begin; k < out_end; k++) {
            int32_t o = obj_s[k - out_begin];
            cr_assert(o >= obj_begin - 1 && o < obj_end,
                      "step 4.3, lab4_serial_lbs: output %lld got object %d, outside the tile's %lld .. %lld",
                      (long long)k, o, (long long)(obj_begin - 1), (long long)(obj_end - 1));
            obj[k] = o;
            rank[k] = (int32_t)(k - off_s[o - obj_begin + 1]);
        }
    }
    free(part);
    free(off_s);
    free(obj_s);
}

/* The LBS tile ranges cut outputs and objects into consecutive intervals, NV
 * items a tile (fewer in the last). */
Test(lab4_search, lbs_tile_ranges_cover_outputs_and_objects)
{
    enum { OBJS = 200 };
    int64_t off[OBJS + 1];
    off[0] = 0;
    for (int j = 0; j < OBJS; j++) /* counts 0..9, a long run of empty objects in the middle */
        off[j + 1] = off[j] + (j >= 80 && j < 120 ? 0 : kit_rand_range(9, (uint64_t)j, 0, 9));
    for (size_t t = 0; t < NTILES; t++) {
        int64_t nv = (int64_t)tiles[t][0] * tiles[t][1], ntiles, outs = off[OBJS];
        int64_t *part = lbs_partitions(off, OBJS, nv, &ntiles);
        int64_t out_next = 0, obj_next = 0;
        for (int64_t k = 0; k < ntiles; k++) {
            lab4_lbs_range r = lab4_lbs_tile_range(part, k, nv, outs, OBJS);
            cr_assert(r.out_begin == out_next && r.obj_begin == obj_next,
                      "step 4.3, partitions from lab4_lbs_path_search: tile %lld starts where the last ended",
                      (long long)k);
            int64_t items = (r.out_end - r.out_begin) + (r.obj_end - r.obj_begin);
            cr_assert(eq(i64, items, k + 1 < ntiles ? nv : outs + OBJS - k * nv),
                      "step 4.3, partitions from lab4_lbs_path_search: tile %lld size", (long long)k);
            /* the tile's first output belongs to an object that started at or before it */
            if (r.out_end > r.out_begin)
                cr_assert(r.obj_begin == 0 || off[r.obj_begin - 1] <= r.out_begin,
                          "step 4.3, partitions from lab4_lbs_path_search: tile %lld", (long long)k);
            out_next = r.out_end;
            obj_next = r.obj_end;
        }
        cr_assert(out_next == outs && obj_next == OBJS,
                  "step 4.3, partitions from lab4_lbs_path_search: the tiles cover outputs and objects");
        free(part);
    }
}

static void check_lbs(const int64_t *offsets, int64_t objs, const char *what)
{
    int64_t outs = offsets[objs];
    int32_t *ro = malloc((size_t)(outs + 1) * 4), *rr = malloc((size_t)(outs + 1) * 4);
    int32_t *go = malloc((size_t)(outs + 1) * 4), *gr = malloc((size_t)(outs + 1) * 4);
    lab4_ref_lbs(offsets, (size_t)objs, ro, rr);
    for (size_t t = 0; t < NTILES; t++) {
        memset(go, 0xA5, (size_t)(outs + 1) * 4);
        memset(gr, 0xA5, (size_t)(outs + 1) * 4);
        emulate_lbs(offsets, objs, tiles[t][0], tiles[t][1], go, gr);
        char msg[256];
        cr_assert(eq(int, kit_compare_i32(go, ro, (size_t)outs, msg, sizeof msg), 0), "step 4.3 (LBS emulation: lab4_lbs_path_search + lab4_serial_lbs), %s NT=%d VT=%d objects: %s",
                  what, tiles[t][0], tiles[t][1], msg);
        cr_assert(eq(int, kit_compare_i32(gr, rr, (size_t)outs, msg, sizeof msg), 0), "step 4.3 (LBS emulation: lab4_lbs_path_search + lab4_serial_lbs), %s NT=%d VT=%d ranks: %s",
                  what, tiles[t][0], tiles[t][1], msg);
    }
    free(ro); free(rr); free(go); free(gr);
}

Test(lab4_emulate, lbs_kernel_equals_reference)
{
    enum { OBJS = 300 };
    int64_t off[OBJS + 1];
    /* random counts 0..6 */
    off[0] = 0;
    for (int j = 0; j < OBJS; j++)
        off[j + 1] = off[j] + kit_rand_range(5, (uint64_t)j, 0, 6);
    check_lbs(off, OBJS, "random counts");
    /* every object empty but one huge one in the middle */
    for (int j = 0; j <= OBJS; j++)
        off[j] = j <= 150 ? 0 : 5000;
    check_lbs(off, OBJS, "one huge object");
    /* all empty: no outputs */
    for (int j = 0; j <= OBJS; j++)
        off[j] = 0;
    check_lbs(off, OBJS, "all empty");
    /* one output each, and a single object */
    for (int j = 0; j <= OBJS; j++)
        off[j] = j;
    check_lbs(off, OBJS, "one each");
    int64_t single[2] = { 0, 777 };
    check_lbs(single, 1, "single object");
    int64_t empty_last[4] = { 0, 2, 5, 5 };
    check_lbs(empty_last, 3, "empty last object");
}

/* Whether key occurs in b[0..nb) (brute force). */
static int contains_brute(const int32_t *b, size_t nb, int32_t key)
{
    for (size_t j = 0; j < nb; j++)
        if (b[j] == key)
            return 1;
    return 0;
}

/* The join on the host, as v4 composes it. join_search_scan tile by tile, in
 * order (so the look-back is a running count): the tile's keys and halo, the
 * run past the tile (lab4_upper_bound_from), each thread's one search (A first,
 * lab4_tile_merge_path_search: lower bounds, and B's flags in first_s's B slots,
 * a byte each, as join_b_matched keeps them), an A item's match from the tile's
 * B key at its lower bound and its upper bound from the tile's B keys
 * (lab4_tile_upper_bound_from from its lower bound + 1, or
 * the run past the tile), the rows of every item (lab4_join_count) and first
 * matches, the tile's exclusive scan, the stores of
 * offsets, first_b and the kept B rows. Then, when the rows fit in cap, the LBS
 * emulation over the A rows and lab4_join_row for every row, the B rows after
 * them. Returns the row count (also when it does not fit; nothing written then). */
static size_t emulate_join(const int32_t *a, size_t na, const int32_t *b, size_t nb, lab4_join_type type,
                           int nt, int vt, int32_t *out_a, int32_t *out_b, size_t cap)
{
    int keep_a = type == LAB4_LEFT || type == LAB4_OUTER;
    int keep_b = type == LAB4_RIGHT || type == LAB4_OUTER;
    int64_t nv = (int64_t)nt * vt, ntiles;
    int64_t *part = merge_partitions(a, (int64_t)na, b, (int64_t)nb, nv, 0, &ntiles);
    int64_t *offsets = malloc((na + 1) * sizeof(int64_t));
    int32_t *first = malloc((na + 1) * 4), *b_rows = malloc((nb + 1) * 4);
    int32_t *keys = malloc((size_t)nv * 4), *lower_s = malloc((size_t)nv * 4), *first_s = malloc((size_t)nv * 4);
    int64_t *offset_s = malloc((size_t)nv * sizeof(int64_t));
    int64_t a_rows_before = 0, b_rows_before = 0; /* the look-back's two running counts */
    for (int64_t t = 0; t < ntiles; t++) {
        lab4_merge_range r = lab4_merge_tile_range(part, t, nv, (int64_t)na, (int64_t)nb);
        int64_t a0 = r.a_begin, b0 = r.b_begin;
        int tile_a = (int)(r.a_end - a0), tile_b = (int)(r.b_end - b0), tile_n = tile_a + tile_b;
        for (int i = 0; i < tile_n; i++)
            keys[i] = i < tile_a ? a[a0 + i] : b[b0 + i - tile_a];
        lab4_halo halo = lab4_tile_halo(a, b, (int64_t)nb, r);
        int64_t run_end = halo.has_b_next && tile_a > 0 && a[r.a_end - 1] == halo.b_next
                              ? lab4_upper_bound_from(b, (int64_t)nb, r.b_end, halo.b_next)
                              : -1;
        memset(lower_s, 0xA5, (size_t)nv * 4);
        memset(first_s, 0xA5, (size_t)nv * 4);
        uint8_t *b_matched = (uint8_t *)(first_s + tile_a); /* B item j's flag at byte j */
        for (int tid = 0; tid < nt; tid++) {
            int diag = tid * vt < tile_n ? tid * vt : tile_n;
            int steps = vt < tile_n - diag ? vt : tile_n - diag;
            int split = lab4_tile_merge_path_search(keys, tile_a, keys + tile_a, tile_b, diag, 0);
            lab4_serial_search(keys, tile_a, tile_b, split, diag - split, steps, vt, 0, a0, b0, halo, lower_s,
                               NULL, NULL, b_matched);
        }
        int64_t tile_rows = 0;
        for (int i = 0; i < tile_n; i++) {
            int64_t c;
            if (i < tile_a) {
                int64_t lower = lower_s[i], upper = lower;
                int at = (int)(lower - b0);
                int past = run_end >= 0 && keys[i] == halo.b_next; /* the run that goes on past the tile */
                int matched = past || (at < tile_b && keys[tile_a + at] == keys[i]);
                cr_assert(eq(int, matched, contains_brute(b, nb, keys[i])),
                          "step 4.4 (join emulation): tile %lld, match of a[%lld] (B's key at its lower bound)",
                          (long long)t, (long long)(a0 + i));
                if (past)
                    upper = run_end;
                else if (matched)
                    upper = b0 + lab4_tile_upper_bound_from(keys + tile_a, tile_b, at + 1, keys[i]);
                cr_assert(eq(i64, lower, lab4_lower_bound(b, (int64_t)nb, keys[i])),
                          "step 4.4 (join emulation): tile %lld, lower bound of a[%lld]", (long long)t,
                          (long long)(a0 + i));
                cr_assert(eq(i64, upper, lab4_upper_bound(b, (int64_t)nb, keys[i])),
                          "step 4.4 (join emulation): tile %lld, upper bound of a[%lld]", (long long)t,
                          (long long)(a0 + i));
                c = lab4_join_count(1, upper - lower, 0, keep_a, keep_b);
                first_s[i] = upper > lower ? (int32_t)lower : -1;
            } else {
                cr_assert(eq(u8, b_matched[i - tile_a], (uint8_t)contains_brute(a, na, keys[i])),
                          "step 4.4 (join emulation, lab4_serial_search): tile %lld, flag of b[%lld] in first's B slots",
                          (long long)t, (long long)(b0 + i - tile_a));
                c = lab4_join_count(0, 0, b_matched[i - tile_a], keep_a, keep_b);
            }
            offset_s[i] = tile_rows;
            tile_rows += c;
        }
        int64_t tile_a_rows = tile_a < tile_n ? offset_s[tile_a] : tile_rows;
        for (int i = 0; i < tile_n; i++) {
            if (i < tile_a) {
                offsets[a0 + i] = a_rows_before + offset_s[i];
                first[a0 + i] = first_s[i];
            } else if (lab4_join_count(0, 0, b_matched[i - tile_a], keep_a, keep_b))
                b_rows[b_rows_before + offset_s[i] - tile_a_rows] = (int32_t)(b0 + i - tile_a);
        }
        a_rows_before += tile_a_rows;
        b_rows_before += tile_rows - tile_a_rows;
    }
    offsets[na] = a_rows_before;
    size_t rows = (size_t)(a_rows_before + b_rows_before);
    if (rows <= cap) {
        size_t a_rows = (size_t)a_rows_before;
        if (a_rows > 0) {
            int32_t *obj = malloc(a_rows * 4), *rank = malloc(a_rows * 4);
            emulate_lbs(offsets, (int64_t)na, nt, vt, obj, rank);
            for (size_t k = 0; k < a_rows; k++)
                lab4_join_row(obj[k], rank[k], (int64_t)na, first[obj[k]], &out_a[k], &out_b[k]);
            free(obj);
            free(rank);
        }
        for (size_t u = 0; a_rows + u < rows; u++)
            lab4_join_row((int64_t)na + b_rows[u], 0, (int64_t)na, -1, &out_a[a_rows + u], &out_b[a_rows + u]);
    }
    free(part); free(offsets); free(first); free(b_rows);
    free(keys); free(lower_s); free(first_s); free(offset_s);
    return rows;
}

/* The lecture's example (section 8: Baxter, "Turning the Crank", the relational
 * join slide), typed in as the slide shows it: keys are letters, "E2" is the
 * third E of its table, "---" the missing side. This is the spec, not output of
 * our code. */
static const char seed_a[] = "AABEEEEFFGHHJJMM";
static const char seed_b[] = "AABBBCCFGGHILL";
typedef struct {
    int a_index;
    const char *a_key, *b_key;
    int b_index;
    const char *type;
} seed_row;
static const seed_row seed_rows[26] = {
    { 0, "A0", "A0", 0, "inner" },   { 0, "A0", "A1", 1, "inner" },  { 1, "A1", "A0", 0, "inner" },
    { 1, "A1", "A1", 1, "inner" },   { 2, "B0", "B0", 2, "inner" },  { 2, "B0", "B1", 3, "inner" },
    { 2, "B0", "B2", 4, "inner" },   { 3, "E0", "---", -1, "left" }, { 4, "E1", "---", -1, "left" },
    { 5, "E2", "---", -1, "left" },  { 6, "E3", "---", -1, "left" }, { 7, "F0", "F0", 7, "inner" },
    { 8, "F1", "F0", 7, "inner" },   { 9, "G0", "G0", 8, "inner" },  { 9, "G0", "G1", 9, "inner" },
    { 10, "H0", "H0", 10, "inner" }, { 11, "H1", "H0", 10, "inner" }, { 12, "J0", "---", -1, "left" },
    { 13, "J1", "---", -1, "left" }, { 14, "M0", "---", -1, "left" }, { 15, "M1", "---", -1, "left" },
    { -1, "---", "C0", 5, "right" }, { -1, "---", "C1", 6, "right" }, { -1, "---", "I0", 11, "right" },
    { -1, "---", "L0", 12, "right" }, { -1, "---", "L1", 13, "right" },
};

static void seed_tables(int32_t *a, int32_t *b)
{
    for (int i = 0; i < 16; i++)
        a[i] = seed_a[i];
    for (int j = 0; j < 14; j++)
        b[j] = seed_b[j];
}

/* Our transcription of the slide's table is self-consistent: the key labels name
 * the rows of the tables, and the type follows from which side is missing. */
Test(lab4_join_seed, transcription_is_consistent)
{
    for (int r = 0; r < 26; r++) {
        const seed_row *s = &seed_rows[r];
        if (s->a_index >= 0)
            cr_assert(eq(chr, s->a_key[0], seed_a[s->a_index]), "row %d", r);
        if (s->b_index >= 0)
            cr_assert(eq(chr, s->b_key[0], seed_b[s->b_index]), "row %d", r);
        const char *type = s->a_index < 0 ? "right" : s->b_index < 0 ? "left" : "inner";
        cr_assert(eq(str, (char *)s->type, (char *)type), "row %d", r);
    }
}

/* Rows of the slide's table that a join type keeps, in the slide's order. */
static size_t seed_expected(lab4_join_type type, int32_t *ea, int32_t *eb)
{
    size_t n = 0;
    for (int r = 0; r < 26; r++) {
        const char *t = seed_rows[r].type;
        int keep = !strcmp(t, "inner") || (!strcmp(t, "left") && (type == LAB4_LEFT || type == LAB4_OUTER)) ||
                   (!strcmp(t, "right") && (type == LAB4_RIGHT || type == LAB4_OUTER));
        if (keep) {
            ea[n] = seed_rows[r].a_index;
            eb[n] = seed_rows[r].b_index;
            n++;
        }
    }
    return n;
}

Test(lab4_join_seed, reference_and_emulation_reproduce_the_seed_table)
{
    int32_t a[16], b[14], ea[26], eb[26], ga[32], gb[32];
    seed_tables(a, b);
    static const size_t seed_counts[4] = { 13, 21, 18, 26 }; /* inner, left, right, outer */
    for (lab4_join_type t = LAB4_INNER; t <= LAB4_OUTER; t++) {
        size_t n = seed_expected(t, ea, eb);
        cr_assert(eq(sz, n, seed_counts[t]));
        cr_assert(eq(sz, lab4_ref_join_rows(a, 16, b, 14, t), n), "%s join rows", lab4_join_name(t));
        lab4_ref_join(a, 16, b, 14, t, ga, gb, n);
        for (size_t r = 0; r < n; r++) {
            cr_assert(eq(i32, ga[r], ea[r]), "%s join, reference, row %zu: a_index", lab4_join_name(t), r);
            cr_assert(eq(i32, gb[r], eb[r]), "%s join, reference, row %zu: b_index", lab4_join_name(t), r);
        }
        for (size_t tl = 0; tl < NTILES; tl++) {
            memset(ga, 0xA5, sizeof ga);
            memset(gb, 0xA5, sizeof gb);
            size_t rows = emulate_join(a, 16, b, 14, t, tiles[tl][0], tiles[tl][1], ga, gb, 32);
            cr_assert(eq(sz, rows, n), "step 4.4 (join emulation, lab4_join_count): %s join, NT=%d VT=%d: rows",
                      lab4_join_name(t), tiles[tl][0], tiles[tl][1]);
            for (size_t r = 0; r < n; r++) {
                cr_assert(eq(i32, ga[r], ea[r]), "step 4.4 (join emulation): %s join, NT=%d VT=%d, row %zu: a_index",
                          lab4_join_name(t), tiles[tl][0], tiles[tl][1], r);
                cr_assert(eq(i32, gb[r], eb[r]), "step 4.4 (join emulation): %s join, NT=%d VT=%d, row %zu: b_index",
                          lab4_join_name(t), tiles[tl][0], tiles[tl][1], r);
            }
        }
    }
}

/* Baxter's inner-join slide (lecture section 8): A = A A B D F F F F G, B = A A A B C E E F F. */
Test(lab4_join_seed, inner_join_slide_bounds_counts_and_scan)
{
    const char *ka = "AABDFFFFG", *kb = "AAABCEEFF";
    int32_t a[9], b[9], lower[9], upper[9], b_up[9];
    uint8_t am[9], bm[9];
    for (int i = 0; i < 9; i++) {
        a[i] = ka[i];
        b[i] = kb[i];
    }
    static const int32_t seed_lb[9] = { 0, 0, 3, 5, 7, 7, 7, 7, 9 };
    static const int32_t seed_ub[9] = { 3, 3, 4, 5, 9, 9, 9, 9, 9 };
    static const int64_t seed_counts[9] = { 3, 3, 1, 0, 2, 2, 2, 2, 0 };
    static const int64_t seed_scan[10] = { 0, 3, 6, 7, 7, 9, 11, 13, 15, 15 };
    emulate_search(a, 9, b, 9, 2, 3, 0, lower, b_up, am, bm);
    emulate_search(a, 9, b, 9, 2, 3, 1, upper, b_up, NULL, NULL);
    int64_t scan = 0;
    for (int i = 0; i < 9; i++) {
        cr_assert(eq(i32, lower[i], seed_lb[i]), "steps 4.1-4.2 (sorted-search emulation): LB[%d]", i);
        cr_assert(eq(i32, upper[i], seed_ub[i]), "steps 4.1-4.2 (sorted-search emulation, upper = 1): UB[%d]", i);
        int64_t c = lab4_join_count(1, upper[i] - lower[i], 0, 0, 0);
        cr_assert(eq(i64, c, seed_counts[i]), "step 4.4, lab4_join_count: COUNTS[%d]", i);
        cr_assert(eq(i64, scan, seed_scan[i]), "step 4.4, lab4_join_count: SCAN[%d]", i);
        scan += c;
    }
    cr_assert(eq(i64, scan, seed_scan[9]));
    cr_assert(eq(sz, lab4_ref_join_rows(a, 9, b, 9, LAB4_INNER), (size_t)15));
}

Test(lab4_emulate, join_equals_hash_join_reference)
{
    static const int dups_levels[] = { 1, 2, 4 };
    for (size_t s = 0; s < NSHAPES; s++)
        for (int d = 0; d < 3; d++) {
            size_t na = shapes[s].na, nb = shapes[s].nb;
            int32_t *a = malloc((na + 1) * 4), *b = malloc((nb + 1) * 4);
            if (shapes[s].range == 1) { /* all keys equal: every pair matches */
                for (size_t i = 0; i < na; i++) a[i] = 3;
                for (size_t j = 0; j < nb; j++) b[j] = 3;
            } else {
                lab4_make_table(a, na, dups_levels[d], 80 + s);
                lab4_make_table(b, nb, dups_levels[d], 90 + s);
            }
            for (lab4_join_type t = LAB4_INNER; t <= LAB4_OUTER; t++) {
                size_t rows = lab4_ref_join_rows(a, na, b, nb, t);
                int32_t *ra = malloc((rows + 1) * 4), *rb = malloc((rows + 1) * 4);
                int32_t *ga = malloc((rows + 1) * 4), *gb = malloc((rows + 1) * 4);
                lab4_ref_join(a, na, b, nb, t, ra, rb, rows);
                for (size_t tl = 0; tl < NTILES; tl += 2) {
                    size_t got = emulate_join(a, na, b, nb, t, tiles[tl][0], tiles[tl][1], ga, gb, rows);
                    cr_assert(eq(sz, got, rows), "step 4.4 (join emulation): shape %zu dups %d %s: rows", s,
                              dups_levels[d], lab4_join_name(t));
                    char msg[256];
                    cr_assert(eq(int, kit_compare_i32(ga, ra, rows, msg, sizeof msg), 0), "step 4.4 (join emulation): shape %zu dups %d %s a: %s",
                              s, dups_levels[d], lab4_join_name(t), msg);
                    cr_assert(eq(int, kit_compare_i32(gb, rb, rows, msg, sizeof msg), 0), "step 4.4 (join emulation): shape %zu dups %d %s b: %s",
                              s, dups_levels[d], lab4_join_name(t), msg);
                }
                free(ra); free(rb); free(ga); free(gb);
            }
            free(a);
            free(b);
        }
}

/* The row count is exact past 2^32 and computed without building the rows. */
Test(lab4_join_ref, all_equal_keys_count_without_overflow)
{
    size_t n = 70000;
    int32_t *a = malloc(n * 4);
    for (size_t i = 0; i < n; i++)
        a[i] = 5;
    cr_assert(eq(sz, lab4_ref_join_rows(a, n, a, n, LAB4_INNER), n * n));
    cr_assert(gt(sz, n * n, LAB4_JOIN_MAX_ROWS));
    free(a);
}

/* ---- generators ---------------------------------------------------------------- */

/* How many of k[0..n) are `key`. */
static size_t rows_of(const int32_t *k, size_t n, int32_t key)
{
    size_t rows = 0;
    for (size_t i = 0; i < n; i++)
        rows += k[i] == key;
    return rows;
}

Test(lab4_data, generators_give_sorted_valid_inputs)
{
    enum { N = 5000 };
    static int32_t k[N];
    for (int dups = 0; dups <= 1; dups++) {
        lab4_make_sorted(k, N, 2 * N, 3, dups);
        for (int i = 1; i < N; i++)
            cr_assert(le(i32, k[i - 1], k[i]));
        cr_assert(ge(i32, k[0], 0));
    }
    for (int d = 1; d <= 8; d *= 2) {
        lab4_make_table(k, N, d, 4);
        size_t runs = 1;
        for (int i = 1; i < N; i++) {
            cr_assert(le(i32, k[i - 1], k[i]));
            runs += k[i] != k[i - 1];
        }
        if (d == 1)
            cr_assert(eq(sz, runs, (size_t)N), "dups 1 means unique keys");
        else
            cr_assert(lt(sz, runs, (size_t)N / 2), "dups %d: %zu distinct keys", d, runs);
    }
    /* --hot: the key's rows where it sorts, in the middle, past the end, before the
     * start, and more rows than the table has */
    lab4_make_table(k, N, 1, 6);
    const int32_t hot_keys[] = { k[N / 2], k[N - 1] + 5, -1, k[N / 3] };
    const size_t copies[] = { 100, 50, 70, 2 * N };
    for (int h = 0; h < 4; h++) {
        lab4_make_table(k, N, 1, 6);
        lab4_make_hot(k, N, hot_keys[h], copies[h]);
        size_t rows = 0;
        for (int i = 0; i < N; i++) {
            rows += k[i] == hot_keys[h];
            if (i)
                cr_assert(le(i32, k[i - 1], k[i]), "hot key %d: unsorted at %d", hot_keys[h], i);
        }
        cr_assert(eq(sz, rows, copies[h] < (size_t)N ? copies[h] : (size_t)N), "hot key %d", hot_keys[h]);
    }
    /* in a table with duplicates: a key that had more rows keeps them, a key
     * given more gets exactly that many, and rows away from the key are kept */
    static int32_t before[N];
    lab4_make_table(k, N, 8, 7);
    memcpy(before, k, sizeof before);
    int32_t many = k[N / 2];
    size_t had = rows_of(k, N, many);
    lab4_make_hot(k, N, many, 1);
    cr_assert(eq(sz, rows_of(k, N, many), had), "a key with %zu rows given 1 keeps them", had);
    lab4_make_hot(k, N, many, had + 50);
    cr_assert(eq(sz, rows_of(k, N, many), had + 50), "a key with %zu rows given %zu", had, had + 50);
    size_t first = 0;
    while (k[first] != many)
        first++;
    for (size_t i = 0; i < N; i++)
        if (i < first || i >= first + had + 50)
            cr_assert(eq(i32, k[i], before[i]), "row %zu away from the hot key changed", i);
    static int64_t off[N + 1];
    lab4_make_offsets(off, N, 4 * N, 5);
    cr_assert(eq(i64, off[0], 0));
    cr_assert(eq(i64, off[N], 4 * N));
    int zeros = 0;
    for (int j = 0; j < N; j++) {
        cr_assert(le(i64, off[j], off[j + 1]));
        zeros += off[j] == off[j + 1];
    }
    lab4_make_offsets(off, N, N / 2, 6);
    cr_assert(eq(i64, off[N], N / 2));
    (void)zeros;
}
