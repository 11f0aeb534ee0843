/* lab6_problem.c: the data of one run on every local GPU (host copies, device
 * buffers, workspace, reference) and the kit_case of each row. Every case's run is
 * wrapped in lab6_fork / lab6_join, so the events on the harness's stream time the
 * work of every GPU; prepare poisons every output the same way. */
#include "lab6.h"

#include <stdlib.h>
#include <string.h>

static void *alloc_on(const lab6_team *t, int l, size_t bytes, const char *what)
{
    if (lab6_use(t, l))
        kit_die(KIT_EXIT_USAGE, "cannot use device %d", t->device[l]);
    return kit_device_alloc(bytes, what);
}

static void upload(void *d, const void *h, size_t bytes, const char *what)
{
    if (bytes && KIT_CHECK(cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice)))
        kit_die(KIT_EXIT_USAGE, "cannot upload %s", what);
}

static void *pinned(size_t bytes, const char *what)
{
    void *p = NULL;
    if (KIT_CHECK(cudaMallocHost(&p, bytes ? bytes : 1)))
        kit_die(KIT_EXIT_USAGE, "cannot allocate %.2f GiB of pinned host memory for %s", bytes / 1073741824.0, what);
    return p;
}

/* Fill `bytes` of every local GPU's `out[l]` with 0xA5 (values no variant writes by chance). */
static int poison_all(const lab6_team *t, void *const *out, const size_t *bytes, cudaStream_t stream)
{
    int r = lab6_fork(t, stream);
    for (int l = 0; l < t->local && !r; l++)
        if (!(r = lab6_use(t, l)))
            r = kit_poison(out[l], bytes[l], t->lane[l][0]);
    int j = lab6_join(t, stream);
    return r ? r : j;
}

/* ---- the all-reduce -------------------------------------------------------------- */

typedef struct {
    lab6_reduce_problem *problem;
    int variant;
} reduce_ctx;

struct lab6_reduce_problem {
    const lab6_team *team;
    size_t n;
    lab6_type type;
    void *h_ref; /* the sum of every GPU's input */
    void *d_in[LAB6_MAX_LOCAL], *d_out[LAB6_MAX_LOCAL];
    lab6_reduce_ws ws;
    lab6_reduce_io io;
    reduce_ctx ctx[16];
    size_t out_bytes[LAB6_MAX_LOCAL];
};

lab6_reduce_problem *lab6_reduce_create(const lab6_team *t, size_t n, lab6_type type, int chunks, uint64_t seed)
{
    const int G = t->gpus;
    size_t bytes = kit_mul_or_die(n, lab6_type_bytes(type), "n values");
    lab6_reduce_problem *p = kit_host_alloc(sizeof *p, "the problem");
    memset(p, 0, sizeof *p);
    p->team = t;
    p->n = n;
    p->type = type;

    /* The reference: every ring position's input, added in rank order. Inputs depend
     * only on (seed, rank), so each process builds all of them itself. */
    kit_note_begin("lab6: building the inputs of %d GPU(s) and their sum (%zu values each)", G, n);
    p->h_ref = kit_host_alloc(bytes, "the reference");
    void *h_in = kit_host_alloc(bytes, "an input");
    lab6_fill_reduce_input(p->h_ref, n, type, seed, 0);
    for (int g = 1; g < G; g++) {
        lab6_fill_reduce_input(h_in, n, type, seed, g);
        const void *both[2] = { p->h_ref, h_in };
        lab6_ref_allreduce(both, 2, n, type, p->h_ref);
    }
    kit_note_end();

    int one_process = t->local == G;
    for (int l = 0; l < t->local; l++) {
        size_t stage = l == 0 && one_process ? (size_t)(G - 1) * bytes : 0;
        if (lab6_use(t, l))
            kit_die(KIT_EXIT_USAGE, "cannot use device %d", t->device[l]);
        kit_require_device_bytes(2 * bytes + stage, "lab6's all-reduce");
        p->d_in[l] = alloc_on(t, l, bytes, "an input");
        p->d_out[l] = alloc_on(t, l, bytes, "an output");
        p->out_bytes[l] = bytes;
        lab6_fill_reduce_input(h_in, n, type, seed, lab6_rank(t, l));
        upload(p->d_in[l], h_in, bytes, "an all-reduce input");
    }
    free(h_in);
    if (one_process) { /* host-staged and gather-reduce-broadcast need every input here */
        for (int g = 0; g <= G; g++)
            p->ws.host[g] = pinned(bytes, "host-staged's copies");
        p->ws.stage = alloc_on(t, 0, (size_t)(G - 1) * bytes, "gather-reduce-broadcast's staging area");
    }
    p->io = (lab6_reduce_io){ .team = t, .n = n, .type = type, .chunks = chunks, .ws = &p->ws };
    for (int l = 0; l < t->local; l++) {
        p->io.in[l] = p->d_in[l];
        p->io.out[l] = p->d_out[l];
    }
    lab6_use(t, 0);
    return p;
}

