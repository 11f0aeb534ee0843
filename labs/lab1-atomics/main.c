/* lab1: histogram and scatter-add, from one atomic per element to warp-aggregated
 * atomics. The driver: options, data, check, time, table, CSV. Every variant is
 * checked against the CPU reference before it is timed; see README.md for the
 * exercise. */
#include "lab1.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t bins = LAB1_DEFAULT_BINS;
static const char *op_name = "histogram";
static const char *keys_text = NULL;
static int trace;

static const kit_flag lab1_flags[] = {
    { "--bins", KIT_FLAG_SIZE, "B", "number of bins, keys are in [0, B) (default 256, 1..2^20)", &bins, 1,
      (long long)LAB1_MAX_BINS },
    { "--op", KIT_FLAG_STRING, "OP",
      "histogram (int32 counts), scatter-add (a double value per key added into its bin) or all",
      &op_name, 0, 0 },
    { "--trace", KIT_FLAG_SWITCH, NULL,
      "run one warp of warp-ballot and print its Stage 1 votes, Stage 2 sub-tree and atomics",
      &trace, 0, 0 },
    { "--keys", KIT_FLAG_STRING, "K0,K1,..",
      "with --trace: the warp's keys (1..32 of them, each in [0, B)); default: Westphal's 8-lane example 2,3,3,1,2,3,1,2",
      &keys_text, 0, 0 },
    { NULL, 0, NULL, NULL, NULL, 0, 0 },
};

static const char *const lab1_dists[] = { "uniform", "kwarp:", "zipf", "sorted", "single", NULL };

/* The param column: the bins, and for each selected variant that privatizes, the
 * copies of the bins its blocks keep in shared memory ("global": they did not fit,
 * it fell back to global atomics). */
static void describe_smem(const kit_options *opt, const lab1_problem *p, lab1_op op, char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "bins=%zu", bins);
    for (int v = 0; v < lab1_variant_count && used < len; v++) {
        const lab1_variant *var = &lab1_variants[v];
        int copies = lab1_problem_smem_copies(p, v, op);
        if (copies < 0 || !kit_variant_selected(opt, var->info.slug))
            continue;
        if (copies == 0)
            used += (size_t)snprintf(out + used, len - used, ";%s=global", var->info.slug);
        else
            used += (size_t)snprintf(out + used, len - used, ";%s=%d", var->info.slug, copies);
    }
}

/* Whether variant v has a row for operation op (cas-loop has no histogram). */
static int has_row(int v, lab1_op op)
{
    return op == LAB1_HISTOGRAM ? lab1_variants[v].histogram != NULL : lab1_variants[v].scatter_add != NULL;
}

/* Check and time the selected variants (and CUB for the histogram) on one problem. */
static void run_op(kit_report *rep, const kit_options *opt, lab1_problem *p, size_t n, lab1_op op,
                   const char *dist, cudaStream_t stream)
{
    kit_case *cases = kit_host_alloc((size_t)(lab1_variant_count + 1) * sizeof *cases, "the cases");
    int count = 0;
    for (int v = 0; v < lab1_variant_count; v++) {
        if (has_row(v, op) && kit_variant_selected(opt, lab1_variants[v].info.slug))
            cases[count++] = lab1_problem_case(p, v, op);
    }
    if (op == LAB1_HISTOGRAM)
        cases[count++] = lab1_problem_cub_case(p); /* the library line, always shown */
    kit_config cfg = { .lab = "lab1", .type = op == LAB1_HISTOGRAM ? "count" : "f64", .dist = dist, .n = n,
                       .items = (double)n };
    describe_smem(opt, p, op, cfg.param, sizeof cfg.param);
    lab1_problem_copy_limit(p, op, &cfg);
    kit_run_cases(rep, opt, &cfg, cases, count, stream);
    free(cases);
}

int main(int argc, char **argv)
{
    const kit_lab lab1 = {
        .name = "lab1",
        .title = "lab1: histogram and scatter-add, from plain atomics to warp vote and shuffle "
                 "(warp-aggregated atomics)",
        .variants = KIT_VARIANTS(lab1_variants, lab1_variant_count),
        .dists = lab1_dists,
        .dist_help = "uniform keys; kwarp:K = exactly K distinct keys (1..32) in every warp of 32 keys; "
                     "zipf = P(key r) ~ 1/(r+1); sorted = non-decreasing; single = one key",
        .flags = lab1_flags,
        .default_n = (size_t)1 << 24,
        .max_n = LAB1_MAX_N,
        .n_unit = "int32 keys",
    };
    kit_options opt;
    kit_options_or_exit(&lab1, argc, argv, &opt);

    /* Everything the user can get wrong is checked before touching the GPU. */
    int do_op[LAB1_OPS] = { 0, 0 };
    if (!strcmp(op_name, "histogram"))
        do_op[LAB1_HISTOGRAM] = 1;
    else if (!strcmp(op_name, "scatter-add"))
        do_op[LAB1_SCATTER_ADD] = 1;
    else if (!strcmp(op_name, "all"))
        do_op[LAB1_HISTOGRAM] = do_op[LAB1_SCATTER_ADD] = 1;
    else
        kit_usage_error(&lab1, "--op must be histogram, scatter-add or all, got '%s'", op_name);
    /* A variant without a row for the operation would print a table without it. */
    int rows = 0;
    for (int v = 0; v < lab1_variant_count; v++)
        if (kit_variant_selected(&opt, lab1_variants[v].info.slug))
            for (int op = 0; op < LAB1_OPS; op++)
                rows += do_op[op] && has_row(v, (lab1_op)op);
    if (!rows)
        kit_usage_error(&lab1, "variant '%s' has no %s row (cas-loop is scatter-add only): add --op scatter-add",
                        opt.variant, op_name);
    char err[256];
    lab1_dist dist;
    if (lab1_parse_dist(opt.dist, bins, &dist, err, sizeof err))
        kit_usage_error(&lab1, "%s", err);
    if (keys_text && !trace)
        kit_usage_error(&lab1, "--keys only makes sense with --trace");
    int trace_keys[LAB1_WARP] = { 2, 3, 3, 1, 2, 3, 1, 2 }; /* Westphal's 8-lane example (lecture 1) */
    int trace_n = 8;
    if (trace) {
        if (keys_text)
            trace_n = lab1_parse_keys(keys_text, bins, trace_keys, err, sizeof err);
        else if (bins < 4)
            snprintf(err, sizeof err, "the default --trace keys go up to 3: use --bins 4 or more, or --keys");
        if (trace_n < 0 || (!keys_text && bins < 4))
            kit_usage_error(&lab1, "%s", err);
    }

    if (trace) {
        kit_device dev;
        kit_device_open_or_exit(&opt, &dev);
        kit_device_print(&dev, stdout);
        return lab1_trace_run(trace_keys, trace_n, (int)bins, stdout);
    }
    kit_report rep;
    cudaStream_t stream = kit_begin(&opt, &rep);

    char dist_name[32];
    lab1_dist_name(dist, dist_name, sizeof dist_name);
    size_t sizes[32];
    int count = kit_sizes(&opt, &lab1, sizes);
    for (int i = 0; i < count; i++) {
        lab1_problem *p = lab1_problem_create(sizes[i], bins, dist, opt.seed, do_op[LAB1_SCATTER_ADD]);
        for (int op = 0; op < LAB1_OPS; op++)
            if (do_op[op])
                run_op(&rep, &opt, p, sizes[i], (lab1_op)op, dist_name, stream);
        lab1_problem_destroy(p);
    }
    return kit_end(&rep, stream);
}
