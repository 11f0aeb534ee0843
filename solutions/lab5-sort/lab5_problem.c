/* lab5_problem.c: the data of one run (host keys, device buffers, workspace, the
 * CPU reference) and the kit_case of each row: poison the outputs, sort, compare
 * keys and values with the reference bit for bit. */
#include "lab5.h"

#include <stdlib.h>
#include <string.h>

const char *const lab5_dist_names[] = { "uniform", "few", "equal", "sorted", "reverse", "lowbits", NULL };

const char *lab5_type_name(lab5_type type)
{
    return type == LAB5_U32 ? "u32" : type == LAB5_I32 ? "i32" : "f32";
}

/* ---- data ---------------------------------------------------------------------------- */

enum { FEW_KEYS = 16 };

/* The 16 keys of "few": the type's edge values first, random words after them. */
static void few_pool(uint32_t pool[FEW_KEYS], lab5_type type, uint64_t seed)
{
    static const uint32_t edges_u32[] = { 0u, 0xffffffffu, 1u, 0x80000000u };
    static const uint32_t edges_i32[] = { 0x80000000u /* INT_MIN */, 0xffffffffu /* -1 */, 0u, 0x7fffffffu };
    static const uint32_t edges_f32[] = { 0x80000000u /* -0.0 */, 0u /* +0.0 */,   0x7fc00000u /* NaN */,
                                          0xffc00000u /* -NaN */, 0x7f800000u /* inf */, 0xff800000u /* -inf */,
                                          1u /* smallest denormal */, 0x80000001u };
    const uint32_t *edges = type == LAB5_F32 ? edges_f32 : type == LAB5_I32 ? edges_i32 : edges_u32;
    int count = type == LAB5_F32 ? 8 : 4;
    for (int j = 0; j < FEW_KEYS; j++)
        pool[j] = j < count ? edges[j] : (uint32_t)kit_hash64(seed ^ 0x5eedf00dull, (uint64_t)j);
}

void lab5_generate(uint32_t *keys, size_t n, lab5_type type, lab5_dist dist, uint64_t seed)
{
    uint32_t pool[FEW_KEYS];
    few_pool(pool, type, seed);
    uint32_t one = (uint32_t)kit_hash64(seed, 0);
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) {
        uint32_t random = (uint32_t)kit_hash64(seed, i);
        /* sorted / reverse: evenly spaced ordered words, turned back into keys */
        uint32_t spread = (uint32_t)(((uint64_t)i << 32) / n);
        switch (dist) {
        case LAB5_FEW: keys[i] = pool[kit_hash64(seed + 1, i) % FEW_KEYS]; break;
        case LAB5_EQUAL: keys[i] = one; break;
        case LAB5_SORTED: keys[i] = lab5_unorder(spread, type); break;
        case LAB5_REVERSE: keys[i] = lab5_unorder(~spread, type); break;
        case LAB5_LOWBITS: keys[i] = random & 0xffffu; break;
        default: keys[i] = random; break;
        }
    }
}

/* ---- the problem ------------------------------------------------------------------------ */

typedef struct {
    lab5_problem *problem;
    int variant; /* index into lab5_variants, or LAB5_CUB */
} case_ctx;

/* Keys and values share one allocation per buffer, keys first, values from a
 * 256-byte boundary: the memcpy row copies both in one call. */
typedef struct {
    uint32_t *keys, *values;
} kv_buffer;

struct lab5_problem {
    size_t n;
    lab5_type type;
    int pairs;
    uint32_t *h_keys, *h_values;   /* values: 0, 1, ..., n-1 */
    uint32_t *ref_keys, *ref_values; /* computed at the first check */
    kv_buffer in, out, alt;
    size_t keys_bytes, block_bytes;
    lab5_workspace ws;
    lab5_sort_io io;
    case_ctx ctx[16];
    case_ctx cub_ctx;
};

static size_t round_up(size_t x, size_t to) { return kit_div_up(x, to) * to; }
static size_t keys_bytes_of(size_t n) { return round_up(kit_mul_or_die(n, sizeof(uint32_t), "n keys"), 256); }
static size_t block_bytes_of(size_t n, int pairs)
{
    return keys_bytes_of(n) + (pairs ? n * sizeof(uint32_t) : 0);
}

/* Workspace capacities, from the tile shapes of lab5.h. */
static size_t counts_words_of(size_t n)
{
    size_t c4 = 16 * kit_div_up(n, LAB5_DIGIT4_NV), c8 = 256 * kit_div_up(n, LAB5_DIGIT8_NV);
    return c4 > c8 ? c4 : c8;
}
static size_t onesweep_words_of(size_t n) { return lab5_onesweep_words(kit_div_up(n, LAB5_ONESWEEP_MIN_NV)); }
static size_t partition_count_of(size_t n) { return kit_div_up(n, LAB5_MERGE_NV) + 1; }
static size_t scan_temp_bytes_of(size_t n)
{
    size_t a = lab5_cub_scan_temp_bytes(n), b = lab5_cub_scan_temp_bytes(counts_words_of(n));
    return a > b ? a : b;
}

