/* lab3_problem.c: the data of one run (host copy, device buffers, workspace) and
 * the kit_case of each row: poison the output, run, compare with the reference. */
#include "lab3.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    lab3_problem *problem;
    int variant; /* index into lab3_variants, or LAB3_CUB */
    int exclusive;
} scan_ctx;

typedef struct {
    lab3_problem *problem;
    lab3_select_row row;
} select_ctx;

struct lab3_problem {
    size_t n;
    lab3_type type;
    uint32_t keep_pct;
    void *h_in;
    void *h_ref[2];      /* inclusive, exclusive scans (computed when first needed) */
    void *h_select;      /* compaction reference, h_kept items */
    size_t h_kept;
    void *d_in, *d_out;  /* d_in_base, d_out_base moved on by lab3_problem_shift */
    char *d_in_base, *d_out_base; /* n + 1 values each */
    unsigned long long *d_count;
    lab3_workspace ws;
    unsigned long long *d_stats;
    scan_ctx *scan; /* [variant][exclusive]: lab3_variant_count variants, then CUB */
    select_ctx select[LAB3_SELECT_ROWS];
};

static size_t spine_bytes(size_t n) { return (lab3_spine_entries(n, LAB3_MIN_TILE) + 1) * sizeof(uint64_t); }

size_t lab3_device_bytes(size_t n, lab3_type type)
{
    size_t data = kit_mul_or_die(n, lab3_type_bytes(type), "n values");
    return 2 * (data + lab3_type_bytes(type)) + lab3_workspace_status_bytes(n) + spine_bytes(n) +
           lab3_cub_temp_bytes(n, type) + 64;
}

lab3_problem *lab3_problem_create(size_t n, lab3_type type, uint64_t seed, uint32_t keep_pct)
{
    kit_require_device_bytes(lab3_device_bytes(n, type), "lab3");
    lab3_problem *p = kit_host_alloc(sizeof *p, "the problem");
    memset(p, 0, sizeof *p);
    p->n = n;
    p->type = type;
    p->keep_pct = keep_pct;
    p->scan = kit_host_alloc(2 * (lab3_variant_count + 1) * sizeof *p->scan, "the scan contexts");
    size_t bytes = n * lab3_type_bytes(type);
    p->h_in = kit_host_alloc(bytes, "the input");
    /* Both signs. int32: big enough that sums wrap modulo 2^32; int64: big enough
     * that sums leave the int32 range after a few items. */
    kit_note_begin("generating %zu values", n);
    if (type == LAB3_I32)
        kit_fill_i32(p->h_in, n, seed, -(1 << 30), 1 << 30);
    else
        kit_fill_i64(p->h_in, n, seed, -((int64_t)1 << 40), (int64_t)1 << 40);
    kit_note_end();

    p->d_in_base = kit_device_alloc(bytes + lab3_type_bytes(type), "the input");
    p->d_out_base = kit_device_alloc(bytes + lab3_type_bytes(type), "the output");
    p->d_count = kit_device_alloc(sizeof *p->d_count, "the selected count");
    p->ws.status_bytes = lab3_workspace_status_bytes(n);
    p->ws.status = kit_device_alloc(p->ws.status_bytes, "the tile status array");
    p->ws.spine_bytes = spine_bytes(n);
    p->ws.spine = kit_device_alloc(p->ws.spine_bytes, "the tile totals");
    p->ws.cub_temp_bytes = lab3_cub_temp_bytes(n, type);
    p->ws.cub_temp = kit_device_alloc(p->ws.cub_temp_bytes, "CUB's temporary storage");
    lab3_problem_shift(p, 0, 0); /* d_in, d_out at the start of their buffers; uploads the input */
    return p;
}

void lab3_problem_shift(lab3_problem *p, int in_values, int out_values)
{
    size_t size = lab3_type_bytes(p->type), bytes = p->n * size;
    p->d_in = p->d_in_base + (in_values ? size : 0);
    p->d_out = p->d_out_base + (out_values ? size : 0);
    kit_note_begin("uploading %.1f GiB of input", (double)bytes / 1073741824.0);
    if (bytes && KIT_CHECK(cudaMemcpy(p->d_in, p->h_in, bytes, cudaMemcpyHostToDevice)))
        kit_die(KIT_EXIT_USAGE, "cannot upload the lab3 input");
    kit_note_end();
}

