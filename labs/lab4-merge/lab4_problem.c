/* lab4_problem.c: the data of one run (host copy, device buffers, the CPU
 * reference) and the kit_case of each variant: poison the outputs, run, compare
 * with the reference. */
#include "lab4.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    lab4_problem *problem;
    int variant; /* -1: CUB's merge */
} variant_ctx;

struct lab4_problem {
    lab4_op op;
    size_t a_count, b_count, n;         /* n = a_count + b_count */
    const int32_t *h_a, *h_b;           /* the caller's inputs (host), kept by the caller */
    int64_t *h_offsets;                 /* LBS */
    size_t obj_count, out_count;        /* LBS */
    /* device */
    int32_t *d_ab;                      /* A then B (pairs: then A's values, B's values) */
    int64_t *d_offsets;
    int32_t *d_out;                     /* merge: n keys (pairs: then n values); search: n bounds;
                                           LBS: obj; join: a side */
    int32_t *d_out2;                    /* LBS: rank; join: b side */
    int pairs;                          /* merge: the items carry their origins as values */
    uint8_t *d_flags;                   /* search: n match flags */
    void *cub_temp;
    size_t cub_temp_bytes;
    /* reference */
    int32_t *ref, *ref2;                /* merge of pairs: ref2 = the values */
    uint8_t *ref_flags;
    size_t ref_rows;                    /* join */
    int join_set;
    size_t *join_rows;                  /* written by the join launcher; pinned, so that
                                         * a graded run's record carries it */
    lab4_io io;
    variant_ctx *ctx;                   /* one per variant (lab4_variant_count) */
    variant_ctx cub_ctx;
};

static void *device_zero_alloc(size_t bytes, const char *what)
{
    return kit_device_alloc(bytes ? bytes : 1, what);
}

/* Partition array for a domain of `items` (merge: A + B; LBS: outputs + objects). */
static void alloc_partitions(lab4_problem *p, size_t items)
{
    size_t need = items / LAB4_MIN_NV + 2;
    if (p->io.partitions && p->io.partition_capacity >= need)
        return;
    cudaFree(p->io.partitions);
    p->io.partitions = kit_device_alloc(need * sizeof(int64_t), "the Merge Path partitions");
    p->io.partition_capacity = need;
}

static void upload(void *d, const void *h, size_t bytes)
{
    if (bytes && KIT_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice)))
        kit_die(KIT_EXIT_USAGE, "cannot upload the lab4 input");
}

static int32_t *host_i32(size_t count, const char *what)
{
    return kit_host_alloc((count ? count : 1) * sizeof(int32_t), what);
}

/* Every problem starts this way: zeroed, one case context per variant. */
static lab4_problem *problem_new(lab4_op op)
{
    lab4_problem *p = kit_host_alloc(sizeof *p, "the problem");
    memset(p, 0, sizeof *p);
    p->op = op;
    p->ctx = kit_host_alloc((size_t)lab4_variant_count * sizeof *p->ctx, "the cases");
    if (KIT_CHECK(cudaMallocHost((void **)&p->join_rows, sizeof *p->join_rows)))
        kit_die(KIT_EXIT_USAGE, "cannot allocate pinned host memory for the join's row count");
    p->io.join_rows = p->join_rows;
    return p;
}

/* The values of a merge of pairs: every item's origin, A's then B's. */
static int32_t *make_origins(const lab4_problem *p)
{
    int32_t *vals = host_i32(p->n, "the origins");
#pragma omp parallel for schedule(static)
    for (size_t k = 0; k < p->n; k++)
        vals[k] = k < p->a_count ? lab4_origin_a(k) : lab4_origin_b(k - p->a_count);
    return vals;
}

/* The CPU reference of a merge: keys into ref, and with vals (A's then B's) the
 * values into ref2. Sequential: seconds past 2^30 keys, so it says so. */
