/* lab4_ref.c: the CPU reference ("gold") for every lab4 operation, written
 * independently of the kernels: a sequential two-cursor merge, one binary search
 * per element, a loop over the objects, and a hash join. Also the input data and
 * the check of a merge of pairs. */
#include "lab4.h"

#include <stdlib.h>
#include <string.h>

const char *lab4_join_name(lab4_join_type t)
{
    static const char *names[] = { "inner", "left", "right", "outer" };
    return (unsigned)t < 4 ? names[t] : "?";
}

void lab4_ref_merge(const int32_t *a, const int32_t *a_vals, size_t a_count, const int32_t *b,
                    const int32_t *b_vals, size_t b_count, int32_t *out, int32_t *out_vals)
{
    size_t i = 0, j = 0;
    for (size_t k = 0; k < a_count + b_count; k++) {
        int take_b = i == a_count || (j < b_count && b[j] < a[i]); /* a first on ties */
        out[k] = take_b ? b[j] : a[i];
        if (out_vals)
            out_vals[k] = take_b ? b_vals[j] : a_vals[i];
        if (take_b)
            j++;
        else
            i++;
    }
}

/* "A[i]" or "B[j]" for an origin value (lab4_origin_a/b). */
static void origin_name(int32_t v, char *out, size_t len)
{
    if (v >= 0)
        snprintf(out, len, "A[%d]", v);
    else
        snprintf(out, len, "B[%lld]", -1 - (long long)v);
}

int lab4_compare_origins(const int32_t *got_keys, const int32_t *got_vals,
                         const int32_t *ref_keys, const int32_t *ref_vals, size_t n, char *msg,
                         size_t len)
{
    if (kit_compare_i32(got_keys, ref_keys, n, msg, len))
        return 1;
    size_t bad = 0, first = 0;
    for (size_t k = 0; k < n; k++)
        if (got_vals[k] != ref_vals[k] && bad++ == 0)
            first = k;
    if (!bad)
        return 0;
    char want[32], got[32];
    origin_name(ref_vals[first], want, sizeof want);
    origin_name(got_vals[first], got, sizeof got);
    snprintf(msg, len,
             "%zu of %zu values differ, first at output %zu (key %d): expected the item %s, got %s; "
             "the keys are right, so the merge is not stable: on equal keys A's items come first, "
             "in their order, then B's",
             bad, n, first, ref_keys[first], want, got);
    return 1;
}