void lab6_reduce_destroy(lab6_reduce_problem *p)
{
    if (!p)
        return;
    for (int l = 0; l < p->team->local; l++) {
        cudaFree(p->d_in[l]);
        cudaFree(p->d_out[l]);
    }
    for (int g = 0; g <= LAB6_MAX_LOCAL; g++)
        if (p->ws.host[g])
            cudaFreeHost(p->ws.host[g]);
    cudaFree(p->ws.stage);
    free(p->h_ref);
    free(p);
}

static int reduce_prepare(void *arg, cudaStream_t stream)
{
    lab6_reduce_problem *p = ((reduce_ctx *)arg)->problem;
    return poison_all(p->team, p->d_out, p->out_bytes, stream);
}

static int reduce_run(void *arg, cudaStream_t stream)
{
    reduce_ctx *c = arg;
    const lab6_team *t = c->problem->team;
    int r = lab6_fork(t, stream);
    if (!r)
        r = lab6_variants[c->variant].reduce(&c->problem->io);
    int j = lab6_join(t, stream);
    return r ? r : j;
}

static int reduce_check(void *arg, char *msg, size_t len)
{
    lab6_reduce_problem *p = ((reduce_ctx *)arg)->problem;
    size_t bytes = p->n * lab6_type_bytes(p->type);
    for (int l = 0; l < p->team->local; l++) {
        void *got = kit_download(p->d_out[l], bytes);
        char why[256];
        /* floats: exact, because every input is a multiple of 2^-8 small enough that
         * every partial sum is exact (lab6_ref.c) */
        int bad = p->type == LAB6_I32 ? kit_compare_i32(got, p->h_ref, p->n, why, sizeof why)
                                      : kit_compare_f32(got, p->h_ref, p->n, 0, 0, why, sizeof why);
        free(got);
        if (bad) {
            snprintf(msg, len, "GPU %d (of %d): %s", lab6_rank(p->team, l), p->team->gpus, why);
            return 1;
        }
    }
    return 0;
}

kit_case lab6_reduce_case(lab6_reduce_problem *p, int v)
{
    if (v < 0 || v >= lab6_variant_count || lab6_variants[v].op != LAB6_ALLREDUCE)
        kit_die(KIT_EXIT_USAGE, "lab6: variant %d is not an all-reduce", v);
    p->ctx[v] = (reduce_ctx){ p, v };
    double bytes = (double)p->n * (double)lab6_type_bytes(p->type);
    /* GB/s is nccl-tests' algbw: the message (n values) over the time. */
    return (kit_case){ .variant = lab6_variants[v].info.slug, .prepare = reduce_prepare, .run = reduce_run,
                       .check = reduce_check, .ctx = &p->ctx[v], .bytes = bytes, .items = (double)p->n };
}

