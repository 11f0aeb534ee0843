/* lab1_problem.c: the data of one run (host copy, device buffers, CPU reference)
 * and the kit_case of each variant: poison the bins, run, compare with the
 * reference. */
#include "lab1.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    lab1_problem *problem;
    int variant; /* -1: the CUB row */
    lab1_op op;
} case_ctx;

struct lab1_problem {
    size_t n, bins;
    int with_values;
    int *h_keys;
    double *h_values;
    /* Keys and values share one allocation, so the memcpy row of scatter-add can
     * copy exactly the bytes the variants read. */
    void *d_input, *d_copy; /* d_copy: allocated by the first lab1_problem_copy_limit */
    size_t keys_bytes, input_bytes;
    int *d_counts;
    double *d_sums;
    int *d_work; /* zeroed once here; the launchers that use it leave it zero */
    void *d_cub_temp;
    size_t cub_temp_bytes;
    int *ref_counts;
    double *ref_sums;
    lab1_io io;
    case_ctx *ctx; /* [op * lab1_variant_count + variant] */
    case_ctx cub_ctx;
};

static size_t round_up(size_t x, size_t to) { return kit_div_up(x, to) * to; }

size_t lab1_device_bytes(size_t n, size_t bins, int with_values)
{
    size_t keys = round_up(kit_mul_or_die(n, sizeof(int), "the keys"), 256);
    size_t input = keys + (with_values ? kit_mul_or_die(n, sizeof(double), "the values") : 0);
    /* the input, both outputs, the scratch, and room for CUB's temporary */
    return input + bins * (2 * sizeof(int) + sizeof(double)) + ((size_t)1 << 20);
}

/* The CPU side: keys, values and the reference results. */
static void make_host_data(lab1_problem *p, lab1_dist d, uint64_t seed)
{
    size_t n = p->n, bins = p->bins;
    /* +1 element so that n == 0 still allocates something */
    p->h_keys = kit_host_alloc((n + 1) * sizeof(int), "the keys");
    lab1_generate_keys(p->h_keys, n, bins, d, seed);
    p->ref_counts = kit_host_alloc(bins * sizeof(int), "the reference counts");
    if (lab1_ref_histogram(p->h_keys, n, (int)bins, p->ref_counts))
        kit_die(KIT_EXIT_USAGE, "lab1: a bin would count more than 2^31-1 of the %zu keys, past what "
                "the int32 counters hold: use more --bins, another --dist or a smaller --n", n);
    if (p->with_values) {
        p->h_values = kit_host_alloc((n + 1) * sizeof(double), "the values");
        lab1_generate_values(p->h_values, n, seed);
        p->ref_sums = kit_host_alloc(bins * sizeof(double), "the reference sums");
        lab1_ref_scatter_add(p->h_keys, p->h_values, n, (int)bins, p->ref_sums);
    }
}

/* The device's facts the launchers plan with. */
static void query_device(lab1_io *io)
{
    int dev = 0, sms = 0, block = 0, optin = 0, l2 = 0;
    if (KIT_CHECK(cudaGetDevice(&dev)) ||
        KIT_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) ||
        KIT_CHECK(cudaDeviceGetAttribute(&block, cudaDevAttrMaxSharedMemoryPerBlock, dev)) ||
        KIT_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)) ||
        KIT_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev)))
        kit_die(KIT_EXIT_USAGE, "cannot query the device");
    io->sms = sms;
    io->smem_block = (size_t)block;
    io->smem_optin = (size_t)optin;
    io->l2_bytes = (size_t)l2;
}

lab1_problem *lab1_problem_create(size_t n, size_t bins, lab1_dist d, uint64_t seed, int with_values)
{
    kit_require_device_bytes(lab1_device_bytes(n, bins, with_values), "lab1");
    lab1_problem *p = kit_host_alloc(sizeof *p, "the problem");
    memset(p, 0, sizeof *p);
    p->n = n;
    p->bins = bins;
    p->with_values = with_values;
    p->keys_bytes = round_up(n * sizeof(int), 256);
    p->input_bytes = p->keys_bytes + (with_values ? n * sizeof(double) : 0);
    kit_note_begin("generating %zu keys%s and the CPU reference", n, with_values ? " and values" : "");
    make_host_data(p, d, seed);
    kit_note_end();

    p->d_input = kit_device_alloc(p->input_bytes + 256, "the keys and values");
    p->d_counts = kit_device_alloc(bins * sizeof(int), "the counts");
    p->d_sums = kit_device_alloc(bins * sizeof(double), "the sums");
    p->d_work = kit_device_alloc(LAB1_WORK_INTS(bins) * sizeof(int), "the scratch bins");
    double *d_values = (double *)((char *)p->d_input + p->keys_bytes);
    /* The memcpy row copies the whole block, padding between keys and values
     * included: give the padding a defined value. */
    kit_note_begin("uploading %.1f GiB of input", (double)p->input_bytes / 1073741824.0);
    if (KIT_CHECK(cudaMemset(p->d_input, 0, p->input_bytes)) ||
        KIT_CHECK(cudaMemset(p->d_work, 0, LAB1_WORK_INTS(bins) * sizeof(int))) ||
        KIT_CHECK(cudaMemcpy(p->d_input, p->h_keys, n * sizeof(int), cudaMemcpyHostToDevice)) ||
        (with_values &&
         KIT_CHECK(cudaMemcpy(d_values, p->h_values, n * sizeof(double), cudaMemcpyHostToDevice))))
        kit_die(KIT_EXIT_USAGE, "cannot upload the lab1 input");
    kit_note_end();

    p->cub_temp_bytes = lab1_cub_temp_bytes(n, (int)bins);
    p->d_cub_temp = kit_device_alloc(p->cub_temp_bytes ? p->cub_temp_bytes : 1, "CUB's temporary storage");

    p->io = (lab1_io){ .n = n, .bins = (int)bins, .keys = p->d_input, .values = with_values ? d_values : NULL,
                       .counts = p->d_counts, .sums = p->d_sums, .work = p->d_work };
    query_device(&p->io);
    p->ctx = kit_host_alloc((size_t)LAB1_OPS * (size_t)lab1_variant_count * sizeof *p->ctx, "the cases");
    return p;
}