static void merge_reference(lab4_problem *p, const int32_t *vals)
{
    kit_note_begin("building the CPU reference merge of %zu %s", p->n, vals ? "pairs" : "keys");
    lab4_ref_merge(p->h_a, vals, p->a_count, p->h_b, vals ? vals + p->a_count : NULL, p->b_count,
                   p->ref, vals ? p->ref2 : NULL);
    kit_note_end();
}

lab4_problem *lab4_problem_create(lab4_op op, const int32_t *h_a, size_t a_count,
                                  const int32_t *h_b, size_t b_count)
{
    size_t n = a_count + b_count;
    size_t dev_bytes = kit_mul_or_die(n, 2 * sizeof(int32_t) + 1, "lab4 buffers");
    if (op == LAB4_JOIN)
        /* keys, offsets, first matches, B rows, partitions */
        dev_bytes = kit_mul_or_die(n, 24, "lab4 join workspace");
    kit_require_device_bytes(dev_bytes, "lab4");
    lab4_problem *p = problem_new(op);
    p->a_count = a_count;
    p->b_count = b_count;
    p->n = n;
    p->h_a = h_a;
    p->h_b = h_b;
    p->d_ab = device_zero_alloc(n * sizeof(int32_t), "the inputs A and B");
    upload(p->d_ab, h_a, a_count * sizeof(int32_t));
    upload(p->d_ab + a_count, h_b, b_count * sizeof(int32_t));
    lab4_io *io = &p->io;
    io->a = p->d_ab;
    io->b = p->d_ab + a_count;
    io->a_count = a_count;
    io->b_count = b_count;
    alloc_partitions(p, n);

    switch (op) {
    case LAB4_MERGE:
        p->d_out = device_zero_alloc(n * sizeof(int32_t), "the merged keys");
        io->merged = p->d_out;
        p->ref = host_i32(n, "the reference");
        merge_reference(p, NULL);
        p->cub_temp_bytes = lab4_cub_merge_temp_bytes(a_count, b_count, 0);
        p->cub_temp = device_zero_alloc(p->cub_temp_bytes, "CUB's merge scratch");
        break;
    case LAB4_SEARCH:
        p->d_out = device_zero_alloc(n * sizeof(int32_t), "the bounds");
        p->d_flags = device_zero_alloc(n, "the match flags");
        io->a_bound = p->d_out;
        io->b_bound = p->d_out + a_count;
        io->a_match = p->d_flags;
        io->b_match = p->d_flags + a_count;
        p->ref = host_i32(n, "the reference");
        p->ref_flags = kit_host_alloc(n ? n : 1, "the reference");
        kit_note_begin("building the CPU reference search of %zu keys", n);
        lab4_ref_search(h_a, a_count, h_b, b_count, p->ref, p->ref + a_count, p->ref_flags,
                        p->ref_flags + a_count);
        kit_note_end();
        break;
    case LAB4_JOIN: {
        lab4_join_ws *ws = &io->ws;
        ws->first_b = device_zero_alloc(a_count * sizeof(int32_t), "the join's first matches");
        ws->offsets = kit_device_alloc((a_count + 1) * sizeof(int64_t), "the join's offsets");
        ws->b_rows = device_zero_alloc(b_count * sizeof(int32_t), "the join's unmatched B rows");
        ws->status_words = lab4_join_status_words(n);
        ws->status = kit_device_alloc(ws->status_words * sizeof(unsigned long long), "the join's look-back");
        ws->rows = kit_device_alloc(sizeof(int64_t), "the join's row count");
        if (KIT_CHECK(cudaMallocHost((void **)&ws->h_rows, sizeof(int64_t))))
            kit_die(KIT_EXIT_USAGE, "cannot allocate pinned host memory");
        break;
    }
    case LAB4_LBS:
        kit_die(KIT_EXIT_USAGE, "lab4_problem_create: use lab4_problem_create_lbs");
    }
    return p;
}

