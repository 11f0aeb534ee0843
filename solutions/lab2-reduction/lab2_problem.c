/* lab2_problem.c: the data of one run (host copy, device buffers, workspace) and
 * the kit_case of each variant: poison the result, run, compare with the reference. */
#include "lab2.h"

#include <stdlib.h>
#include <string.h>

/* One context per row: slots 0 .. lab2_variant_count - 1 for the variants, then cub. */
#define LAB2_CUB_SLOT lab2_variant_count

typedef struct {
    lab2_problem *problem;
    int variant; /* LAB2_CUB_SLOT: the cub row */
    lab2_io io;
} variant_ctx;

struct lab2_problem {
    size_t n;
    lab2_type type;
    void *h_in;               /* n int32 or float */
    int64_t expected_i64;
    int32_t expected_max;
    double expected_f32;      /* exact (see lab2_f32_grid) */
    void *d_in, *d_out, *d_copy;
    lab2_workspace ws;
    size_t *grid;             /* per variant: default grid of grid-stride variants */
    variant_ctx *ctx;         /* per variant, then the cub row */
};

size_t lab2_device_bytes(size_t n, int with_copy)
{
    size_t input = kit_mul_or_die(n, 4, "lab2 input");
    size_t partials = kit_mul_or_die(lab2_partials_capacity(n), 2 * sizeof(int64_t), "lab2 partials");
    size_t total = input + partials + (1u << 20); /* result, ticket, cub temp (well below 1 MiB) */
    return with_copy ? total + input : total;
}

lab2_problem *lab2_problem_create(size_t n, lab2_type type, uint64_t seed)
{
    if (n > LAB2_MAX_N)
        kit_die(KIT_EXIT_USAGE, "lab2 takes at most %zu values", LAB2_MAX_N);
    kit_require_device_bytes(lab2_device_bytes(n, 0), "lab2");
    lab2_problem *p = kit_host_alloc(sizeof *p, "the problem");
    memset(p, 0, sizeof *p);
    size_t bytes = kit_mul_or_die(n, 4, "the input");
    p->n = n;
    p->type = type;
    p->grid = kit_host_alloc(lab2_variant_count * sizeof *p->grid, "the grids");
    memset(p->grid, 0, lab2_variant_count * sizeof *p->grid);
    p->ctx = kit_host_alloc((lab2_variant_count + 1) * sizeof *p->ctx, "the row contexts");
    p->h_in = kit_host_alloc(bytes, "the input");
    kit_note_begin("generating %zu values and the CPU reference", n);
    if (type == LAB2_F32) {
        /* Both signs, on a power-of-two grid that makes the float sum exact. */
        lab2_fill_f32(p->h_in, n, seed);
        p->expected_f32 = lab2_ref_sum_f32(p->h_in, n);
    } else {
        /* |x| up to 2^30: an int32 accumulator overflows after a handful of values. */
        kit_fill_i32(p->h_in, n, seed, -LAB2_INT_RANGE, LAB2_INT_RANGE);
        p->expected_i64 = lab2_ref_sum_i64(p->h_in, n);
        p->expected_max = lab2_ref_max_i32(p->h_in, n);
    }
    kit_note_end();

    p->d_in = kit_device_alloc(bytes, "the input");
    p->d_out = kit_device_alloc(sizeof(int64_t), "the result");
    p->ws.capacity = lab2_partials_capacity(n);
    for (int b = 0; b < 2; b++)
        p->ws.partials[b] = kit_device_alloc(p->ws.capacity * sizeof(int64_t), "the block partials");
    p->ws.ticket = kit_device_alloc(sizeof(unsigned int), "the single-pass ticket");
    p->ws.cub_temp_bytes = lab2_cub_temp_bytes(type, n);
    if (p->ws.cub_temp_bytes == 0)
        kit_die(KIT_EXIT_USAGE, "cannot size cub's temporary storage for n=%zu", n);
    p->ws.cub_temp = kit_device_alloc(p->ws.cub_temp_bytes, "cub's temporary storage");
    kit_note_begin("uploading %.1f GiB of input", (double)bytes / 1073741824.0);
    if (KIT_CHECK(cudaMemcpy(p->d_in, p->h_in, bytes, cudaMemcpyHostToDevice)) ||
        KIT_CHECK(cudaMemset(p->ws.ticket, 0, sizeof(unsigned int))))
        kit_die(KIT_EXIT_USAGE, "cannot upload the lab2 input");
    kit_note_end();

    /* Grids of the grid-stride variants: once per problem, never per launch. */
    for (int v = 0; v < lab2_variant_count; v++)
        if (lab2_variants[v].grid && lab2_variant_supports(v, type)) {
            p->grid[v] = lab2_variants[v].grid(type);
            if (p->grid[v] == 0)
                fprintf(stderr, "warning: occupancy query failed for %s; its grid follows n\n",
                        lab2_variants[v].info.slug);
        }
    return p;
}

