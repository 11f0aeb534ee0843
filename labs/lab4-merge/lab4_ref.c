/* lab4_ref.c: the CPU reference ("gold") for every lab4 operation, written
 * independently of the kernels: a sequential two-cursor merge, one binary search
 * per element, a loop over the objects, and a hash join. Also the input data. */
#include "lab4.h"

#include <stdlib.h>
#include <string.h>

const char *lab4_join_name(lab4_join_type t)
{
    static const char *names[] = { "inner", "left", "right", "outer" };
    return (unsigned)t < 4 ? names[t] : "?";
}

void lab4_ref_merge(const int32_t *a, size_t a_count, const int32_t *b, size_t b_count,
                    int32_t *out)
{
    size_t i = 0, j = 0, k = 0;
    while (i < a_count && j < b_count)
        out[k++] = b[j] < a[i] ? b[j++] : a[i++]; /* a first on ties */
    while (i < a_count)
        out[k++] = a[i++];
    while (j < b_count)
        out[k++] = b[j++];
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

size_t lab4_ref_join_rows(const int32_t *a, size_t a_count, const int32_t *b, size_t b_count,
                          lab4_join_type type)
{
    int keep_a = type == LAB4_LEFT || type == LAB4_OUTER;
    int keep_b = type == LAB4_RIGHT || type == LAB4_OUTER;
    hash_table tb, ta;
    hash_build(&tb, b, b_count);
    size_t rows = 0;
    for (size_t i = 0; i < a_count; i++) {
        int64_t s = hash_find(&tb, a[i]);
        rows += s >= 0 ? (size_t)tb.count[s] : (size_t)keep_a;
    }
    if (keep_b) {
        hash_build(&ta, a, a_count);
        for (size_t j = 0; j < b_count; j++)
            rows += hash_find(&ta, b[j]) < 0;
        hash_free(&ta);
    }
    hash_free(&tb);
    return rows;
}

/* LSD radix sort of 64-bit keys, 16 bits per pass. */
static void radix_sort_u64(uint64_t *v, size_t n)
{
    uint64_t *tmp = kit_host_alloc((n ? n : 1) * sizeof(uint64_t), "the sort buffer");
    size_t *count = kit_host_alloc(65536 * sizeof(size_t), "the sort counts");
    for (int shift = 0; shift < 64; shift += 16) {
        memset(count, 0, 65536 * sizeof(size_t));
        for (size_t i = 0; i < n; i++)
            count[(v[i] >> shift) & 0xFFFF]++;
        size_t sum = 0;
        for (size_t d = 0; d < 65536; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[(v[i] >> shift) & 0xFFFF]++] = v[i];
        memcpy(v, tmp, n * sizeof(uint64_t));
    }
    free(tmp);
    free(count);
}

void lab4_ref_join(const int32_t *a, size_t a_count, const int32_t *b, size_t b_count,
                   lab4_join_type type, int32_t *out_a, int32_t *out_b, size_t rows)
{
    int keep_a = type == LAB4_LEFT || type == LAB4_OUTER;
    int keep_b = type == LAB4_RIGHT || type == LAB4_OUTER;
    /* Sort key of a row: (a_index, b_index + 1), rows without A side after all A
     * rows (a_index := a_count), so sorting the keys gives the defined order. */
    uint64_t *key = kit_host_alloc((rows ? rows : 1) * sizeof(uint64_t), "the join rows");
    size_t r = 0;
    hash_table tb;
    hash_build(&tb, b, b_count);
    for (size_t i = 0; i < a_count; i++) {
        int64_t s = hash_find(&tb, a[i]);
        if (s >= 0) {
            for (int64_t j = tb.head[s]; j >= 0; j = tb.next[j])
                if (r < rows)
                    key[r++] = (uint64_t)i << 32 | (uint64_t)(j + 1);
        } else if (keep_a && r < rows)
            key[r++] = (uint64_t)i << 32;
    }
    hash_free(&tb);
    if (keep_b) {
        hash_table ta;
        hash_build(&ta, a, a_count);
        for (size_t j = 0; j < b_count; j++)
            if (hash_find(&ta, b[j]) < 0 && r < rows)
                key[r++] = (uint64_t)a_count << 32 | (uint64_t)(j + 1);
        hash_free(&ta);
    }
    if (r != rows)
        kit_die(KIT_EXIT_USAGE, "lab4_ref_join: %zu rows built, %zu expected", r, rows);
    radix_sort_u64(key, rows);
    for (size_t k = 0; k < rows; k++) {
        uint64_t hi = key[k] >> 32;
        out_a[k] = hi == a_count ? -1 : (int32_t)hi;
        out_b[k] = (int32_t)(key[k] & 0xFFFFFFFFu) - 1;
    }
    free(key);
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