/* First index in v[0..n) whose value is > key (strict = 1) or >= key (strict = 0). */
static size_t first_past(const int32_t *v, size_t n, int32_t key, int strict)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (strict ? v[mid] <= key : v[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void lab4_ref_search(const int32_t *a, size_t a_count, const int32_t *b, size_t b_count,
                     int32_t *a_bound, int32_t *b_bound, uint8_t *a_match, uint8_t *b_match)
{
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < a_count; i++) {
        size_t lo = first_past(b, b_count, a[i], 0);
        a_bound[i] = (int32_t)lo;
        a_match[i] = lo < b_count && b[lo] == a[i];
    }
#pragma omp parallel for schedule(static)
    for (size_t j = 0; j < b_count; j++) {
        size_t up = first_past(a, a_count, b[j], 1);
        b_bound[j] = (int32_t)up;
        b_match[j] = up > 0 && a[up - 1] == b[j];
    }
}

void lab4_ref_lbs(const int64_t *offsets, size_t obj_count, int32_t *obj, int32_t *rank)
{
#pragma omp parallel for schedule(dynamic, 1024)
    for (size_t j = 0; j < obj_count; j++)
        for (int64_t k = offsets[j]; k < offsets[j + 1]; k++) {
            obj[k] = (int32_t)j;
            rank[k] = (int32_t)(k - offsets[j]);
        }
}

/* ---- hash join ------------------------------------------------------------ */

/* Open addressing with linear probing: key -> (head of its chain of rows, count). */
typedef struct {
    size_t cap; /* power of two */
    int32_t *keys;
    int64_t *head; /* -1: empty slot */
    int64_t *count;
    int64_t *next; /* per row: next row with the same key, -1 at the end */
} hash_table;

static size_t hash_slot(int32_t key, size_t cap)
{
    uint64_t h = (uint64_t)(uint32_t)key * 0x9E3779B97F4A7C15ull;
    return (size_t)(h >> 17) & (cap - 1);
}

/* Build over rows[0..n): each chain lists its rows in increasing index order. */
static void hash_build(hash_table *t, const int32_t *rows, size_t n)
{
    t->cap = 16;
    while (t->cap < 2 * n)
        t->cap *= 2;
    t->keys = kit_host_alloc(t->cap * sizeof(int32_t), "the hash table");
    t->head = kit_host_alloc(t->cap * sizeof(int64_t), "the hash table");
    t->count = kit_host_alloc(t->cap * sizeof(int64_t), "the hash table");
    t->next = kit_host_alloc((n ? n : 1) * sizeof(int64_t), "the hash chains");
    for (size_t s = 0; s < t->cap; s++)
        t->head[s] = -1;
    for (size_t r = n; r-- > 0;) { /* backwards, pushing in front: chains come out ascending */
        size_t s = hash_slot(rows[r], t->cap);
        while (t->head[s] >= 0 && t->keys[s] != rows[r])
            s = (s + 1) & (t->cap - 1);
        if (t->head[s] < 0) {
            t->keys[s] = rows[r];
            t->count[s] = 0;
            t->next[r] = -1;
        } else
            t->next[r] = t->head[s];
        t->head[s] = (int64_t)r;
        t->count[s]++;
    }
}

/* The slot of key, or -1. */
static int64_t hash_find(const hash_table *t, int32_t key)
{
    size_t s = hash_slot(key, t->cap);
    while (t->head[s] >= 0) {
        if (t->keys[s] == key)
            return (int64_t)s;
        s = (s + 1) & (t->cap - 1);
    }
    return -1;
}

static void hash_free(hash_table *t)
{
    free(t->keys);
    free(t->head);
    free(t->count);
    free(t->next);
}

/* Output rows of A row i: its matches in B (hash table tb), or 1 when it has
 * none and the join keeps such rows. */
static size_t a_row_count(const hash_table *tb, int32_t key, int keep_a)
{
    int64_t s = hash_find(tb, key);
    return s >= 0 ? (size_t)tb->count[s] : (size_t)keep_a;
}

size_t lab4_ref_join_rows(const int32_t *a, size_t a_count, const int32_t *b, size_t b_count,
                          lab4_join_type type)
{
    int keep_a = type == LAB4_LEFT || type == LAB4_OUTER;
    int keep_b = type == LAB4_RIGHT || type == LAB4_OUTER;
    hash_table tb;
    hash_build(&tb, b, b_count);
    size_t rows = 0;
#pragma omp parallel for reduction(+ : rows) schedule(static)
    for (size_t i = 0; i < a_count; i++)
        rows += a_row_count(&tb, a[i], keep_a);
    hash_free(&tb);
    if (keep_b) {
        hash_table ta;
        hash_build(&ta, a, a_count);
#pragma omp parallel for reduction(+ : rows) schedule(static)
        for (size_t j = 0; j < b_count; j++)
            rows += hash_find(&ta, b[j]) < 0;
        hash_free(&ta);
    }
    return rows;
}

/* The rows come out in the defined order without a sort: A rows are visited in
 * order, each chain lists its B rows in increasing order, and the B rows without
 * partner are appended in order. Each A row's first output row comes from a scan
 * of the counts, so the rows are written in parallel. */
void lab4_ref_join(const int32_t *a, size_t a_count, const int32_t *b, size_t b_count,
                   lab4_join_type type, int32_t *out_a, int32_t *out_b, size_t rows)
{
    int keep_a = type == LAB4_LEFT || type == LAB4_OUTER;
    int keep_b = type == LAB4_RIGHT || type == LAB4_OUTER;
    hash_table tb;
    hash_build(&tb, b, b_count);
    size_t *first_row = kit_host_alloc((a_count + 1) * sizeof(size_t), "the join's row starts");
    first_row[0] = 0;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < a_count; i++)
        first_row[i + 1] = a_row_count(&tb, a[i], keep_a);
    for (size_t i = 0; i < a_count; i++) /* counts -> inclusive scan = next row's start */
        first_row[i + 1] += first_row[i];
    size_t r = first_row[a_count];
    if (r > rows)
        kit_die(KIT_EXIT_USAGE, "lab4_ref_join: the A rows alone give %zu rows, %zu expected", r, rows);
#pragma omp parallel for schedule(dynamic, 4096)
    for (size_t i = 0; i < a_count; i++) {
        size_t k = first_row[i];
        int64_t s = hash_find(&tb, a[i]);
        if (s < 0 && keep_a) {
            out_a[k] = (int32_t)i;
            out_b[k] = -1;
        }
        for (int64_t j = s >= 0 ? tb.head[s] : -1; j >= 0; j = tb.next[j], k++) {
            out_a[k] = (int32_t)i;
            out_b[k] = (int32_t)j;
        }
    }
    free(first_row);
    hash_free(&tb);
    if (keep_b) {
        hash_table ta;
        hash_build(&ta, a, a_count);
        for (size_t j = 0; j < b_count; j++)
            if (hash_find(&ta, b[j]) < 0 && r < rows) {
                out_a[r] = -1;
                out_b[r++] = (int32_t)j;
            }
        hash_free(&ta);
    }
    if (r != rows)
        kit_die(KIT_EXIT_USAGE, "lab4_ref_join: %zu rows built, %zu expected", r, rows);
}