size_t lab5_device_bytes(size_t n, int pairs)
{
    if (n > LAB5_MAX_N)
        return (size_t)-1;
    return 3 * (block_bytes_of(n, pairs) + 256) + n * sizeof(uint32_t) + counts_words_of(n) * sizeof(uint32_t) +
           onesweep_words_of(n) * sizeof(uint32_t) + partition_count_of(n) * sizeof(int64_t) +
           scan_temp_bytes_of(n) + lab5_cub_sort_temp_bytes(n);
}

static kv_buffer kv_alloc(lab5_problem *p, const char *what)
{
    kv_buffer b;
    b.keys = kit_device_alloc(p->block_bytes, what);
    b.values = p->pairs ? (uint32_t *)((char *)b.keys + p->keys_bytes) : NULL;
    /* the memcpy row copies the padding between keys and values: give it a value */
    if (KIT_CHECK(cudaMemset(b.keys, 0, p->block_bytes)))
        kit_die(KIT_EXIT_USAGE, "cannot clear %s", what);
    return b;
}

lab5_problem *lab5_problem_create_from(const uint32_t *h_keys, size_t n, lab5_type type, int pairs)
{
    if (n > LAB5_MAX_N)
        kit_die(KIT_EXIT_USAGE, "lab5: n = %zu is more than %zu keys (onesweep counts keys in 30 bits)", n,
                LAB5_MAX_N);
    kit_require_device_bytes(lab5_device_bytes(n, pairs), "lab5");
    lab5_problem *p = kit_host_alloc(sizeof *p, "the problem");
    memset(p, 0, sizeof *p);
    p->n = n;
    p->type = type;
    p->pairs = pairs != 0;
    p->keys_bytes = keys_bytes_of(n);
    p->block_bytes = block_bytes_of(n, p->pairs);
    kit_note_begin("copying %zu keys%s", n, p->pairs ? " and making their values" : "");
    p->h_keys = kit_host_alloc(n * sizeof(uint32_t), "the keys");
    memcpy(p->h_keys, h_keys, n * sizeof(uint32_t));
    if (p->pairs) {
        p->h_values = kit_host_alloc(n * sizeof(uint32_t), "the values");
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
            p->h_values[i] = (uint32_t)i;
    }
    kit_note_end();

    p->in = kv_alloc(p, "the input");
    p->out = kv_alloc(p, "the output");
    p->alt = kv_alloc(p, "the scratch keys and values");
    lab5_workspace *ws = &p->ws;
    ws->keys_alt = p->alt.keys;
    ws->values_alt = p->alt.values;
    ws->ranks = kit_device_alloc(n * sizeof(uint32_t), "split-1bit's destinations");
    ws->counts_words = counts_words_of(n);
    ws->counts = kit_device_alloc(ws->counts_words * sizeof(uint32_t), "the digit x tile counts");
    ws->onesweep_words = onesweep_words_of(n);
    ws->onesweep = kit_device_alloc(ws->onesweep_words * sizeof(uint32_t), "onesweep's control block and status");
    ws->partition_count = partition_count_of(n);
    ws->partitions = kit_device_alloc(ws->partition_count * sizeof(int64_t), "merge-sort's partitions");
    ws->scan_temp_bytes = scan_temp_bytes_of(n);
    ws->scan_temp = kit_device_alloc(ws->scan_temp_bytes, "CUB's scan scratch");
    ws->cub_temp_bytes = lab5_cub_sort_temp_bytes(n);
    ws->cub_temp = kit_device_alloc(ws->cub_temp_bytes, "CUB's sort scratch");
    /* onesweep's digit sums must be zero before its first launch (it leaves them zero) */
    kit_note_begin("uploading %.1f GiB of input", (double)p->block_bytes / 1073741824.0);
    if (KIT_CHECK(cudaMemset(ws->onesweep, 0, ws->onesweep_words * sizeof(uint32_t))) ||
        KIT_CHECK(cudaMemcpy(p->in.keys, p->h_keys, n * sizeof(uint32_t), cudaMemcpyHostToDevice)) ||
        (p->pairs &&
         KIT_CHECK(cudaMemcpy(p->in.values, p->h_values, n * sizeof(uint32_t), cudaMemcpyHostToDevice))))
        kit_die(KIT_EXIT_USAGE, "cannot upload the lab5 input");
    kit_note_end();
    p->io = (lab5_sort_io){ p->in.keys, p->in.values, p->out.keys, p->out.values, n, type, ws, 0 };
    return p;
}

