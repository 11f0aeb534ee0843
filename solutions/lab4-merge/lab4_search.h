/* lab4_search.h: the searches and serial loops every lab4 kernel is built from.
 *
 * Each function is __host__ __device__ when nvcc compiles it and plain C
 * otherwise, so the kernels and the CPU suite (tests/cpu/test_lab4_search.c)
 * run the very same code: the suite checks it against brute force on the host.
 *
 * Conventions: keys are int32; "A first" means that on equal keys the item of A
 * is ordered before the item of B (a stable merge); "B first" the opposite.
 * Counts and global positions are int64_t (no overflow past 2^31 items); the
 * serial loops work on one tile in shared memory and use int. */
#ifndef LAB4_SEARCH_H
#define LAB4_SEARCH_H

#include <stdint.h>

#include "kit_hd.h"
/* In device code, fully unroll a loop whose trip count is a compile-time
 * constant once inlined: out[i] then has a constant index and lives in registers. */
#ifdef __CUDA_ARCH__
#define LAB4_UNROLL _Pragma("unroll")
#else
#define LAB4_UNROLL
#endif

/* How many of b[0..count) are < key. */
KIT_HD int64_t lab4_lower_bound(const int32_t *b, int64_t count, int32_t key)
{
    int64_t lo = 0, hi = count;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (b[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many of b[0..count) are <= key. */
KIT_HD int64_t lab4_upper_bound(const int32_t *b, int64_t count, int32_t key)
{
    int64_t lo = 0, hi = count;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (b[mid] <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many of b[0..count) are <= key, when b[0..start) are known to be <= key:
 * an exponential search from start (steps 1, 2, 4, ... until one lands past the
 * key, then a binary search inside that last step). A run of r keys equal to key
 * from start on costs about 2 log2(r) reads (one when it ends at start), however
 * long b is: the join's search tile uses it for the upper bound of every A row
 * with a match (in the tile's B keys, from just past its lower bound) and for the
 * one key whose run of equal B keys continues past the tile (in global memory). */
KIT_HD int64_t lab4_upper_bound_from(const int32_t *b, int64_t count, int64_t start, int32_t key)
{
    int64_t lo = start, step = 1; /* b[0..lo) <= key */
    while (lo + step <= count && b[lo + step - 1] <= key) {
        lo += step;
        step *= 2;
    }
    /* The answer is in [lo, hi]: b[lo + step - 1] > key when it exists. A run that
     * ends at start costs one read. */
    int64_t hi = lo + step - 1 < count ? lo + step - 1 : count;
    return lo + lab4_upper_bound(b + lo, hi - lo, key);
}

/* lab4_upper_bound_from inside a tile, in int (see lab4_tile_merge_path_search
 * below for why): how many of b[0..count) are <= key when b[0..start) are.
 * count < 2^30 (a tile's keys), so the doubling step cannot overflow. */
KIT_HD int lab4_tile_upper_bound_from(const int32_t *b, int count, int start, int32_t key)
{
    int lo = start, step = 1; /* b[0..lo) <= key */
    while (lo + step <= count && b[lo + step - 1] <= key) {
        lo += step;
        step *= 2;
    }
    int hi = lo + step - 1 < count ? lo + step - 1 : count; /* b[hi] > key when it exists */
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (b[mid] <= key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Merge Path search: how many items of A are among the first `diag` items of
 * the merge of A and B, when the answer is known to lie in [lo, hi]. The answer
 * a_split and b_split = diag - a_split lie on the cross diagonal a + b = diag, so
 * a binary search over a in [lo, hi] finds where the merge path crosses it: the
 * first a whose item a[a] would NOT be emitted before b[diag - 1 - a].
 * b_first = 0: A first on ties; 1: B first. The callers below pick [lo, hi];
 * it must hold the answer and lie inside the diagonal (lo >= diag - b_count,
 * hi <= min(diag, a_count)), so that every probe is an item of A and of B. */
KIT_HD int64_t lab4_merge_path_bisect(const int32_t *a, const int32_t *b, int64_t diag, int64_t lo,
                                      int64_t hi, int b_first)
{
    // BEGIN SOLUTION (Step 4.1): binary search on the cross diagonal a + b = diag
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        int32_t a_key = a[mid], b_key = b[diag - 1 - mid];
        int a_goes_first = b_first ? a_key < b_key : a_key <= b_key;
        if (a_goes_first)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
    // STUB: (void)a; (void)b; (void)diag; (void)lo; (void)b_first;
    // STUB: return hi; /* wrong: replace with the search */
    // END SOLUTION
}

/* Where a split can lie: the A counts lo .. hi. */
typedef struct {
    int64_t lo, hi;
} lab4_split_range;

/* On the whole diagonal (0 <= diag <= a_count + b_count): a in
 * [max(0, diag - b_count), min(diag, a_count)]. */
KIT_HD lab4_split_range lab4_diagonal_range(int64_t diag, int64_t a_count, int64_t b_count)
{
    lab4_split_range r = { diag > b_count ? diag - b_count : 0, diag < a_count ? diag : a_count };
    return r;
}

/* When the splits of two diagonals around this one are known: split_lo on
 * diag_lo <= diag and split_hi on diag_hi >= diag. The merge path only moves
 * right or down, so this diagonal's A count lies between split_lo and split_hi,
 * and its B count between diag_lo - split_lo and diag_hi - split_hi: at most
 * diag_hi - diag_lo candidates instead of the whole diagonal. The second level of
 * lab4_merge_partitions searches this way. */
KIT_HD lab4_split_range lab4_range_between(int64_t diag, int64_t diag_lo, int64_t split_lo,
                                           int64_t diag_hi, int64_t split_hi)
{
    int64_t b_lo = diag_lo - split_lo, b_hi = diag_hi - split_hi;
    lab4_split_range r = { split_lo > diag - b_hi ? split_lo : diag - b_hi,
                           split_hi < diag - b_lo ? split_hi : diag - b_lo };
    return r;
}

/* The Merge Path search over the whole diagonal. */
KIT_HD int64_t lab4_merge_path_search(const int32_t *a, int64_t a_count, const int32_t *b,
                                      int64_t b_count, int64_t diag, int b_first)
{
    lab4_split_range r = lab4_diagonal_range(diag, a_count, b_count);
    return lab4_merge_path_bisect(a, b, diag, r.lo, r.hi, b_first);
}

/* The Merge Path search inside a tile: the same answer as lab4_merge_path_search,
 * in int. A tile's indices all fit in an int, and the 64-bit index arithmetic of
 * the search above costs in every step (two or more instructions for each add,
 * halving, compare and select, two instead of one for each address). The
 * joins' count tile (lab4_join.cuh) is bound by its instructions, so it
 * searches with this one and lab4_tile_upper_bound_from (what that gained: lab
 * 4 notebook, section 4.3). */
KIT_HD int lab4_tile_merge_path_search(const int32_t *a, int a_count, const int32_t *b, int b_count, int diag,
                                       int b_first)
{
    // BEGIN SOLUTION (Step 4.1): lab4_merge_path_search with int indices (then the join's tile runs it; the stub is correct, only slower)
    int lo = diag > b_count ? diag - b_count : 0, hi = diag < a_count ? diag : a_count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int32_t a_key = a[mid], b_key = b[diag - 1 - mid];
        if (b_first ? a_key < b_key : a_key <= b_key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
    // STUB: return (int)lab4_merge_path_search(a, a_count, b, b_count, diag, b_first);
    // END SOLUTION
}

/* Merge Path search for the load-balancing search: A is the counting sequence
 * first_out, first_out + 1, ... (out_count outputs, never stored) and B the
 * offsets of obj_count objects (exclusive scan of their counts). B first on
 * ties: object j starts before output k when offsets[j] <= k. Returns how many
 * outputs are among the first `diag` items. */
KIT_HD int64_t lab4_lbs_path_search(int64_t first_out, int64_t out_count,
                                    const int64_t *offsets, int64_t obj_count, int64_t diag)
{
    // BEGIN SOLUTION (Step 4.3): the merge path search with a = first_out + index and B first on ties
    int64_t lo = diag > obj_count ? diag - obj_count : 0;
    int64_t hi = diag < out_count ? diag : out_count;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (first_out + mid < offsets[diag - 1 - mid])
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
    // STUB: (void)first_out; (void)out_count; (void)offsets; (void)obj_count; (void)diag;
    // STUB: return 0; /* wrong: replace with the search */
    // END SOLUTION
}

/* lab4_lbs_path_search inside a tile (first_out = 0: the tile's own rows), with
 * the candidates counted in int. A tile's objects fit in an int but its rows may
 * not (one hot key), so the rows and the offsets stay int64_t; only the search's
 * cursor shrinks: the answer lies among at most obj_count + 1 candidates from
 * lo = max(0, diag - obj_count), and the search runs over their distance from lo
 * (candidate lo + m is compared with offsets[diag - 1 - lo - m]). The fused
 * join stages its chunks with it and lab4_tile_serial_lbs (v5_join_fused.cu). */
KIT_HD int64_t lab4_tile_lbs_path_search(int64_t out_count, const int64_t *offsets, int obj_count, int64_t diag)
{
    // BEGIN SOLUTION (Step 4.3): lab4_lbs_path_search(0, ...) with an int cursor counted from lo (the stub is correct, only slower)
    int64_t lo = diag > obj_count ? diag - obj_count : 0;
    int below = 0, above = (int)((diag < out_count ? diag : out_count) - lo);
    const int64_t *offset_end = offsets + (diag - lo); /* candidate lo + m: offset_end[-1 - m] */
    while (below < above) {
        int mid = below + (above - below) / 2;
        if (lo + mid < offset_end[-1 - mid])
            below = mid + 1;
        else
            above = mid;
    }
    return lo + below;
    // STUB: return lab4_lbs_path_search(0, out_count, offsets, obj_count, diag);
    // END SOLUTION
}

/* ---- tiles ---------------------------------------------------------------------
 * A partition kernel stores partitions[t] for every tile boundary t = 0 .. tiles
 * (both ends included: tiles + 1 boundaries):
 * how many items of the first sequence (A; for the LBS: outputs) are among the
 * first lab4_tile_diag(t) items of the merged order. Tile t owns the merged
 * items [diag(t), diag(t + 1)) and, from each sequence, what lies between its two
 * boundaries: these are the range types every tiled kernel starts from. */

/* Where tile boundary t lies on the merged order: t * nv, the last one clamped to
 * the total. */
KIT_HD int64_t lab4_tile_diag(int64_t t, int64_t nv, int64_t total)
{
    return t * nv < total ? t * nv : total;
}

/* A merge tile (merge, sorted search): A items [a_begin, a_end), B items
 * [b_begin, b_end); (a_end - a_begin) + (b_end - b_begin) = nv but in the last tile. */
typedef struct {
    int64_t a_begin, a_end, b_begin, b_end;
} lab4_merge_range;

KIT_HD lab4_merge_range lab4_merge_tile_range(const int64_t *partitions, int64_t tile, int64_t nv,
                                              int64_t a_count, int64_t b_count)
{
    int64_t d0 = tile * nv; /* a tile that exists starts before the end */
    int64_t d1 = lab4_tile_diag(tile + 1, nv, a_count + b_count);
    lab4_merge_range r;
    r.a_begin = partitions[tile];
    r.a_end = partitions[tile + 1];
    r.b_begin = d0 - r.a_begin;
    r.b_end = d1 - r.a_end;
    return r;
}

/* A load-balancing-search tile: outputs [out_begin, out_end) and the objects
 * whose starts fall in it, [obj_begin, obj_end). Its first outputs may belong to
 * object obj_begin - 1, which started in an earlier tile (or to no object of the
 * tile at all when one object spans several tiles). */
typedef struct {
    int64_t out_begin, out_end, obj_begin, obj_end;
} lab4_lbs_range;

/* The same cut as a merge tile's: the LBS merges the outputs (first) with the
 * object starts (second). */
KIT_HD lab4_lbs_range lab4_lbs_tile_range(const int64_t *partitions, int64_t tile, int64_t nv,
                                          int64_t out_count, int64_t obj_count)
{
    lab4_merge_range m = lab4_merge_tile_range(partitions, tile, nv, out_count, obj_count);
    lab4_lbs_range r = { m.a_begin, m.a_end, m.b_begin, m.b_end };
    return r;
}

/* Serial merge of one thread's share of a tile in shared memory: keys[a..a_end)
 * and keys[b..b_end) are the rest of A's and B's intervals (both in the same
 * array, A's before B's, so b_end is the end of the filled part). a and b are
 * both indices into keys: B's cursor starts at tile_a + (diag - a_split), not at
 * diag - a_split (lab4_serial_search counts B's cursor differently). Emit `count`
 * (<= vt) items to out[0..count), A first on ties. The two head keys stay in
 * registers: one shared-memory load per item. The caller passes a compile-time
 * vt so the loop unrolls and out[] stays in registers; reads stay below b_end.
 * src (NULL: not recorded) gets where each output came from: its index in keys,
 * so values laid out like the keys can follow them (a merge of pairs). */
KIT_HD void lab4_serial_merge(const int32_t *keys, int a, int a_end, int b, int b_end, int count,
                              int vt, int32_t *out, int *src)
{
    // BEGIN SOLUTION (Step 4.1): keep both heads in registers; emit the smaller (A on ties) and where it came from, load the next head
    int32_t a_key = a < b_end ? keys[a] : 0;
    int32_t b_key = b < b_end ? keys[b] : 0;
    LAB4_UNROLL
    for (int i = 0; i < vt; i++) {
        if (i < count) {
            int take_a = b >= b_end || (a < a_end && a_key <= b_key);
            out[i] = take_a ? a_key : b_key;
            if (src)
                src[i] = take_a ? a : b;
            int next = take_a ? ++a : ++b;
            int32_t key = next < b_end ? keys[next] : 0;
            if (take_a)
                a_key = key;
            else
                b_key = key;
        }
    }
    // STUB: (void)keys; (void)a; (void)a_end; (void)b; (void)b_end; (void)count; (void)vt;
    // STUB: (void)out; (void)src;
    // END SOLUTION
}

/* The halo of a search tile: the key just before its A interval and the key
 * just after its B interval, when they exist (needed for the match flags of
 * items at the tile's edges). */
typedef struct {
    int has_a_prev, has_b_next;
    int32_t a_prev, b_next;
} lab4_halo;

/* The halo of merge tile r of A and B (B has b_count items). */
KIT_HD lab4_halo lab4_tile_halo(const int32_t *a, const int32_t *b, int64_t b_count, lab4_merge_range r)
{
    lab4_halo halo;
    halo.has_a_prev = r.a_begin > 0;
    halo.a_prev = r.a_begin > 0 ? a[r.a_begin - 1] : 0;
    halo.has_b_next = r.b_end < b_count;
    halo.b_next = r.b_end < b_count ? b[r.b_end] : 0;
    return halo;
}

/* Serial sorted search, one thread's share of a tile: keys[0..a_count) hold the
 * tile's A items, keys[a_count..a_count + b_count) its B items; the thread starts
 * at A index a and B index b (both tile-local, from a merge path search:
 * a = a_split, b = diag - a_split) and walks `count` (<= vt) steps of the merge.
 * Unlike lab4_serial_merge, b counts the tile's B items: B item b has the key
 * keys[a_count + b] and the result slot b_bound[b].
 *   upper = 0 (A first): an A item gets b_base + b, the number of B items < it
 *     (its lower bound in B); a B item gets a_base + a, the number of A items <= it
 *     (its upper bound in A). a_base, b_base: the tile's first global A and B
 *     index. Match flags: A item i matches if the next B item equals it, B item
 *     j if the previous A item equals it (at the tile's edges: the halo).
 *   upper = 1 (B first): an A item gets the number of B items <= it (upper bound),
 *     a B item the number of A items < it; no flags (pass NULL).
 * Results go to tile-local slots a_bound[a], b_bound[b], a_match[a], b_match[b]:
 * a_bound is always written (never NULL: pass shared scratch, e.g. bound_s);
 * b_bound, a_match and b_match may be NULL (not written). */
KIT_HD void lab4_serial_search(const int32_t *keys, int a_count, int b_count, int a, int b,
                               int count, int vt, int upper, int64_t a_base, int64_t b_base,
                               lab4_halo halo, int32_t *a_bound, int32_t *b_bound,
                               uint8_t *a_match, uint8_t *b_match)
{
    // BEGIN SOLUTION (Step 4.2): walk the merge; an emitted A item records the B cursor, a B item the A cursor; keep both heads (and the last A key, for B's flags) in registers
    /* As in lab4_serial_merge, both heads stay in registers and each step loads
     * one key (the next head of the side it took); the last A key taken is B's
     * "previous A item" for the flags. */
    const int32_t *b_keys = keys + a_count;
    int tile_n = a_count + b_count;
    int32_t a_key = a < a_count ? keys[a] : 0, b_key = b < b_count ? b_keys[b] : 0;
    int has_prev = a > 0 || halo.has_a_prev;
    int32_t prev = a > 0 ? keys[a - 1] : halo.a_prev;
    LAB4_UNROLL
    for (int i = 0; i < vt; i++) {
        if (i < count) {
            int take_a = b >= b_count || (a < a_count && (upper ? a_key < b_key : a_key <= b_key));
            if (take_a) {
                a_bound[a] = (int32_t)(b_base + b);
                if (a_match) {
                    int has_next = b < b_count || halo.has_b_next;
                    int32_t next_b = b < b_count ? b_key : halo.b_next;
                    a_match[a] = (uint8_t)(has_next && next_b == a_key);
                }
                prev = a_key;
                has_prev = 1;
                a++;
            } else {
                if (b_bound)
                    b_bound[b] = (int32_t)(a_base + a);
                if (b_match)
                    b_match[b] = (uint8_t)(has_prev && prev == b_key);
                b++;
            }
            int next = take_a ? a : a_count + b; /* the new head's slot in keys */
            int32_t key = next < tile_n ? keys[next] : 0;
            if (take_a)
                a_key = key;
            else
                b_key = key;
        }
    }
    // STUB: (void)keys; (void)a_count; (void)b_count; (void)a; (void)b; (void)count; (void)vt;
    // STUB: (void)upper; (void)a_base; (void)b_base; (void)halo;
    // STUB: (void)a_bound; (void)b_bound; (void)a_match; (void)b_match;
    // END SOLUTION
}

/* Serial load-balancing search, one thread's share of a tile. The tile holds
 * outputs [out_begin, out_end) and objects [obj_begin, obj_end) (a
 * lab4_lbs_range). tile_offsets is indexed by object - obj_begin:
 * tile_offsets[j] = offsets[obj_begin + j] (lab4_tile_lbs keeps one more offset
 * in front, offsets[obj_begin - 1] at off_s[0], so it passes off_s + 1). The thread
 * starts at output k and object cursor o (global, from lab4_lbs_path_search) and
 * walks `count` (<= vt) steps: when object o starts at or before output k
 * (offsets[o] <= k) the cursor passes it, otherwise output k belongs to object
 * o - 1: obj[k - out_begin] = o - 1. That object may be obj_begin - 1 (the
 * tile's first outputs continue an object that started before the tile). Only
 * objects o < obj_end are in the tile: once o == obj_end every remaining step
 * emits (never read tile_offsets[obj_end - obj_begin], it was not staged). */
KIT_HD void lab4_serial_lbs(const int64_t *tile_offsets, int64_t obj_begin, int64_t obj_end,
                            int64_t out_begin, int64_t k, int64_t o, int count, int vt,
                            int32_t *obj)
{
    // BEGIN SOLUTION (Step 4.3): pass object o if o < obj_end and it starts at or before k, else emit output k for object o - 1
    LAB4_UNROLL
    for (int i = 0; i < vt; i++) {
        if (i < count) {
            if (o < obj_end && tile_offsets[o - obj_begin] <= k)
                o++;
            else {
                obj[k - out_begin] = (int32_t)(o - 1);
                k++;
            }
        }
    }
    // STUB: (void)tile_offsets; (void)obj_begin; (void)obj_end; (void)out_begin; (void)k; (void)o;
    // STUB: (void)count; (void)vt; (void)obj;
    // END SOLUTION
}

/* lab4_serial_lbs inside a tile (objects 0 .. obj_count - 1, offsets[0 ..
 * obj_count)), with the object cursor o in int: from output k and object o,
 * `count` (<= vt) steps, the j-th output the thread emits (its object) to
 * obj[j] (the caller passes its staging array at this thread's first output).
 * The fused join's chunks (v5_join_fused.cu); see lab4_tile_lbs_path_search. */
KIT_HD void lab4_tile_serial_lbs(const int64_t *offsets, int obj_count, int64_t k, int o, int count, int vt,
                                 int32_t *obj)
{
    // BEGIN SOLUTION (Step 4.3): lab4_serial_lbs with obj_begin = 0, an int object cursor and an int output counter (the stub is correct, only slower)
    int emitted = 0;
    LAB4_UNROLL
    for (int i = 0; i < vt; i++) {
        if (i < count) {
            if (o < obj_count && offsets[o] <= k)
                o++;
            else {
                obj[emitted++] = o - 1;
                k++;
            }
        }
    }
    // STUB: lab4_serial_lbs(offsets, 0, obj_count, k, k, o, count, vt, obj);
    // END SOLUTION
}

/* Output rows a row of the tables produces in the join: an A row its matches in
 * B (upper - lower), or 1 when it has none and the join keeps A rows without
 * partner (left, outer); a B row 1 when no A row has its key and the join keeps
 * those (right, outer), else 0 (its matches are the A rows' outputs). */
KIT_HD int64_t lab4_join_count(int is_a_row, int64_t matches, int b_matched, int keep_a, int keep_b)
{
    // BEGIN SOLUTION (Step 4.4): matches, or 1 for a kept row without partner
    if (is_a_row)
        return matches > 0 ? matches : keep_a;
    return keep_b && !b_matched;
    // STUB: (void)is_a_row; (void)matches; (void)b_matched; (void)keep_a; (void)keep_b;
    // STUB: return 0;
    // END SOLUTION
}

/* Output row number `rank` of object obj, where objects are A's rows 0 ..
 * a_count - 1, then B's rows: an A row (obj < a_count) with matches pairs with
 * B row first_b + rank (first_b = its first match), an A row without
 * (first_b = -1) with -1; a B row (obj >= a_count) is (-1, obj - a_count), whatever
 * first_b is. */
KIT_HD void lab4_join_row(int64_t obj, int64_t rank, int64_t a_count, int32_t first_b,
                          int32_t *a_index, int32_t *b_index)
{
    // BEGIN SOLUTION (Step 4.4): the (a, b) pair of one output row
    if (obj < a_count) {
        *a_index = (int32_t)obj;
        *b_index = first_b < 0 ? -1 : (int32_t)(first_b + rank);
    } else {
        *a_index = -1;
        *b_index = (int32_t)(obj - a_count);
    }
    // STUB: (void)obj; (void)rank; (void)a_count; (void)first_b; (void)a_index; (void)b_index;
    // END SOLUTION
}

#endif
