/* lab1_trace.c: `--trace`. Runs one warp of warp-ballot's scatter-add with the
 * trace hooks on, prints what the GPU recorded (Stage 1 votes, Stage 2 additions,
 * the leaders' atomics) and checks every record against the host model of
 * lab1_peers.h, which plays the same algorithm over 32 host lanes. */
#include "lab1.h"

#include <stdlib.h>
#include <string.h>

/* The mask in hex, in binary with the highest lane on the left as lecture 1 draws
 * it (only the lanes up to the highest active one), and as a list "{0,4,7}". */
static void print_mask(FILE *out, uint32_t mask, int width)
{
    fprintf(out, "0x%08x = ", mask);
    for (int lane = width - 1; lane >= 0; lane--)
        fputc(mask >> lane & 1u ? '1' : '0', out);
    fprintf(out, " = lanes {");
    int first = 1;
    for (int lane = 0; lane < LAB1_WARP; lane++)
        if (mask >> lane & 1u) {
            fprintf(out, first ? "%d" : ",%d", lane);
            first = 0;
        }
    fprintf(out, "}");
}

static int trace_gpu(const int *keys, const double *values, int n, int bins, lab1_trace *trace,
                     double *sums)
{
    int *d_keys = NULL;
    double *d_values = NULL, *d_sums = NULL;
    lab1_trace *d_trace = NULL;
    int r = KIT_CHECK(cudaMalloc((void **)&d_keys, LAB1_WARP * sizeof(int)));
    if (!r)
        r = KIT_CHECK(cudaMalloc((void **)&d_values, LAB1_WARP * sizeof(double)));
    if (!r)
        r = KIT_CHECK(cudaMalloc((void **)&d_sums, (size_t)bins * sizeof(double)));
    if (!r)
        r = KIT_CHECK(cudaMalloc((void **)&d_trace, sizeof *d_trace));
    if (!r)
        r = KIT_CHECK(cudaMemcpy(d_keys, keys, (size_t)n * sizeof(int), cudaMemcpyHostToDevice));
    if (!r)
        r = KIT_CHECK(cudaMemcpy(d_values, values, (size_t)n * sizeof(double), cudaMemcpyHostToDevice));
    if (!r)
        r = KIT_CHECK(cudaMemset(d_trace, 0, sizeof *d_trace));
    if (!r) {
        lab1_io io = { .n = (size_t)n, .bins = bins, .keys = d_keys, .values = d_values, .sums = d_sums, .sms = 1 };
        r = lab1_warp_ballot_trace(&io, d_trace, 0);
    }
    if (!r)
        r = KIT_CHECK(cudaDeviceSynchronize());
    if (!r)
        r = KIT_CHECK(cudaMemcpy(trace, d_trace, sizeof *trace, cudaMemcpyDeviceToHost));
    if (!r)
        r = KIT_CHECK(cudaMemcpy(sums, d_sums, (size_t)bins * sizeof(double), cudaMemcpyDeviceToHost));
    cudaFree(d_keys);
    cudaFree(d_values);
    cudaFree(d_sums);
    cudaFree(d_trace);
    return r;
}

/* What the host model of lab1_peers.h says the warp does: the GPU must match it. */
typedef struct {
    int n, width;
    uint32_t active;
    int keys[LAB1_WARP];
    double values[LAB1_WARP];
    uint32_t peers[LAB1_WARP];
    lab1_stage1_step stage1[LAB1_WARP];
    int iterations;
    lab1_stage2_step stage2[LAB1_MAX_ROUNDS * LAB1_WARP];
    int additions, rounds;
    double x[LAB1_WARP]; /* after Stage 2: each group's leader holds the group's sum */
} warp_model;

static void run_model(warp_model *m, const int *keys, int n)
{
    memset(m, 0, sizeof *m);
    m->n = n;
    m->width = n < 8 ? 8 : n;
    m->active = n == LAB1_WARP ? 0xffffffffu : (1u << n) - 1;
    for (int lane = 0; lane < n; lane++) {
        m->keys[lane] = keys[lane];
        m->values[lane] = m->x[lane] = lane + 1;
    }
    m->iterations = lab1_model_find_peers(m->keys, m->active, m->peers, m->stage1);
    m->rounds = lab1_model_reduce_peers(m->peers, m->active, m->x, m->stage2, &m->additions);
}

static void print_lanes(FILE *out, const warp_model *m)
{
    fprintf(out, "trace: one warp of warp-ballot (scatter-add), %d lane%s with data", m->n, m->n == 1 ? "" : "s");
    if (m->n < LAB1_WARP)
        fprintf(out, "; lanes %d..31 hold none and take no part (active mask 0x%08x)", m->n, m->active);
    fprintf(out, "\n\n%-8s", "lane");
    for (int lane = 0; lane < m->n; lane++)
        fprintf(out, "%4d", lane);
    fprintf(out, "\n%-8s", "key");
    for (int lane = 0; lane < m->n; lane++)
        fprintf(out, "%4d", m->keys[lane]);
    fprintf(out, "\n%-8s", "value");
    for (int lane = 0; lane < m->n; lane++)
        fprintf(out, "%4g", m->values[lane]);
    fputc('\n', out);
}

/* Each print_ function prints what the GPU recorded and returns how many records
 * the host model disagrees with. */
