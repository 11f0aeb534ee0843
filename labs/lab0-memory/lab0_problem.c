/* lab0_problem.c: the data of one run (host copy, device buffers) and the
 * kit_case of each variant: poison the outputs, run, compare with the reference. */
#include "lab0.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    lab0_problem *problem;
    int variant;
} variant_ctx;

struct lab0_problem {
    size_t n;
    float *h_in;      /* 3n + LAB0_PAD floats, AoS */
    float *h_in_soa;  /* 3n floats */
    float *d_in, *d_out, *d_in_soa, *d_out_soa;
    lab0_io io;
    variant_ctx *ctx; /* one per variant */
};

size_t lab0_device_bytes(size_t n)
{
    size_t words = kit_mul_or_die(n, 3, "3n floats");
    return kit_mul_or_die(4 * words + LAB0_PAD, sizeof(float), "lab0 buffers");
}

lab0_problem *lab0_problem_create(size_t n, uint64_t seed, int stride, int offset)
{
    kit_require_device_bytes(lab0_device_bytes(n), "lab0");
    lab0_problem *p = kit_host_alloc(sizeof *p, "the problem");
    memset(p, 0, sizeof *p);
    size_t words = 3 * n, bytes = words * sizeof(float);
    p->n = n;
    p->h_in = kit_host_alloc(bytes + LAB0_PAD * sizeof(float), "the input");
    p->h_in_soa = kit_host_alloc(bytes, "the SoA input");
    /* Both signs, not round numbers: a wrong index or a missed +2 shows. */
    kit_note_begin("generating %zu records and uploading them", n);
    kit_fill_f32(p->h_in, words + LAB0_PAD, seed, -1000.0f, 1000.0f);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++)
        for (int c = 0; c < 3; c++)
            p->h_in_soa[(size_t)c * n + i] = p->h_in[3 * i + c];

    p->d_in = kit_device_alloc(bytes + LAB0_PAD * sizeof(float), "the input");
    p->d_out = kit_device_alloc(bytes, "the output");
    p->d_in_soa = kit_device_alloc(bytes, "the SoA input");
    p->d_out_soa = kit_device_alloc(bytes, "the SoA output");
    if (KIT_CHECK(cudaMemcpy(p->d_in, p->h_in, bytes + LAB0_PAD * sizeof(float), cudaMemcpyHostToDevice)) ||
        KIT_CHECK(cudaMemcpy(p->d_in_soa, p->h_in_soa, bytes, cudaMemcpyHostToDevice)))
        kit_die(KIT_EXIT_USAGE, "cannot upload the lab0 input");
    kit_note_end();

    p->io = (lab0_io){ n, p->d_in, p->d_out, p->d_in_soa, p->d_out_soa, stride, offset };
    p->ctx = kit_host_alloc((size_t)lab0_variant_count * sizeof *p->ctx, "the cases");
    return p;
}

void lab0_problem_destroy(lab0_problem *p)
{
    if (!p)
        return;
    cudaFree(p->d_in);
    cudaFree(p->d_out);
    cudaFree(p->d_in_soa);
    cudaFree(p->d_out_soa);
    free(p->h_in);
    free(p->h_in_soa);
    free(p->ctx);
    free(p);
}

static int prepare(void *arg, cudaStream_t stream)
{
    variant_ctx *c = arg;
    size_t bytes = 3 * c->problem->n * sizeof(float);
    int r = kit_poison(c->problem->d_out, bytes, stream);
    return r ? r : kit_poison(c->problem->d_out_soa, bytes, stream);
}

static int run(void *arg, cudaStream_t stream)
{
    variant_ctx *c = arg;
    return lab0_variants[c->variant].run(&c->problem->io, stream);
}

/* Compare the device output with the reference for the variant's operation. */
static int check(void *arg, char *msg, size_t len)
{
    variant_ctx *c = arg;
    const lab0_problem *p = c->problem;
    const lab0_io *io = &p->io;
    size_t words = 3 * p->n;
    lab0_op op = lab0_variants[c->variant].op;
    int soa = op == LAB0_ADD_SOA;
    float *got = kit_download(soa ? p->d_out_soa : p->d_out, words * sizeof(float));
    float *expected = kit_host_alloc(words * sizeof(float), "the reference");
    size_t count = words;
    int bad;
    switch (op) {
    case LAB0_COPY:
        memcpy(expected, p->h_in, words * sizeof(float));
        break;
    case LAB0_ADD_AOS:
        lab0_ref_add_two(p->h_in, expected, words);
        break;
    case LAB0_ADD_SOA:
        lab0_ref_add_two(p->h_in_soa, expected, words);
        break;
    case LAB0_STRIDED:
        count = lab0_strided_count(words, io->stride);
        lab0_ref_strided(p->h_in, expected, words, io->stride);
        break;
    case LAB0_OFFSET:
        memcpy(expected, p->h_in + io->offset, words * sizeof(float));
        break;
    case LAB0_BRANCH_ODD:
    case LAB0_BRANCH_WARP:
        lab0_ref_branch((const uint32_t *)p->h_in, (uint32_t *)expected, words,
                        op == LAB0_BRANCH_ODD ? 1 : 32);
        break;
    }
    if (op == LAB0_BRANCH_ODD || op == LAB0_BRANCH_WARP)
        bad = kit_compare_u32((const uint32_t *)got, (const uint32_t *)expected, count, msg, len);
    else
        bad = kit_compare_f32(got, expected, count, 0, 0, msg, len); /* exact: one rounding each */
    free(got);
    free(expected);
    return bad;
}

/* Useful bytes: what the operation must read and write, not what the access
 * pattern happens to drag through the memory system. */
static double useful_bytes(const lab0_problem *p, lab0_op op)
{
    size_t words = 3 * p->n;
    if (op == LAB0_STRIDED)
        words = lab0_strided_count(words, p->io.stride);
    return 2.0 * (double)words * sizeof(float);
}

kit_case lab0_problem_case(lab0_problem *p, int v)
{
    if (v < 0 || v >= lab0_variant_count)
        kit_die(KIT_EXIT_USAGE, "lab0: no variant %d (the table has %d)", v, lab0_variant_count);
    p->ctx[v] = (variant_ctx){ p, v };
    kit_case c = { .variant = lab0_variants[v].info.slug, .prepare = prepare, .run = run, .check = check,
                   .ctx = &p->ctx[v], .bytes = useful_bytes(p, lab0_variants[v].op), .items = (double)p->n };
    return c;
}

void lab0_problem_copy_limit(lab0_problem *p, kit_config *cfg)
{
    cfg->copy_src = p->d_in;
    cfg->copy_dst = p->d_out;
    cfg->copy_bytes = 3 * p->n * sizeof(float);
}
