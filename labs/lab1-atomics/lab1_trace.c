/* lab1_trace.c: `--trace`. Runs one warp of warp-ballot's scatter-add with the
 * trace hooks on, prints what the GPU recorded (Stage 1 votes, Stage 2 additions,
 * the leaders' atomics) and checks every record against the host model of
 * lab1_peers.h, which plays the same algorithm over 32 host lanes. */
#include "lab1.h"

#include <stdlib.h>
#include <string.h>

/* "{0,4,7}" and the mask in binary, lane 31 on the left as the seed draws it
 * (only the lanes up to the highest active one). */
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
        lab1_io io = { (size_t)n, bins, d_keys, d_values, NULL, d_sums, 1, 0, NULL };
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

int lab1_trace_run(const int *keys_in, int n, int bins, FILE *out)
{
    int keys[LAB1_WARP] = { 0 };
    double values[LAB1_WARP] = { 0 }, model_x[LAB1_WARP] = { 0 };
    if (n < 1 || n > LAB1_WARP)
        return KIT_EXIT_USAGE;
    for (int lane = 0; lane < n; lane++) {
        keys[lane] = keys_in[lane];
        values[lane] = model_x[lane] = lane + 1;
    }
    uint32_t active = n == LAB1_WARP ? 0xffffffffu : (1u << n) - 1;
    int width = n < 8 ? 8 : n;

    /* The host model first: it is what the GPU must match. */
    uint32_t model_peers[LAB1_WARP];
    lab1_stage1_step model_s1[LAB1_WARP];
    lab1_stage2_step model_s2[LAB1_MAX_ROUNDS * LAB1_WARP];
    int model_iters = lab1_model_find_peers(keys, active, model_peers, model_s1);
    int model_adds = 0;
    int model_rounds = lab1_model_reduce_peers(model_peers, active, model_x, model_s2, &model_adds);

    lab1_trace *t = kit_host_alloc(sizeof *t, "the trace");
    double *sums = kit_host_alloc((size_t)bins * sizeof(double), "the trace sums");
    memset(t, 0, sizeof *t);
    int r = trace_gpu(keys, values, n, bins, t, sums);
    if (r == KIT_TODO) {
        fprintf(out, "warp-ballot (Step 1.3) is not implemented yet (TODO): nothing to trace.\n");
        free(t);
        free(sums);
        return KIT_EXIT_TODO;
    }
    if (r) {
        free(t);
        free(sums);
        return KIT_EXIT_USAGE;
    }

    int wrong = 0;
    fprintf(out, "trace: one warp of warp-ballot (scatter-add), %d lane%s with data", n, n == 1 ? "" : "s");
    if (n < LAB1_WARP)
        fprintf(out, "; lanes %d..31 hold none and take no part (active mask 0x%08x)", n, active);
    fprintf(out, "\n\n%-8s", "lane");
    for (int lane = 0; lane < n; lane++)
        fprintf(out, "%4d", lane);
    fprintf(out, "\n%-8s", "key");
    for (int lane = 0; lane < n; lane++)
        fprintf(out, "%4d", keys[lane]);
    fprintf(out, "\n%-8s", "value");
    for (int lane = 0; lane < n; lane++)
        fprintf(out, "%4g", values[lane]);

    fprintf(out, "\n\nStage 1: find the peers (one iteration per distinct key)\n");
    int iters = t->iterations;
    for (int it = 0; it < iters && it < LAB1_WARP; it++) {
        const lab1_stage1_step *s = &t->stage1[it];
        fprintf(out, "  iteration %d: unassigned ", it + 1);
        print_mask(out, s->unassigned, width);
        fprintf(out, "\n               leader lane %d has key %d; __ballot_sync(key == %d) = ", s->leader,
                s->key, s->key);
        print_mask(out, s->ballot, width);
        fputc('\n', out);
        if (it >= model_iters || s->leader != model_s1[it].leader || s->key != model_s1[it].key ||
            s->unassigned != model_s1[it].unassigned || s->ballot != model_s1[it].ballot) {
            fprintf(out, "               ^ the host model says otherwise\n");
            wrong++;
        }
    }
    if (iters != model_iters) {
        fprintf(out, "  the GPU took %d iterations, the host model %d\n", iters, model_iters);
        wrong++;
    }
    for (int lane = 0; lane < n; lane++)
        if (t->peers[lane] != model_peers[lane]) {
            fprintf(out, "  lane %d: GPU peers 0x%08x, host model 0x%08x\n", lane, t->peers[lane],
                    model_peers[lane]);
            wrong++;
        }

    fprintf(out, "\nStage 2: sum each peer group over its bit pattern (even positions add the next live peer)\n");
    int adds = 0;
    for (int round = 0; round < LAB1_MAX_ROUNDS; round++) {
        int printed = 0;
        for (int lane = 0; lane < LAB1_WARP; lane++) {
            const lab1_trace_add *a = &t->stage2[round][lane];
            if (!a->written)
                continue;
            if (!printed++)
                fprintf(out, "  round %d:", round + 1);
            fprintf(out, "  lane %d += lane %d (%g) -> %g;", lane, a->src, a->added, a->total);
            /* find the model's record of this (round, lane) */
            int found = 0;
            for (int m = 0; m < model_adds; m++)
                if (model_s2[m].round == round && model_s2[m].lane == lane)
                    found = model_s2[m].src == a->src && model_s2[m].added == a->added &&
                            model_s2[m].total == a->total;
            if (!found) {
                fprintf(out, " (host model differs)");
                wrong++;
            }
            adds++;
        }
        if (printed)
            fputc('\n', out);
    }
    if (adds != model_adds) {
        fprintf(out, "  the GPU made %d additions in Stage 2, the host model %d (%d rounds)\n", adds,
                model_adds, model_rounds);
        wrong++;
    }

    fprintf(out, "\nAtomics: one per distinct key, by the group's lowest lane\n");
    int atomics = 0;
    for (int lane = 0; lane < LAB1_WARP; lane++) {
        const lab1_trace_atomic *a = &t->atomic[lane];
        int model_leader = lane < n && lab1_lowest_lane(model_peers[lane]) == lane;
        if (!a->written) {
            if (model_leader) {
                fprintf(out, "  lane %d should have added its group's sum (host model)\n", lane);
                wrong++;
            }
            continue;
        }
        atomics++;
        fprintf(out, "  lane %d: atomicAdd(&sums[%d], %g); bin %d now holds %g\n", lane, a->key, a->total,
                a->key, sums[a->key]);
        if (!model_leader || a->total != model_x[lane] || sums[a->key] != a->total) {
            fprintf(out, "    ^ the host model expects %g from lane %d\n", model_x[lane], lane);
            wrong++;
        }
    }
    fprintf(out, "\n%d distinct key%s: %d atomic%s instead of %d; %s\n", model_iters,
            model_iters == 1 ? "" : "s", atomics, atomics == 1 ? "" : "s", n,
            wrong ? "the GPU and the host model DISAGREE" : "the GPU matches the host model");
    free(t);
    free(sums);
    return wrong ? KIT_EXIT_WRONG : KIT_EXIT_OK;
}