void lab4_problem_use_pairs(lab4_problem *p)
{
    if (p->op != LAB4_MERGE)
        kit_die(KIT_EXIT_USAGE, "lab4_problem_use_pairs on a problem that is not a merge");
    if (p->a_count > LAB4_PAIRS_MAX_SIDE || p->b_count > LAB4_PAIRS_MAX_SIDE)
        kit_die(KIT_EXIT_USAGE, "lab4: a merge of pairs takes at most %zu items per side (int32 origins)",
                LAB4_PAIRS_MAX_SIDE);
    if (p->pairs)
        return;
    size_t n = p->n;
    /* Inputs and outputs twice as long, values after keys: the memcpy row then
     * copies the bytes of the keys and the values in one go. */
    kit_require_device_bytes(kit_mul_or_die(n, 2 * sizeof(int32_t), "lab4 values"), "lab4 values");
    int32_t *h_vals = make_origins(p);
    cudaFree(p->d_ab);
    cudaFree(p->d_out);
    p->d_ab = device_zero_alloc(2 * n * sizeof(int32_t), "the keys and values of A and B");
    p->d_out = device_zero_alloc(2 * n * sizeof(int32_t), "the merged keys and values");
    upload(p->d_ab, p->h_a, p->a_count * sizeof(int32_t));
    upload(p->d_ab + p->a_count, p->h_b, p->b_count * sizeof(int32_t));
    upload(p->d_ab + n, h_vals, n * sizeof(int32_t));
    lab4_io *io = &p->io;
    io->a = p->d_ab;
    io->b = p->d_ab + p->a_count;
    io->a_vals = p->d_ab + n;
    io->b_vals = p->d_ab + n + p->a_count;
    io->merged = p->d_out;
    io->merged_vals = p->d_out + n;
    p->pairs = 1;
    p->ref2 = host_i32(n, "the reference values");
    merge_reference(p, h_vals);
    free(h_vals);
    cudaFree(p->cub_temp);
    p->cub_temp_bytes = lab4_cub_merge_temp_bytes(p->a_count, p->b_count, 1);
    p->cub_temp = device_zero_alloc(p->cub_temp_bytes, "CUB's merge scratch");
}

lab4_problem *lab4_problem_create_lbs(const int64_t *h_offsets, size_t obj_count)
{
    size_t out_count = obj_count ? (size_t)h_offsets[obj_count] : 0;
    kit_require_device_bytes(kit_mul_or_die(obj_count + 1, 8, "lab4 offsets") +
                                 kit_mul_or_die(out_count, 8, "lab4 LBS outputs"),
                             "lab4");
    lab4_problem *p = problem_new(LAB4_LBS);
    p->obj_count = obj_count;
    p->out_count = out_count;
    p->n = out_count;
    p->h_offsets = kit_host_alloc((obj_count + 1) * sizeof(int64_t), "the offsets");
    memcpy(p->h_offsets, h_offsets, (obj_count + 1) * sizeof(int64_t));
    p->d_offsets = kit_device_alloc((obj_count + 1) * sizeof(int64_t), "the offsets");
    upload(p->d_offsets, p->h_offsets, (obj_count + 1) * sizeof(int64_t));
    p->d_out = device_zero_alloc(out_count * sizeof(int32_t), "the LBS objects");
    p->d_out2 = device_zero_alloc(out_count * sizeof(int32_t), "the LBS ranks");
    lab4_io *io = &p->io;
    io->offsets = p->d_offsets;
    io->obj_count = obj_count;
    io->out_count = out_count;
    io->lbs_obj = p->d_out;
    io->lbs_rank = p->d_out2;
    alloc_partitions(p, out_count + obj_count);
    p->ref = host_i32(out_count, "the reference");
    p->ref2 = host_i32(out_count, "the reference");
    kit_note_begin("building the CPU reference LBS of %zu outputs", out_count);
    lab4_ref_lbs(p->h_offsets, obj_count, p->ref, p->ref2);
    kit_note_end();
    return p;
}

