/* lab4.h: merge and merge-like operations (sorted search, load-balancing search,
 * relational joins). The lab's C API: what each variant computes, its launcher
 * signature, the variant table, the CPU reference and the "problem" (data +
 * reference + device buffers) shared by the driver and the GPU tests. */
#ifndef LAB4_H
#define LAB4_H

#include "kit.h"
#include "lab4_shapes.h" /* every tile shape and tuning choice */

#ifdef __cplusplus
extern "C" {
#endif

/* The operations. A variant computes exactly one of them. */
typedef enum {
    LAB4_MERGE,  /* merged = stable merge of sorted A and B (on equal keys A first), keys
                    alone or key-value pairs */
    LAB4_SEARCH, /* sorted search of A in B and of B in A, bounds and match flags */
    LAB4_LBS,    /* load-balancing search: each output paired with its object and rank */
    LAB4_JOIN    /* sort-merge join of two sorted tables: (a_index, b_index) pairs */
} lab4_op;

typedef enum { LAB4_INNER, LAB4_LEFT, LAB4_RIGHT, LAB4_OUTER } lab4_join_type;
const char *lab4_join_name(lab4_join_type t);

/* Sizes: a merge takes up to 2^32 keys (64-bit indices throughout); the other
 * operations store 32-bit indices and take up to 2^30 items. */
#define LAB4_MERGE_MAX_KEYS ((size_t)1 << 32)
#define LAB4_MAX_ITEMS ((size_t)1 << 30)
/* The join refuses outputs of more rows than this (2^30 pairs = 8 GiB): the
 * problem counts the rows first and a bigger join is a clear error. */
#define LAB4_JOIN_MAX_ROWS ((size_t)1 << 30)
/* Returned by the join launcher when the output does not fit the capacity
 * (lab4_io.join_capacity); *join_rows then still holds the true row count. */
#define LAB4_ERR_JOIN_TOO_LARGE 100001

/* The values of a key-value merge in the tests and the driver: each item's
 * origin. A's item i carries i, B's item j carries -1 - j: the sign says which
 * array, the magnitude which item (each side below 2^31 items). A stable merge
 * puts, among equal keys, A's origins first, in increasing order, then B's. */
static inline int32_t lab4_origin_a(size_t i) { return (int32_t)i; }
static inline int32_t lab4_origin_b(size_t j) { return (int32_t)(-1 - (int64_t)j); }
#define LAB4_PAIRS_MAX_SIDE ((size_t)INT32_MAX)

/* Scratch memory of the join, allocated by the problem outside any timing. */
typedef struct {
    int32_t *first_b;      /* a_count: index of a[i]'s first match in b, or -1 */
    int64_t *offsets;      /* a_count + 1: exclusive scan of the A rows' output counts
                              (Step 4.5: a shared tile's own scan at its A rows);
                              [a_count] = the rows with an A side */
    int32_t *b_rows;       /* b_count: the B rows a right or outer join keeps without
                              partner, in order (the rows after the A side's) */
    unsigned long long *status; /* the search's look-back: a ticket word, then one
                              word per search tile for each of its two running counts;
                              then Step 4.5's shared tiles (lab4_join_status_words) */
    size_t status_words;   /* at least lab4_join_status_words(a_count + b_count) */
    int64_t *rows;         /* device: the row count, written by the search's last tile */
    int64_t *h_rows;       /* pinned host word: the row count, copied back at the end */
} lab4_join_ws;

/* Words of ws.status for a join of n = a_count + b_count keys: the ticket, then
 * for every search tile (LAB4_SEARCH_NV keys) a running count of the rows with an
 * A side and one of the B rows kept alone; then Step 4.5's shared tiles (a tile
 * with many rows hands its chunks to other blocks): their count and room for a
 * record of LAB4_SHARED_TILE_WORDS words per tile. */
#define LAB4_SHARED_TILE_WORDS 5
static inline size_t lab4_join_status_words(size_t n)
{
    size_t tiles = kit_div_up(n, LAB4_SEARCH_NV);
    return 1 + 2 * tiles + 1 + LAB4_SHARED_TILE_WORDS * tiles;
}

/* Every buffer any variant reads or writes (device pointers unless noted).
 * A variant uses the fields of its operation only. */
typedef struct {
    /* Merge, search, join: two sorted int32 key arrays. */
    const int32_t *a, *b;
    size_t a_count, b_count;
    /* LAB4_MERGE: a_count + b_count keys. Key-value pairs when merged_vals is not
     * NULL: a_vals[i] travels with a[i], b_vals[j] with b[j], and merged_vals[k]
     * is the value of the item merged[k] came from. Keys only: all three NULL. */
    int32_t *merged;
    const int32_t *a_vals, *b_vals;
    int32_t *merged_vals;
    /* LAB4_SEARCH (one pass, what Baxter's slides call "power usage"):
     *   a_bound[i] = lower_bound of a[i] in b (how many b < a[i]),
     *   b_bound[j] = upper_bound of b[j] in a (how many a <= b[j]),
     *   a_match[i] = 1 if some b equals a[i], b_match[j] = 1 if some a equals b[j]. */
    int32_t *a_bound, *b_bound;
    uint8_t *a_match, *b_match;
    /* LAB4_LBS: obj_count objects, offsets = exclusive scan of their output counts,
     * obj_count + 1 entries, offsets[obj_count] = out_count. For every output k:
     * lbs_obj[k] = the object it belongs to, lbs_rank[k] = k - offsets[lbs_obj[k]]. */
    const int64_t *offsets;
    size_t obj_count, out_count;
    int32_t *lbs_obj, *lbs_rank;
    /* LAB4_JOIN: rows (join_a[r], join_b[r]), -1 for the missing side, in the order
     * of lab4_ref_join. join_capacity rows fit. *join_rows (host) gets the true row
     * count on success AND when the launcher refuses the join with
     * LAB4_ERR_JOIN_TOO_LARGE (count > join_capacity: Step 4.4's join then writes
     * nothing to join_a, join_b; Step 4.5's, whose tiles write before the total
     * is known, writes nothing at or past row join_capacity, but may have written
     * rows below it); it stays 0 only when the tables are empty (or an error stops
     * the launcher before the count is known). The count is computed on the
     * device and copied to the host once, when all the work is enqueued: the
     * launcher returns after the join has finished. Its expand is launched for
     * join_capacity rows (the count is not known on the host when it is
     * launched), so the partitions must hold the boundaries of that many:
     * (join_capacity + a_count) / LAB4_JOIN_NV + 2. */
    lab4_join_type join;
    int32_t *join_a, *join_b;
    size_t join_capacity;
    size_t *join_rows;
    lab4_join_ws ws;
    /* Scratch: one Merge Path split per tile boundary (see LAB4_MIN_NV). A launcher
     * checks that its tiles + 1 boundaries fit before it launches anything, and
     * returns KIT_CHECK(cudaErrorInvalidValue) when they do not:
     *     if ((size_t)tiles + 1 > io->partition_capacity)
     *         return KIT_CHECK(cudaErrorInvalidValue);
     * (given in lab4_sorted_search_pass; write it in the merge and LBS launchers
     * and in the join's, for its search and for an expand of join_capacity rows). */
    int64_t *partitions;
    size_t partition_capacity;
    /* Optional (NULL: not recorded): events Step 4.4's join (lab4_join) records
     * on the launch stream (Step 4.5's has one pass and records none),
     *   [0] after the search, count and scan (the search's partitions and the one
     *       pass over the keys: the row count is then known, on the device),
     *   [1] after the expand's partitions (the LBS boundaries of its tiles),
     *   [2] after the expand (recorded even when there are no rows to expand).
     * The copy of the row count to the host comes after [2], in no phase.
     * All three are recorded on every path that returns 0, empty inputs included,
     * so --phases can time them; an error return may leave later ones unrecorded. */
    cudaEvent_t phase_events[3];
} lab4_io;

typedef int (*lab4_fn)(const lab4_io *io, cudaStream_t stream);

typedef struct {
    kit_variant_info info;
    lab4_op op;
    lab4_fn run;
} lab4_variant;

extern const lab4_variant lab4_variants[];
extern const int lab4_variant_count;

/* Launchers (one file each), and the CUB merge (cub_ref.cu). The merge launchers
 * and CUB's merge keys alone or pairs, as io->merged_vals says. */
int lab4_naive_merge(const lab4_io *io, cudaStream_t stream);
int lab4_merge_path(const lab4_io *io, cudaStream_t stream);
int lab4_sorted_search(const lab4_io *io, cudaStream_t stream);
int lab4_load_balancing_search(const lab4_io *io, cudaStream_t stream);
int lab4_join(const lab4_io *io, cudaStream_t stream);
int lab4_join_fused(const lab4_io *io, cudaStream_t stream);
/* cub::DeviceMerge::MergeKeys, or MergePairs when io->merged_vals is set. */
int lab4_cub_merge(const lab4_io *io, void *temp, size_t temp_bytes, cudaStream_t stream);
/* Scratch bytes CUB needs for a merge of these sizes (pairs: with int32 values). */
size_t lab4_cub_merge_temp_bytes(size_t a_count, size_t b_count, int pairs);
/* The sorted search of step 4.2 as one pass over io's A and B (v2; the joins run
 * the same search, once and A first, inside their own tile kernel: lab4_join.cuh).
 * upper = 0 (A first on ties): a_bound[i] = lower bound of a[i] in B, b_bound[j]
 * = upper bound of b[j] in A, and the match flags; upper = 1 (B first):
 * a_bound[i] = upper bound of a[i] in B, b_bound[j] = lower bound of b[j] in A,
 * no flags. a_bound must be given; b_bound, a_match and b_match may be NULL (not
 * written), and the flags must be NULL when upper = 1. Uses io->partitions
 * (checked against io->partition_capacity). */
int lab4_sorted_search_pass(const lab4_io *io, int upper, int32_t *a_bound, int32_t *b_bound,
                            uint8_t *a_match, uint8_t *b_match, cudaStream_t stream);

/* ---- CPU reference (lab4_ref.c), written independently of the kernels ---- */
/* Sequential two-cursor merge, A first on ties. With values (a_vals, b_vals and
 * out_vals not NULL) each value follows its key. */
void lab4_ref_merge(const int32_t *a, const int32_t *a_vals, size_t a_count, const int32_t *b,
                    const int32_t *b_vals, size_t b_count, int32_t *out, int32_t *out_vals);
/* Binary searches, one per element. */
void lab4_ref_search(const int32_t *a, size_t a_count, const int32_t *b, size_t b_count,
                     int32_t *a_bound, int32_t *b_bound, uint8_t *a_match, uint8_t *b_match);
void lab4_ref_lbs(const int64_t *offsets, size_t obj_count, int32_t *obj, int32_t *rank);
/* Rows of the join without building them (hash counts); exact, 64-bit. */
size_t lab4_ref_join_rows(const int32_t *a, size_t a_count, const int32_t *b, size_t b_count,
                          lab4_join_type type);
/* Hash join, written straight in the defined order: rows with an A side by
 * (a_index, b_index), a row without match having b_index = -1; then the rows
 * without an A side (right/outer) by b_index. Writes `rows` rows (from
 * lab4_ref_join_rows) to out_a, out_b. */
void lab4_ref_join(const int32_t *a, size_t a_count, const int32_t *b, size_t b_count,
                   lab4_join_type type, int32_t *out_a, int32_t *out_b, size_t rows);

/* ---- input data (lab4_problem.c) ------------------------------------------ */
/* Sorted keys: "uniform" spreads a_count and b_count keys over the same range
 * of 2 (a_count + b_count) values; "dups" over a range 16 times smaller (runs of
 * equal keys inside and across the arrays). */
void lab4_make_sorted(int32_t *keys, size_t count, size_t total, uint64_t seed, int dups);
/* A join table: each key present with probability 1/2, then repeated a uniform
 * 1..2*dups-1 times (mean dups; dups = 1: unique keys). */
void lab4_make_table(int32_t *keys, size_t count, int dups, uint64_t seed);
/* A hot key in a sorted table: min(copies, count) rows of `key` written where the
 * key sorts (moved back from the end if they would pass it), over the rows that
 * were there; the table stays sorted (a key that had more rows keeps them). */
void lab4_make_hot(int32_t *keys, size_t count, int32_t key, size_t copies);
/* LBS input: obj_count + 1 offsets, offsets[0] = 0, offsets[obj_count] = out_count,
 * the starts spread at random (counts vary around out_count / obj_count, zeros
 * included when that is small). */
void lab4_make_offsets(int64_t *offsets, size_t obj_count, size_t out_count, uint64_t seed);

/* ---- checking ------------------------------------------------------------- */
/* Compare a merge of pairs whose values are origins (lab4_origin_a/b) with the
 * reference: 0 when equal; otherwise 1 and a message naming the first output
 * that differs, with the items expected and got ("A[5]", "B[3]") and, when the
 * keys agree, that the merge broke the tie rule (A first, in order). */
int lab4_compare_origins(const int32_t *got_keys, const int32_t *got_vals,
                         const int32_t *ref_keys, const int32_t *ref_vals, size_t n, char *msg,
                         size_t len);

/* ---- the problem --------------------------------------------------------- */
typedef struct lab4_problem lab4_problem;
/* Merge / search / join inputs: A and B given by the caller (host, sorted). The
 * problem reads them (reference, join) until lab4_problem_destroy: keep them. */
lab4_problem *lab4_problem_create(lab4_op op, const int32_t *h_a, size_t a_count,
                                  const int32_t *h_b, size_t b_count);
/* Merge problems: from now on every merge case (variants and CUB) merges pairs,
 * the value of each item its origin, and the check compares origins too. Each
 * side must have at most LAB4_PAIRS_MAX_SIDE items (exits 2 otherwise). */
void lab4_problem_use_pairs(lab4_problem *p);
/* LBS input: obj_count + 1 offsets (host). */
lab4_problem *lab4_problem_create_lbs(const int64_t *h_offsets, size_t obj_count);
void lab4_problem_destroy(lab4_problem *p);
/* The join type of the next cases: counts the output rows first, then builds the
 * reference and sizes the outputs. Returns 0, or KIT_EXIT_USAGE (2) with a clear
 * message on stderr when the output would exceed LAB4_JOIN_MAX_ROWS (the problem
 * is left as it was); exits 2 when the output does not fit in device memory. */
int lab4_problem_set_join(lab4_problem *p, lab4_join_type type);
size_t lab4_problem_join_rows(const lab4_problem *p);
/* The case for variant v (of the problem's op); prepare poisons the outputs,
 * check compares with the CPU reference; bytes counts inputs read + outputs written. */
kit_case lab4_problem_case(lab4_problem *p, int v);
/* CUB's merge as a case (merge problems only): MergeKeys, or MergePairs after
 * lab4_problem_use_pairs. */
kit_case lab4_problem_cub_case(lab4_problem *p);
/* The memcpy row: a device-to-device copy of about the bytes of one run. */
void lab4_problem_copy_limit(lab4_problem *p, kit_config *cfg);
/* The problem's io (for tests that call a launcher directly). */
lab4_io *lab4_problem_io(lab4_problem *p);

#ifdef __cplusplus
}
#endif
#endif