void lab2_problem_destroy(lab2_problem *p)
{
    if (!p)
        return;
    cudaFree(p->d_in);
    cudaFree(p->d_out);
    cudaFree(p->d_copy);
    cudaFree(p->ws.partials[0]);
    cudaFree(p->ws.partials[1]);
    cudaFree(p->ws.ticket);
    cudaFree(p->ws.cub_temp);
    free(p->h_in);
    free(p->grid);
    free(p->ctx);
    free(p);
}

int lab2_variant_supports(int v, lab2_type type)
{
    return v >= 0 && v < lab2_variant_count && (lab2_variants[v].types & LAB2_TYPE_BIT(type));
}

size_t lab2_problem_grid(const lab2_problem *p, int v)
{
    return v >= 0 && v < lab2_variant_count ? p->grid[v] : 0;
}

/* Poison the result and both partial buffers, so a value nobody wrote shows. The
 * ticket is left alone: a variant must leave it at 0 itself. */
static int prepare(void *arg, cudaStream_t stream)
{
    variant_ctx *c = arg;
    const lab2_problem *p = c->problem;
    int r = kit_poison(p->d_out, sizeof(int64_t), stream);
    for (int b = 0; b < 2 && !r; b++)
        r = kit_poison(p->ws.partials[b], p->ws.capacity * sizeof(int64_t), stream);
    return r;
}

static int run(void *arg, cudaStream_t stream)
{
    variant_ctx *c = arg;
    if (c->variant == LAB2_CUB_SLOT)
        return lab2_cub(&c->io, stream);
    return lab2_variants[c->variant].run(&c->io, stream);
}

static int check(void *arg, char *msg, size_t len)
{
    variant_ctx *c = arg;
    const lab2_problem *p = c->problem;
    int64_t got = 0; /* room for the largest result */
    if (KIT_CHECK(cudaMemcpy(&got, p->d_out, lab2_result_bytes(p->type), cudaMemcpyDeviceToHost))) {
        snprintf(msg, len, "cannot download the result");
        return 1;
    }
    switch (p->type) {
    case LAB2_I64:
        if (got == p->expected_i64)
            return 0;
        snprintf(msg, len, "i64 sum of %zu values: expected %lld, got %lld", p->n,
                 (long long)p->expected_i64, (long long)got);
        return 1;
    case LAB2_MAX: {
        int32_t g;
        memcpy(&g, &got, sizeof g);
        if (g == p->expected_max)
            return 0;
        snprintf(msg, len, "max of %zu values: expected %d, got %d", p->n, p->expected_max, g);
        return 1;
    }
    case LAB2_F32: {
        float g;
        memcpy(&g, &got, sizeof g);
        return lab2_check_f32(g, p->expected_f32, p->n, msg, len);
    }
    }
    snprintf(msg, len, "unknown type");
    return 1;
}

static kit_case make_case(lab2_problem *p, int slot, const char *slug, size_t blocks)
{
    variant_ctx *c = &p->ctx[slot];
    c->problem = p;
    c->variant = slot;
    c->io = (lab2_io){ p->type, p->d_in, p->n, p->d_out, blocks, p->ws };
    kit_case k = { .variant = slug, .prepare = prepare, .run = run, .check = check, .ctx = c,
                   .bytes = 4.0 * (double)p->n, .items = (double)p->n };
    return k;
}

kit_case lab2_problem_case(lab2_problem *p, int v, size_t blocks)
{
    if (v < 0 || v >= lab2_variant_count)
        kit_die(KIT_EXIT_USAGE, "lab2: no variant %d", v);
    return make_case(p, v, lab2_variants[v].info.slug, blocks ? blocks : p->grid[v]);
}

kit_case lab2_problem_cub_case(lab2_problem *p)
{
    return make_case(p, LAB2_CUB_SLOT, "cub", 0);
}

void lab2_problem_copy_limit(lab2_problem *p, kit_config *cfg)
{
    size_t bytes = 4 * p->n;
    if (!p->d_copy) {
        kit_require_device_bytes(bytes, "the memcpy row");
        p->d_copy = kit_device_alloc(bytes, "the memcpy destination");
    }
    cfg->copy_src = p->d_in;
    cfg->copy_dst = p->d_copy;
    cfg->copy_bytes = bytes;
}