/* ---- input data ----------------------------------------------------------- */

void lab4_make_sorted(int32_t *keys, size_t count, size_t total, uint64_t seed, int dups)
{
    /* Key i lies in [i, i + 1) * range / count: sorted by construction, and A and B
     * (each made this way) interleave over the same range whatever their sizes. */
    double range = dups ? (double)total / 8.0 : 2.0 * (double)total;
    if (range < 1)
        range = 1;
    if (range > 2147483647.0)
        range = 2147483647.0;
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < count; i++)
        keys[i] = (int32_t)(((double)i + kit_rand_unit(seed, i)) * range / (double)count);
}

void lab4_make_table(int32_t *keys, size_t count, int dups, uint64_t seed)
{
    size_t i = 0;
    for (uint64_t k = 0; i < count; k++) {
        if (kit_hash64(seed, 2 * k) & 1)
            continue; /* key k absent from this table */
        int64_t copies = dups > 1 ? kit_rand_range(seed, 2 * k + 1, 1, 2 * dups - 1) : 1;
        for (int64_t c = 0; c < copies && i < count; c++)
            keys[i++] = (int32_t)k;
    }
}

void lab4_make_hot(int32_t *keys, size_t count, int32_t key, size_t copies)
{
    if (copies > count)
        copies = count;
    size_t lo = first_past(keys, count, key, 0); /* the first row whose key is >= key */
    size_t first = lo < count - copies ? lo : count - copies; /* the rows before it are < key */
    for (size_t i = first; i < first + copies; i++)
        keys[i] = key;
}

void lab4_make_offsets(int64_t *offsets, size_t obj_count, size_t out_count, uint64_t seed)
{
    offsets[0] = 0;
    if (obj_count == 0)
        return;
#pragma omp parallel for schedule(static)
    for (size_t j = 1; j < obj_count; j++)
        offsets[j] = (int64_t)(((double)j + kit_rand_unit(seed, j) - 0.5) * (double)out_count /
                               (double)obj_count);
    for (size_t j = 1; j < obj_count; j++) /* guard the rounding at the ends */
        if (offsets[j] < offsets[j - 1])
            offsets[j] = offsets[j - 1];
    offsets[obj_count] = (int64_t)out_count;
    for (size_t j = obj_count; j-- > 1;)
        if (offsets[j] > offsets[j + 1])
            offsets[j] = offsets[j + 1];
}