void lab1_problem_destroy(lab1_problem *p)
{
    if (!p)
        return;
    cudaFree(p->d_input);
    cudaFree(p->d_copy);
    cudaFree(p->d_counts);
    cudaFree(p->d_sums);
    cudaFree(p->d_work);
    cudaFree(p->d_cub_temp);
    free(p->h_keys);
    free(p->h_values);
    free(p->ref_counts);
    free(p->ref_sums);
    free(p->ctx);
    free(p);
}

const lab1_io *lab1_problem_io(const lab1_problem *p) { return &p->io; }

static int prepare(void *arg, cudaStream_t stream)
{
    case_ctx *c = arg;
    lab1_problem *p = c->problem;
    /* The launcher must clear its bins itself: poisoned bins catch one that does not. */
    return c->op == LAB1_HISTOGRAM ? kit_poison(p->d_counts, p->bins * sizeof(int), stream)
                                   : kit_poison(p->d_sums, p->bins * sizeof(double), stream);
}

static int run(void *arg, cudaStream_t stream)
{
    case_ctx *c = arg;
    lab1_problem *p = c->problem;
    if (c->variant < 0)
        return lab1_cub_histogram(&p->io, p->d_cub_temp, p->cub_temp_bytes, stream);
    const lab1_variant *v = &lab1_variants[c->variant];
    return c->op == LAB1_HISTOGRAM ? v->histogram(&p->io, stream) : v->scatter_add(&p->io, stream);
}

static int check(void *arg, char *msg, size_t len)
{
    case_ctx *c = arg;
    const lab1_problem *p = c->problem;
    int bad;
    if (c->op == LAB1_HISTOGRAM) {
        int *got = kit_download(p->d_counts, p->bins * sizeof(int));
        bad = kit_compare_i32(got, p->ref_counts, p->bins, msg, len);
        free(got);
    } else {
        double *got = kit_download(p->d_sums, p->bins * sizeof(double));
        bad = lab1_compare_sums(got, p->ref_sums, (int)p->bins, msg, len);
        free(got);
    }
    return bad;
}

/* Useful bytes: every input element read once, every bin written once. */
static double useful_bytes(const lab1_problem *p, lab1_op op)
{
    double per_key = op == LAB1_HISTOGRAM ? sizeof(int) : sizeof(int) + sizeof(double);
    double per_bin = op == LAB1_HISTOGRAM ? sizeof(int) : sizeof(double);
    return per_key * (double)p->n + per_bin * (double)p->bins;
}

static kit_case case_of(lab1_problem *p, case_ctx *ctx, const char *slug, lab1_op op)
{
    return (kit_case){ .variant = slug, .prepare = prepare, .run = run, .check = check, .ctx = ctx,
                       .bytes = useful_bytes(p, op), .items = (double)p->n };
}

kit_case lab1_problem_case(lab1_problem *p, int v, lab1_op op)
{
    if ((unsigned)op >= LAB1_OPS || v < 0 || v >= lab1_variant_count ||
        (op == LAB1_HISTOGRAM ? !lab1_variants[v].histogram : !lab1_variants[v].scatter_add) ||
        (op == LAB1_SCATTER_ADD && !p->with_values))
        kit_die(KIT_EXIT_USAGE, "lab1: no case for variant %d and operation %d", v, (int)op);
    case_ctx *ctx = &p->ctx[(size_t)op * (size_t)lab1_variant_count + (size_t)v];
    *ctx = (case_ctx){ p, v, op };
    return case_of(p, ctx, lab1_variants[v].info.slug, op);
}

kit_case lab1_problem_cub_case(lab1_problem *p)
{
    p->cub_ctx = (case_ctx){ p, -1, LAB1_HISTOGRAM };
    return case_of(p, &p->cub_ctx, "cub", LAB1_HISTOGRAM);
}

void lab1_problem_copy_limit(lab1_problem *p, lab1_op op, kit_config *cfg)
{
    if (!p->d_copy) {
        kit_require_device_bytes(p->input_bytes, "lab1's memcpy row");
        p->d_copy = kit_device_alloc(p->input_bytes + 256, "the memcpy destination");
    }
    cfg->copy_src = p->d_input;
    cfg->copy_dst = p->d_copy;
    cfg->copy_bytes = op == LAB1_HISTOGRAM ? p->n * sizeof(int) : p->input_bytes;
}

int lab1_problem_smem_copies(const lab1_problem *p, int v, lab1_op op)
{
    if (v < 0 || v >= lab1_variant_count || !lab1_variants[v].smem_budget)
        return -1;
    lab1_smem_budget budget;
    if (lab1_variants[v].smem_budget(&p->io, op, &budget))
        kit_die(KIT_EXIT_USAGE, "lab1: cannot read the shared-memory budget of %s", lab1_variants[v].info.slug);
    return lab1_plan_smem(p->bins, &budget).copies;
}