static int p2p_copy_run(void *arg, cudaStream_t stream)
{
    lab6_reduce_problem *p = arg;
    const lab6_team *t = p->team;
    int from = 1 % t->local;
    int r = lab6_fork(t, stream);
    if (!r && p->n)
        r = KIT_CHECK(cudaMemcpyPeerAsync(p->d_out[0], t->device[0], p->d_in[from], t->device[from],
                                          p->n * lab6_type_bytes(p->type), t->lane[0][0]));
    int j = lab6_join(t, stream);
    return r ? r : j;
}

kit_case lab6_p2p_copy_case(lab6_reduce_problem *p)
{
    return (kit_case){ .variant = "p2p-copy", .run = p2p_copy_run, .ctx = p,
                       .bytes = (double)p->n * (double)lab6_type_bytes(p->type), .items = (double)p->n };
}

void lab6_reduce_copy_limit(lab6_reduce_problem *p, kit_config *cfg)
{
    cfg->copy_src = p->d_in[0];
    cfg->copy_dst = p->d_out[0];
    cfg->copy_bytes = p->n * lab6_type_bytes(p->type);
    cfg->items = (double)p->n;
}

int lab6_reduce_corrupt(lab6_reduce_problem *p, size_t i)
{
    uint32_t v;
    uint32_t *at = (uint32_t *)p->d_out[0] + i;
    if (i >= p->n || KIT_CHECK(cudaMemcpy(&v, at, sizeof v, cudaMemcpyDeviceToHost)))
        return -1;
    v ^= 1u << 8; /* int32: off by 256; float: off in the significand */
    return KIT_CHECK(cudaMemcpy(at, &v, sizeof v, cudaMemcpyHostToDevice));
}

/* ---- the applications ------------------------------------------------------------- */

typedef struct {
    lab6_app_problem *problem;
    int variant; /* index into lab6_variants, or LAB6_ONE_GPU */
} app_ctx;

struct lab6_app_problem {
    const lab6_team *team;
    lab6_op op;
    size_t total;
    int bins;
    uint32_t *h_keys; /* every key, in ring order */
    void *h_ref;      /* histogram: bins int32; scan, sort: total uint32 */
    size_t begin[LAB6_MAX_LOCAL];
    void *d_in[LAB6_MAX_LOCAL], *d_out[LAB6_MAX_LOCAL];
    size_t out_bytes[LAB6_MAX_LOCAL];
    lab6_app_ws ws;
    lab6_app_io io;
    /* the one-GPU row, on local GPU 0; one_out holds `total` keys even for a
     * histogram: it is also where the memcpy row copies the keys */
    void *one_in, *one_out, *one_temp;
    size_t one_temp_bytes, one_out_bytes;
    app_ctx ctx[2];
    char row_name[2][40];
};

/* Temporary storage CUB needs on local GPU l (a size query of every call it makes). */
static size_t app_temp_bytes(const lab6_app_problem *p, int l)
{
    size_t a = 0, b = 0, count = p->io.count[l];
    switch (p->op) {
    case LAB6_HISTOGRAM:
        lab6_cub_histogram(NULL, &a, NULL, count, p->bins, NULL, 0);
        break;
    case LAB6_SCAN:
        lab6_cub_sum(NULL, &a, NULL, count, NULL, 0);
        lab6_cub_seeded_scan(NULL, &b, NULL, count, NULL, NULL, 0);
        break;
    default:
        lab6_cub_sort(NULL, &a, NULL, count, NULL, 0);
        lab6_cub_merge(NULL, &b, NULL, p->total, NULL, 0, NULL, 0);
        break;
    }
    return a > b ? a : b;
}

static size_t one_gpu_temp_bytes(const lab6_app_problem *p)
{
    size_t bytes = 0;
    if (p->op == LAB6_HISTOGRAM)
        lab6_cub_histogram(NULL, &bytes, NULL, p->total, p->bins, NULL, 0);
    else if (p->op == LAB6_SCAN)
        lab6_cub_exclusive_sum(NULL, &bytes, NULL, p->total, NULL, 0);
    else
        lab6_cub_sort(NULL, &bytes, NULL, p->total, NULL, 0);
    return bytes;
}