void lab3_problem_destroy(lab3_problem *p)
{
    if (!p)
        return;
    cudaFree(p->d_in_base);
    cudaFree(p->d_out_base);
    cudaFree(p->d_count);
    cudaFree(p->ws.status);
    cudaFree(p->ws.spine);
    cudaFree(p->ws.cub_temp);
    cudaFree(p->d_stats);
    free(p->h_in);
    free(p->h_ref[0]);
    free(p->h_ref[1]);
    free(p->h_select);
    free(p->scan);
    free(p);
}

void lab3_problem_enable_stats(lab3_problem *p, int on)
{
    if (on && !p->d_stats)
        p->d_stats = kit_device_alloc(LAB3_STAT_COUNT * sizeof *p->d_stats, "look-back statistics");
    p->ws.stats = on ? p->d_stats : NULL;
}

void lab3_problem_set_epoch(lab3_problem *p, uint32_t epoch) { p->ws.epoch = epoch; }

int lab3_problem_read_stats(lab3_problem *p, unsigned long long *out)
{
    if (!p->d_stats)
        return -1;
    return KIT_CHECK(cudaMemcpy(out, p->d_stats, LAB3_STAT_COUNT * sizeof *out, cudaMemcpyDeviceToHost));
}

static const void *scan_reference(lab3_problem *p, int exclusive)
{
    if (!p->h_ref[exclusive]) {
        p->h_ref[exclusive] = kit_host_alloc(p->n * lab3_type_bytes(p->type), "the reference");
        kit_note_begin("the CPU reference scan of %zu values", p->n);
        if (p->type == LAB3_I32)
            lab3_ref_scan_i32(p->h_in, p->h_ref[exclusive], p->n, exclusive);
        else
            lab3_ref_scan_i64(p->h_in, p->h_ref[exclusive], p->n, exclusive);
        kit_note_end();
    }
    return p->h_ref[exclusive];
}

static void select_reference(lab3_problem *p)
{
    if (!p->h_select) {
        p->h_select = kit_host_alloc(p->n * lab3_type_bytes(p->type), "the compaction reference");
        kit_note_begin("the CPU reference compaction of %zu values", p->n);
        p->h_kept = lab3_ref_select(p->h_in, p->h_select, p->n, p->type, p->keep_pct);
        kit_note_end();
    }
}

/* ---- scans ------------------------------------------------------------------------ */

static int scan_prepare(void *arg, cudaStream_t stream)
{
    scan_ctx *c = arg;
    return kit_poison(c->problem->d_out, c->problem->n * lab3_type_bytes(c->problem->type), stream);
}

static int scan_run(void *arg, cudaStream_t stream)
{
    scan_ctx *c = arg;
    lab3_problem *p = c->problem;
    lab3_scan_io io = { p->d_in, p->d_out, p->n, p->type, c->exclusive, &p->ws };
    return c->variant == LAB3_CUB ? lab3_cub_scan(&io, stream) : lab3_variants[c->variant].run(&io, stream);
}

static int scan_check(void *arg, char *msg, size_t len)
{
    scan_ctx *c = arg;
    lab3_problem *p = c->problem;
    const void *expected = scan_reference(p, c->exclusive);
    void *got = kit_download(p->d_out, p->n * lab3_type_bytes(p->type));
    int bad = p->type == LAB3_I32 ? kit_compare_i32(got, expected, p->n, msg, len)
                                  : kit_compare_i64(got, expected, p->n, msg, len);
    free(got);
    return bad;
}

kit_case lab3_problem_scan_case(lab3_problem *p, int v, int exclusive)
{
    if (v != LAB3_CUB && (v < 0 || v >= lab3_variant_count))
        kit_die(KIT_EXIT_USAGE, "lab3: no scan variant %d (the table has %d)", v, lab3_variant_count);
    int slot = 2 * (v == LAB3_CUB ? lab3_variant_count : v) + (exclusive != 0);
    p->scan[slot] = (scan_ctx){ p, v, exclusive != 0 };
    double bytes = 2.0 * (double)p->n * (double)lab3_type_bytes(p->type); /* read n, write n */
    kit_case c = { .variant = v == LAB3_CUB ? "cub" : lab3_variants[v].info.slug, .prepare = scan_prepare,
                   .run = scan_run, .check = scan_check, .ctx = &p->scan[slot], .bytes = bytes,
                   .items = (double)p->n };
    return c;
}