lab5_problem *lab5_problem_create(size_t n, lab5_type type, lab5_dist dist, int pairs, uint64_t seed)
{
    if (n > LAB5_MAX_N)
        kit_die(KIT_EXIT_USAGE, "lab5: n = %zu is more than %zu keys (onesweep counts keys in 30 bits)", n,
                LAB5_MAX_N);
    uint32_t *keys = kit_host_alloc(n * sizeof(uint32_t), "the keys");
    kit_note_begin("generating %zu %s keys (%s)", n, lab5_type_name(type), lab5_dist_names[dist]);
    lab5_generate(keys, n, type, dist, seed);
    kit_note_end();
    lab5_problem *p = lab5_problem_create_from(keys, n, type, pairs);
    free(keys);
    return p;
}

void lab5_problem_destroy(lab5_problem *p)
{
    if (!p)
        return;
    cudaFree(p->in.keys);
    cudaFree(p->out.keys);
    cudaFree(p->alt.keys);
    cudaFree(p->ws.ranks);
    cudaFree(p->ws.counts);
    cudaFree(p->ws.onesweep);
    cudaFree(p->ws.partitions);
    cudaFree(p->ws.scan_temp);
    cudaFree(p->ws.cub_temp);
    free(p->h_keys);
    free(p->h_values);
    free(p->ref_keys);
    free(p->ref_values);
    free(p);
}

static void reference(lab5_problem *p)
{
    if (p->ref_keys)
        return;
    p->ref_keys = kit_host_alloc(p->n * sizeof(uint32_t), "the reference keys");
    if (p->pairs)
        p->ref_values = kit_host_alloc(p->n * sizeof(uint32_t), "the reference values");
    kit_note_begin("sorting %zu keys%s on the CPU (the reference)", p->n, p->pairs ? " and values" : "");
    lab5_ref_sort(p->h_keys, p->h_values, p->n, p->type, p->ref_keys, p->ref_values);
    kit_note_end();
}

/* ---- cases -------------------------------------------------------------------------------- */

static int prepare(void *arg, cudaStream_t stream)
{
    case_ctx *c = arg;
    return kit_poison(c->problem->out.keys, c->problem->block_bytes, stream);
}

static int run(void *arg, cudaStream_t stream)
{
    case_ctx *c = arg;
    lab5_problem *p = c->problem;
    return c->variant == LAB5_CUB ? lab5_cub_sort(&p->io, stream) : lab5_variants[c->variant].run(&p->io, stream);
}

static int compare_download(const uint32_t *d_got, const uint32_t *expected, size_t n, const char *what,
                            char *msg, size_t len)
{
    uint32_t *got = kit_download(d_got, n * sizeof(uint32_t));
    char why[200];
    int bad = kit_compare_u32(got, expected, n, why, sizeof why);
    if (bad)
        snprintf(msg, len, "%s: %s", what, why);
    free(got);
    return bad;
}

static int check(void *arg, char *msg, size_t len)
{
    case_ctx *c = arg;
    lab5_problem *p = c->problem;
    reference(p);
    if (compare_download(p->out.keys, p->ref_keys, p->n, "keys", msg, len))
        return 1;
    /* values are the original indices: a wrong value is a key that moved without its
     * value, or equal keys that changed order (not stable) */
    return p->pairs && compare_download(p->out.values, p->ref_values, p->n, "values (original indices)", msg, len);
}

kit_case lab5_problem_case(lab5_problem *p, int v)
{
    if (v != LAB5_CUB && (v < 0 || v >= lab5_variant_count || v >= 16))
        kit_die(KIT_EXIT_USAGE, "lab5: variant %d out of the problem's table", v);
    case_ctx *c = v == LAB5_CUB ? &p->cub_ctx : &p->ctx[v];
    *c = (case_ctx){ p, v };
    /* read every key (and value) once, write it once */
    double bytes = 2.0 * (double)p->n * (p->pairs ? 8.0 : 4.0);
    kit_case k = { .variant = v == LAB5_CUB ? "cub" : lab5_variants[v].info.slug, .prepare = prepare, .run = run,
                   .check = check, .ctx = c, .bytes = bytes, .items = (double)p->n };
    return k;
}

void lab5_problem_copy_limit(lab5_problem *p, kit_config *cfg)
{
    cfg->copy_src = p->in.keys;
    cfg->copy_dst = p->out.keys;
    cfg->copy_bytes = p->block_bytes;
    cfg->items = (double)p->n;
}

void lab5_problem_set_onesweep_tiles(lab5_problem *p, int tiles_per_sm) { p->io.onesweep_tiles_per_sm = tiles_per_sm; }

int lab5_problem_onesweep_plan(lab5_problem *p, uint32_t *plan)
{
    return KIT_CHECK(cudaMemcpy(plan, p->ws.onesweep + LAB5_OS_PLAN, sizeof *plan, cudaMemcpyDeviceToHost));
}