static int print_stage1(FILE *out, const lab1_trace *t, const warp_model *m)
{
    int wrong = 0;
    fprintf(out, "\nStage 1: find the peers (one iteration per distinct key)\n");
    for (int it = 0; it < t->iterations && it < LAB1_WARP; it++) {
        const lab1_stage1_step *s = &t->stage1[it], *want = &m->stage1[it];
        fprintf(out, "  iteration %d: unassigned ", it + 1);
        print_mask(out, s->unassigned, m->width);
        fprintf(out, "\n               leader lane %d has key %d; __ballot_sync(key == %d) = ", s->leader,
                s->key, s->key);
        print_mask(out, s->ballot, m->width);
        fputc('\n', out);
        if (it >= m->iterations || s->leader != want->leader || s->key != want->key ||
            s->unassigned != want->unassigned || s->ballot != want->ballot) {
            fprintf(out, "               ^ the host model says otherwise\n");
            wrong++;
        }
    }
    if (t->iterations != m->iterations) {
        fprintf(out, "  the GPU took %d iterations, the host model %d\n", t->iterations, m->iterations);
        wrong++;
    }
    for (int lane = 0; lane < m->n; lane++)
        if (t->peers[lane] != m->peers[lane]) {
            fprintf(out, "  lane %d: GPU peers 0x%08x, host model 0x%08x\n", lane, t->peers[lane], m->peers[lane]);
            wrong++;
        }
    return wrong;
}

/* Does the model have the GPU's addition a of (round, lane)? */
static int model_has(const warp_model *m, int round, int lane, const lab1_trace_add *a)
{
    for (int i = 0; i < m->additions; i++) {
        const lab1_stage2_step *s = &m->stage2[i];
        if (s->round == round && s->lane == lane)
            return s->src == a->src && s->added == a->added && s->total == a->total;
    }
    return 0;
}

static int print_stage2(FILE *out, const lab1_trace *t, const warp_model *m)
{
    int wrong = 0, adds = 0;
    fprintf(out, "\nStage 2: sum each peer group over its bit pattern (even positions add the next live peer)\n");
    for (int round = 0; round < LAB1_MAX_ROUNDS; round++) {
        int printed = 0;
        for (int lane = 0; lane < LAB1_WARP; lane++) {
            const lab1_trace_add *a = &t->stage2[round][lane];
            if (!a->written)
                continue;
            if (!printed++)
                fprintf(out, "  round %d:", round + 1);
            fprintf(out, "  lane %d += lane %d (%g) -> %g;", lane, a->src, a->added, a->total);
            if (!model_has(m, round, lane, a)) {
                fprintf(out, " (host model differs)");
                wrong++;
            }
            adds++;
        }
        if (printed)
            fputc('\n', out);
    }
    if (adds != m->additions) {
        fprintf(out, "  the GPU made %d additions in Stage 2, the host model %d (%d rounds)\n", adds, m->additions,
                m->rounds);
        wrong++;
    }
    return wrong;
}

static int print_atomics(FILE *out, const lab1_trace *t, const double *sums, const warp_model *m)
{
    int wrong = 0, atomics = 0;
    fprintf(out, "\nAtomics: one per distinct key, by the group's lowest lane\n");
    for (int lane = 0; lane < LAB1_WARP; lane++) {
        const lab1_trace_atomic *a = &t->atomic[lane];
        int model_leader = lane < m->n && lab1_lowest_lane(m->peers[lane]) == lane;
        if (!a->written) {
            if (model_leader) {
                fprintf(out, "  lane %d should have added its group's sum (host model)\n", lane);
                wrong++;
            }
            continue;
        }
        atomics++;
        fprintf(out, "  lane %d: atomicAdd(&sums[%d], %g); bin %d now holds %g\n", lane, a->key, a->total, a->key,
                sums[a->key]);
        if (!model_leader || a->total != m->x[lane] || sums[a->key] != a->total) {
            fprintf(out, "    ^ the host model expects %g from lane %d\n", m->x[lane], lane);
            wrong++;
        }
    }
    fprintf(out, "\n%d distinct key%s: %d atomic%s instead of %d; ", m->iterations, m->iterations == 1 ? "" : "s",
            atomics, atomics == 1 ? "" : "s", m->n);
    return wrong;
}

int lab1_trace_run(const int *keys, int n, int bins, FILE *out)
{
    if (n < 1 || n > LAB1_WARP)
        return KIT_EXIT_USAGE;
    warp_model *m = kit_host_alloc(sizeof *m, "the host model");
    run_model(m, keys, n);
    lab1_trace *t = kit_host_alloc(sizeof *t, "the trace");
    double *sums = kit_host_alloc((size_t)bins * sizeof(double), "the trace sums");
    memset(t, 0, sizeof *t);
    int r = trace_gpu(m->keys, m->values, n, bins, t, sums), status;
    if (r == KIT_TODO) {
        fprintf(out, "warp-ballot (Step 1.3) is not implemented yet (TODO): nothing to trace.\n");
        status = KIT_EXIT_TODO;
    } else if (r) {
        status = KIT_EXIT_USAGE;
    } else {
        print_lanes(out, m);
        int wrong = print_stage1(out, t, m); /* one statement each: printed in this order */
        wrong += print_stage2(out, t, m);
        wrong += print_atomics(out, t, sums, m);
        fprintf(out, "%s\n", wrong ? "the GPU and the host model DISAGREE" : "the GPU matches the host model");
        status = wrong ? KIT_EXIT_WRONG : KIT_EXIT_OK;
    }
    free(m);
    free(t);
    free(sums);
    return status;
}