int lab4_problem_set_join(lab4_problem *p, lab4_join_type type)
{
    if (p->op != LAB4_JOIN)
        kit_die(KIT_EXIT_USAGE, "lab4_problem_set_join on a problem that is not a join");
    size_t rows = lab4_ref_join_rows(p->h_a, p->a_count, p->h_b, p->b_count, type);
    if (rows > LAB4_JOIN_MAX_ROWS) {
        fprintf(stderr,
                "lab4: the %s join of %zu x %zu rows has %zu output rows, more than the limit of "
                "%zu (2^30) rows this lab allows; use smaller tables or fewer duplicates\n",
                lab4_join_name(type), p->a_count, p->b_count, rows, LAB4_JOIN_MAX_ROWS);
        return KIT_EXIT_USAGE;
    }
    /* Outputs and reference sized for this type's rows (at least what was there
     * before: the four types of one problem reuse the largest buffers). */
    if (!p->join_set || rows > p->io.join_capacity) {
        kit_require_device_bytes(kit_mul_or_die(rows, 2 * sizeof(int32_t), "join rows"),
                                 "the join output");
        cudaFree(p->d_out);
        cudaFree(p->d_out2);
        p->d_out = device_zero_alloc(rows * sizeof(int32_t), "the join's A indices");
        p->d_out2 = device_zero_alloc(rows * sizeof(int32_t), "the join's B indices");
        p->io.join_capacity = rows;
        free(p->ref);
        free(p->ref2);
        p->ref = host_i32(rows, "the reference");
        p->ref2 = host_i32(rows, "the reference");
    }
    /* the expand is launched for join_capacity rows (lab4.h: partitions) */
    alloc_partitions(p, p->io.join_capacity + p->n + 1);
    p->io.join = type;
    p->io.join_a = p->d_out;
    p->io.join_b = p->d_out2;
    kit_note_begin("building the CPU reference %s join (%zu rows)", lab4_join_name(type), rows);
    lab4_ref_join(p->h_a, p->a_count, p->h_b, p->b_count, type, p->ref, p->ref2, rows);
    kit_note_end();
    p->ref_rows = rows;
    p->join_set = 1;
    return 0;
}

size_t lab4_problem_join_rows(const lab4_problem *p) { return p->ref_rows; }

lab4_io *lab4_problem_io(lab4_problem *p) { return &p->io; }

void lab4_problem_destroy(lab4_problem *p)
{
    if (!p)
        return;
    cudaFree(p->d_ab);
    cudaFree(p->d_offsets);
    cudaFree(p->d_out);
    cudaFree(p->d_out2);
    cudaFree(p->d_flags);
    cudaFree(p->cub_temp);
    cudaFree(p->io.partitions);
    lab4_join_ws *ws = &p->io.ws;
    cudaFree(ws->first_b);
    cudaFree(ws->offsets);
    cudaFree(ws->b_rows);
    cudaFree(ws->status);
    cudaFree(ws->rows);
    if (ws->h_rows)
        cudaFreeHost(ws->h_rows);
    cudaFreeHost(p->join_rows);
    free(p->h_offsets);
    free(p->ref);
    free(p->ref2);
    free(p->ref_flags);
    free(p->ctx);
    free(p);
}

/* ---- cases ------------------------------------------------------------------ */

static int prepare(void *arg, cudaStream_t stream)
{
    variant_ctx *c = arg;
    lab4_problem *p = c->problem;
    int r = 0;
    switch (p->op) {
    case LAB4_MERGE:
        r = kit_poison(p->d_out, (p->pairs ? 2 : 1) * p->n * sizeof(int32_t), stream);
        break;
    case LAB4_SEARCH:
        r = kit_poison(p->d_out, p->n * sizeof(int32_t), stream);
        if (!r)
            r = kit_poison(p->d_flags, p->n, stream);
        break;
    case LAB4_LBS:
    case LAB4_JOIN: {
        size_t count = p->op == LAB4_LBS ? p->out_count : p->io.join_capacity;
        r = kit_poison(p->d_out, count * sizeof(int32_t), stream);
        if (!r)
            r = kit_poison(p->d_out2, count * sizeof(int32_t), stream);
        *p->join_rows = (size_t)-1;
        break;
    }
    }
    return r;
}