static size_t app_out_bytes(const lab6_app_problem *p, size_t count)
{
    return p->op == LAB6_HISTOGRAM ? (size_t)p->bins * sizeof(int32_t)
         : p->op == LAB6_SCAN      ? count * sizeof(uint32_t)
                                   : p->total * sizeof(uint32_t); /* a sort may send every key to one GPU */
}

static void app_reference(lab6_app_problem *p)
{
    if (p->op == LAB6_HISTOGRAM) {
        p->h_ref = kit_host_alloc((size_t)p->bins * sizeof(int32_t), "the reference histogram");
        lab6_ref_histogram(p->h_keys, p->total, p->bins, p->h_ref);
    } else {
        p->h_ref = kit_host_alloc(p->total * sizeof(uint32_t), "the reference");
        if (p->op == LAB6_SCAN)
            lab6_ref_exclusive_scan(p->h_keys, p->total, p->h_ref);
        else
            lab6_ref_sort(p->h_keys, p->total, p->h_ref);
    }
}

/* The buffers of the sort's exchange on local GPU l, and the host side of its plan. */
static void alloc_sort_ws(lab6_app_problem *p, int l)
{
    const lab6_team *t = p->team;
    const size_t G = (size_t)t->gpus, per_rank = LAB6_DIGITS + 1;
    lab6_app_ws *ws = &p->ws;
    ws->sorted[l] = alloc_on(t, l, p->io.count[l] * sizeof(uint32_t), "the sorted shard");
    ws->received[l] = alloc_on(t, l, p->total * sizeof(uint32_t), "the runs received");
    ws->ends[l] = alloc_on(t, l, G * sizeof(lab6_key_ends), "every shard's first and last key");
    ws->pos[l] = alloc_on(t, l, G * per_rank * sizeof(uint64_t), "every shard's digit positions");
    ws->runs[l] = kit_host_alloc(G * sizeof(lab6_span), "the runs to merge");
    if (l == 0) {
        ws->host_pos = pinned(G * per_rank * sizeof(uint64_t), "the digit positions");
        ws->host_hist = kit_host_alloc(LAB6_DIGITS * sizeof(uint64_t), "the digit histogram");
        ws->first_digit = kit_host_alloc((G + 1) * sizeof(int), "the split");
    }
}