/* ---- compaction ------------------------------------------------------------------ */

/* select-if and select-pipeline work IN PLACE on the output buffer: before every
 * run (the checked one and, through the case's reset hook, every timed one, outside
 * the timed span) the input is copied into that buffer, and the run compacts the
 * buffer onto itself. cub-select reads the input and writes the output buffer. */
static int select_reset(void *arg, cudaStream_t stream)
{
    select_ctx *c = arg;
    lab3_problem *p = c->problem;
    size_t bytes = p->n * lab3_type_bytes(p->type);
    return bytes ? KIT_CHECK(cudaMemcpyAsync(p->d_out, p->d_in, bytes, cudaMemcpyDeviceToDevice, stream)) : 0;
}

static int select_prepare(void *arg, cudaStream_t stream)
{
    select_ctx *c = arg;
    lab3_problem *p = c->problem;
    int r = kit_poison(p->d_count, sizeof *p->d_count, stream);
    if (!r)
        r = c->row == LAB3_SELECT_CUB ? kit_poison(p->d_out, p->n * lab3_type_bytes(p->type), stream)
                                      : select_reset(c, stream);
    return r;
}

static int select_run(void *arg, cudaStream_t stream)
{
    select_ctx *c = arg;
    lab3_problem *p = c->problem;
    lab3_select_io io = { c->row == LAB3_SELECT_CUB ? p->d_in : p->d_out, p->d_out, p->n, p->type, p->keep_pct,
                          p->d_count, &p->ws };
    switch (c->row) {
    case LAB3_SELECT_IF:
        return lab3_select_if(&io, stream);
    case LAB3_SELECT_PIPELINE:
        return lab3_select_pipeline(&io, stream);
    default:
        return lab3_cub_select(&io, stream);
    }
}

static int select_check(void *arg, char *msg, size_t len)
{
    select_ctx *c = arg;
    lab3_problem *p = c->problem;
    select_reference(p);
    unsigned long long count = 0;
    if (KIT_CHECK(cudaMemcpy(&count, p->d_count, sizeof count, cudaMemcpyDeviceToHost))) {
        snprintf(msg, len, "cannot read the selected count");
        return 1;
    }
    if (count != p->h_kept) {
        snprintf(msg, len, "selected %llu items, expected %zu (keep %u%%)", count, p->h_kept, p->keep_pct);
        return 1;
    }
    void *got = kit_download(p->d_out, p->h_kept * lab3_type_bytes(p->type));
    int bad = p->type == LAB3_I32 ? kit_compare_i32(got, p->h_select, p->h_kept, msg, len)
                                  : kit_compare_i64(got, p->h_select, p->h_kept, msg, len);
    free(got);
    return bad;
}

kit_case lab3_problem_select_case(lab3_problem *p, lab3_select_row row)
{
    static const char *const names[LAB3_SELECT_ROWS] = { "select-if", "select-pipeline", "cub-select" };
    select_ctx *c = &p->select[row];
    *c = (select_ctx){ p, row };
    select_reference(p);
    /* read n, write the kept items */
    double bytes = (double)(p->n + p->h_kept) * (double)lab3_type_bytes(p->type);
    kit_case k = { .variant = names[row], .prepare = select_prepare, .run = select_run, .check = select_check,
                   .ctx = c, .bytes = bytes, .items = (double)p->n,
                   .reset = row == LAB3_SELECT_CUB ? NULL : select_reset };
    return k;
}

void lab3_problem_copy_limit(lab3_problem *p, kit_config *cfg)
{
    cfg->copy_src = p->d_in;
    cfg->copy_dst = p->d_out;
    cfg->copy_bytes = p->n * lab3_type_bytes(p->type);
    cfg->items = (double)p->n;
}