static int run(void *arg, cudaStream_t stream)
{
    variant_ctx *c = arg;
    lab4_problem *p = c->problem;
    if (c->variant < 0)
        return lab4_cub_merge(&p->io, p->cub_temp, p->cub_temp_bytes, stream);
    int r = lab4_variants[c->variant].run(&p->io, stream);
    if (r == LAB4_ERR_JOIN_TOO_LARGE) {
        fprintf(stderr, "lab4: the join produced %zu rows, more than the %zu the output holds\n",
                *p->join_rows, p->io.join_capacity);
        r = cudaErrorInvalidValue;
    }
    return r;
}

static int compare_u8(const uint8_t *got, const uint8_t *expected, size_t n, char *msg, size_t len)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != expected[i] && bad++ == 0)
            first = i;
    if (!bad)
        return 0;
    snprintf(msg, len, "%zu of %zu differ, first at index %zu: expected %d, got %d", bad, n, first,
             expected[first], got[first]);
    return 1;
}

/* Run a compare and prefix its message with what was compared. */
static int named(int bad, const char *what, char *msg, size_t len)
{
    if (bad) {
        char tmp[512];
        snprintf(tmp, sizeof tmp, "%s: %s", what, msg);
        snprintf(msg, len, "%s", tmp);
    }
    return bad;
}

static int check(void *arg, char *msg, size_t len)
{
    variant_ctx *c = arg;
    lab4_problem *p = c->problem;
    int bad = 0;
    switch (p->op) {
    case LAB4_MERGE: {
        int32_t *got = kit_download(p->d_out, p->n * sizeof(int32_t));
        if (p->pairs) {
            int32_t *vals = kit_download(p->d_out + p->n, p->n * sizeof(int32_t));
            bad = named(lab4_compare_origins(got, vals, p->ref, p->ref2, p->n, msg, len),
                        "merged pairs", msg, len);
            free(vals);
        } else
            bad = named(kit_compare_i32(got, p->ref, p->n, msg, len), "merged keys", msg, len);
        free(got);
        break;
    }
    case LAB4_SEARCH: {
        int32_t *got = kit_download(p->d_out, p->n * sizeof(int32_t));
        uint8_t *flags = kit_download(p->d_flags, p->n);
        bad = named(kit_compare_i32(got, p->ref, p->a_count, msg, len),
                    "a_bound (lower bound of a[i] in b)", msg, len) ||
              named(kit_compare_i32(got + p->a_count, p->ref + p->a_count, p->b_count, msg, len),
                    "b_bound (upper bound of b[j] in a)", msg, len) ||
              named(compare_u8(flags, p->ref_flags, p->a_count, msg, len), "a_match", msg, len) ||
              named(compare_u8(flags + p->a_count, p->ref_flags + p->a_count, p->b_count, msg, len),
                    "b_match", msg, len);
        free(got);
        free(flags);
        break;
    }
    case LAB4_LBS: {
        int32_t *obj = kit_download(p->d_out, p->out_count * sizeof(int32_t));
        int32_t *rank = kit_download(p->d_out2, p->out_count * sizeof(int32_t));
        bad = named(kit_compare_i32(obj, p->ref, p->out_count, msg, len), "object of output k",
                    msg, len) ||
              named(kit_compare_i32(rank, p->ref2, p->out_count, msg, len), "rank of output k",
                    msg, len);
        free(obj);
        free(rank);
        break;
    }
    case LAB4_JOIN: {
        if (*p->join_rows != p->ref_rows) {
            snprintf(msg, len, "%s join: %zu rows reported, %zu expected", lab4_join_name(p->io.join),
                     *p->join_rows, p->ref_rows);
            return 1;
        }
        int32_t *ga = kit_download(p->d_out, p->ref_rows * sizeof(int32_t));
        int32_t *gb = kit_download(p->d_out2, p->ref_rows * sizeof(int32_t));
        bad = named(kit_compare_i32(ga, p->ref, p->ref_rows, msg, len), "a_index of row", msg, len) ||
              named(kit_compare_i32(gb, p->ref2, p->ref_rows, msg, len), "b_index of row", msg, len);
        free(ga);
        free(gb);
        break;
    }
    }
    return bad;
}