lab6_app_problem *lab6_app_create(const lab6_team *t, lab6_op op, size_t total, const char *dist, int bins,
                                  uint64_t seed)
{
    if (op <= LAB6_ALLREDUCE || op >= LAB6_OPS)
        kit_die(KIT_EXIT_USAGE, "lab6: %d is not an application", (int)op);
    const int G = t->gpus;
    size_t key_bytes = kit_mul_or_die(total, sizeof(uint32_t), "the keys");
    lab6_app_problem *p = kit_host_alloc(sizeof *p, "the problem");
    memset(p, 0, sizeof *p);
    p->team = t;
    p->op = op;
    p->total = total;
    p->bins = bins;
    kit_note_begin("lab6: building %zu keys and the CPU reference (%s)", total, lab6_op_name(op));
    p->h_keys = kit_host_alloc(key_bytes, "the keys");
    lab6_fill_keys(p->h_keys, total, op, dist, bins, seed);
    app_reference(p);
    kit_note_end();
    p->io = (lab6_app_io){ .team = t, .total = total, .bins = bins, .ws = &p->ws };

    for (int l = 0; l < t->local; l++) {
        size_t count;
        lab6_split(total, (size_t)G, 1, (size_t)lab6_rank(t, l), &p->begin[l], &count);
        p->io.count[l] = count;
        p->out_bytes[l] = app_out_bytes(p, count);
        if (lab6_use(t, l)) /* CUB sizes its scratch for the current device */
            kit_die(KIT_EXIT_USAGE, "cannot use device %d", t->device[l]);
        size_t temp = app_temp_bytes(p, l);
        size_t extra = op == LAB6_SORT ? (count + total) * sizeof(uint32_t) : 0;
        size_t one_out = app_out_bytes(p, total) > key_bytes ? app_out_bytes(p, total) : key_bytes;
        size_t one_gpu = l == 0 ? key_bytes + one_out + one_gpu_temp_bytes(p) : 0;
        kit_require_device_bytes(count * sizeof(uint32_t) + p->out_bytes[l] + temp + extra + one_gpu, "lab6's application");
        p->d_in[l] = alloc_on(t, l, count * sizeof(uint32_t), "a shard");
        upload(p->d_in[l], p->h_keys + p->begin[l], count * sizeof(uint32_t), "a shard");
        p->d_out[l] = alloc_on(t, l, p->out_bytes[l], "a GPU's output");
        p->ws.cub_temp_bytes[l] = temp;
        p->ws.cub_temp[l] = alloc_on(t, l, temp, "CUB's temporary storage");
        if (op == LAB6_SCAN) {
            p->ws.totals[l] = alloc_on(t, l, (size_t)G * sizeof(uint32_t), "every shard's total");
            p->ws.offset[l] = alloc_on(t, l, sizeof(uint32_t), "the scan's offset");
        }
        if (op == LAB6_SORT)
            alloc_sort_ws(p, l);
        p->io.in[l] = p->d_in[l];
        p->io.out[l] = p->d_out[l];
    }
    /* the same work on one GPU */
    lab6_use(t, 0);
    p->one_out_bytes = app_out_bytes(p, total);
    p->one_temp_bytes = one_gpu_temp_bytes(p);
    p->one_in = alloc_on(t, 0, key_bytes, "the one-GPU keys");
    upload(p->one_in, p->h_keys, key_bytes, "the one-GPU keys");
    p->one_out = alloc_on(t, 0, p->one_out_bytes > key_bytes ? p->one_out_bytes : key_bytes, "the one-GPU output");
    p->one_temp = alloc_on(t, 0, p->one_temp_bytes, "CUB's temporary storage (one GPU)");
    lab6_use(t, 0);
    return p;
}

void lab6_app_destroy(lab6_app_problem *p)
{
    if (!p)
        return;
    lab6_app_ws *ws = &p->ws;
    for (int l = 0; l < p->team->local; l++) {
        cudaFree(p->d_in[l]);
        cudaFree(p->d_out[l]);
        cudaFree(ws->cub_temp[l]);
        cudaFree(ws->totals[l]);
        cudaFree(ws->offset[l]);
        cudaFree(ws->sorted[l]);
        cudaFree(ws->received[l]);
        cudaFree(ws->ends[l]);
        cudaFree(ws->pos[l]);
        free(ws->runs[l]);
    }
    if (ws->host_pos)
        cudaFreeHost(ws->host_pos);
    free(ws->host_hist);
    free(ws->first_digit);
    cudaFree(p->one_in);
    cudaFree(p->one_out);
    cudaFree(p->one_temp);
    free(p->h_keys);
    free(p->h_ref);
    free(p);
}

static int app_prepare(void *arg, cudaStream_t stream)
{
    app_ctx *c = arg;
    lab6_app_problem *p = c->problem;
    if (c->variant == LAB6_ONE_GPU)
        return kit_poison(p->one_out, p->one_out_bytes, stream);
    return poison_all(p->team, p->d_out, p->out_bytes, stream);
}

static int app_run(void *arg, cudaStream_t stream)
{
    app_ctx *c = arg;
    lab6_app_problem *p = c->problem;
    if (c->variant == LAB6_ONE_GPU) { /* on the harness's own stream, on local GPU 0 */
        size_t *bytes = &p->one_temp_bytes;
        if (p->op == LAB6_HISTOGRAM)
            return lab6_cub_histogram(p->one_temp, bytes, p->one_in, p->total, p->bins, p->one_out, stream);
        if (p->op == LAB6_SCAN)
            return lab6_cub_exclusive_sum(p->one_temp, bytes, p->one_in, p->total, p->one_out, stream);
        return lab6_cub_sort(p->one_temp, bytes, p->one_in, p->total, p->one_out, stream);
    }
    int r = lab6_fork(p->team, stream);
    if (!r)
        r = lab6_variants[c->variant].app(&p->io);
    int j = lab6_join(p->team, stream);
    return r ? r : j;
}