/* Bytes one run must move: inputs read once, outputs written once. */
static double useful_bytes(const lab4_problem *p)
{
    switch (p->op) {
    case LAB4_MERGE: /* a key (and a value) in and out per item */
        return (p->pairs ? 16.0 : 8.0) * (double)p->n;
    case LAB4_SEARCH:
        return 9.0 * (double)p->n; /* keys in, a bound and a flag out per key */
    case LAB4_LBS:
        return 8.0 * (double)(p->obj_count + 1) + 8.0 * (double)p->out_count;
    case LAB4_JOIN:
        return 4.0 * (double)p->n + 8.0 * (double)p->ref_rows;
    }
    return 0;
}

static double items(const lab4_problem *p)
{
    return p->op == LAB4_JOIN ? (double)(p->n + p->ref_rows) : (double)p->n;
}

kit_case lab4_problem_case(lab4_problem *p, int v)
{
    if (v < 0 || v >= lab4_variant_count)
        kit_die(KIT_EXIT_USAGE, "lab4_problem_case: no variant %d (the table has %d)", v, lab4_variant_count);
    if (lab4_variants[v].op != p->op)
        kit_die(KIT_EXIT_USAGE, "lab4_problem_case: variant %s does not compute this problem's operation",
                lab4_variants[v].info.slug);
    if (p->op == LAB4_JOIN && !p->join_set)
        kit_die(KIT_EXIT_USAGE, "lab4: call lab4_problem_set_join before asking for a join case");
    p->ctx[v] = (variant_ctx){ p, v };
    kit_case c = { .variant = lab4_variants[v].info.slug, .prepare = prepare, .run = run, .check = check,
                   .ctx = &p->ctx[v], .bytes = useful_bytes(p), .items = items(p) };
    return c;
}

kit_case lab4_problem_cub_case(lab4_problem *p)
{
    if (p->op != LAB4_MERGE)
        kit_die(KIT_EXIT_USAGE, "lab4: the cub row is a merge");
    p->cub_ctx = (variant_ctx){ p, -1 };
    kit_case c = { .variant = "cub", .prepare = prepare, .run = run, .check = check, .ctx = &p->cub_ctx,
                   .bytes = useful_bytes(p), .items = items(p) };
    return c;
}

void lab4_problem_copy_limit(lab4_problem *p, kit_config *cfg)
{
    cfg->items = items(p);
    switch (p->op) {
    case LAB4_MERGE:
    case LAB4_SEARCH:
        cfg->copy_src = p->d_ab;
        cfg->copy_dst = p->d_out;
        cfg->copy_bytes = (p->pairs ? 2 : 1) * p->n * sizeof(int32_t);
        break;
    case LAB4_LBS: { /* the offsets (an initialized input) into the object output */
        size_t in_bytes = (p->obj_count + 1) * sizeof(int64_t), out_bytes = p->out_count * sizeof(int32_t);
        cfg->copy_src = p->d_offsets;
        cfg->copy_dst = p->d_out;
        cfg->copy_bytes = in_bytes < out_bytes ? in_bytes : out_bytes;
        break;
    }
    case LAB4_JOIN: {
        size_t rows = p->io.join_capacity;
        cfg->copy_src = p->d_ab;
        cfg->copy_dst = p->d_out;
        cfg->copy_bytes = (p->n < rows ? p->n : rows) * sizeof(int32_t);
        break;
    }
    }
}