/* Compare n values of device memory with the reference at ref_at; msg names `who`. */
static int compare_part(const void *d, size_t n, const void *ref_at, int is_histogram, const char *who, char *msg,
                        size_t len)
{
    char why[256];
    void *got = kit_download(d, n * sizeof(uint32_t));
    int bad = is_histogram ? kit_compare_i32(got, ref_at, n, why, sizeof why)
                           : kit_compare_u32(got, ref_at, n, why, sizeof why);
    free(got);
    if (bad)
        snprintf(msg, len, "%s: %s", who, why);
    return bad;
}

static int app_check(void *arg, char *msg, size_t len)
{
    app_ctx *c = arg;
    lab6_app_problem *p = c->problem;
    const lab6_team *t = p->team;
    int hist = p->op == LAB6_HISTOGRAM;
    const uint32_t *ref = p->h_ref;
    if (c->variant == LAB6_ONE_GPU)
        return compare_part(p->one_out, hist ? (size_t)p->bins : p->total, ref, hist, "one GPU", msg, len);
    size_t sorted_keys = 0;
    for (int l = 0; l < t->local; l++) {
        char who[64];
        snprintf(who, sizeof who, "GPU %d (of %d)", lab6_rank(t, l), t->gpus);
        size_t count = hist ? (size_t)p->bins : p->op == LAB6_SCAN ? p->io.count[l] : p->io.out_count[l];
        size_t at = hist ? 0 : p->op == LAB6_SCAN ? p->begin[l] : p->io.out_offset[l];
        /* a histogram's bins are checked whole; a scan's or a sort's part must lie
         * inside the n keys */
        if (!hist && (at > p->total || count > p->total - at)) {
            snprintf(msg, len, "%s: holds keys %zu..%zu of %zu", who, at, at + count, p->total);
            return 1;
        }
        if (compare_part(p->d_out[l], count, ref + at, hist, who, msg, len))
            return 1;
        sorted_keys += count;
    }
    /* with every GPU in this process, the sorted parts must add up to every key */
    if (p->op == LAB6_SORT && t->local == t->gpus && sorted_keys != p->total) {
        snprintf(msg, len, "the GPUs hold %zu keys in all, expected %zu", sorted_keys, p->total);
        return 1;
    }
    return 0;
}

kit_case lab6_app_case(lab6_app_problem *p, int v)
{
    int one = v == LAB6_ONE_GPU;
    if (!one && (v < 0 || v >= lab6_variant_count || lab6_variants[v].op != p->op))
        kit_die(KIT_EXIT_USAGE, "lab6: variant %d is not the %s of this problem", v, lab6_op_name(p->op));
    p->ctx[one] = (app_ctx){ p, v };
    if (one)
        snprintf(p->row_name[1], sizeof p->row_name[1], "one-gpu:%s", lab6_kernel_name(p->op));
    else
        snprintf(p->row_name[0], sizeof p->row_name[0], "%s@%dgpu", lab6_op_name(p->op), p->team->gpus);
    double keys = (double)p->total * sizeof(uint32_t);
    /* GB/s counts each key read once (histogram), read and written once (scan, sort) */
    return (kit_case){ .variant = p->row_name[one], .prepare = app_prepare, .run = app_run, .check = app_check,
                       .ctx = &p->ctx[one], .bytes = p->op == LAB6_HISTOGRAM ? keys : 2 * keys,
                       .items = (double)p->total };
}

void lab6_app_copy_limit(lab6_app_problem *p, kit_config *cfg)
{
    cfg->copy_src = p->one_in;
    cfg->copy_dst = p->one_out;
    cfg->copy_bytes = p->total * sizeof(uint32_t);
    cfg->items = (double)p->total;
}

size_t lab6_app_out_count(const lab6_app_problem *p, int l)
{
    return p->op == LAB6_SORT ? p->io.out_count[l] : p->io.count[l];
}
