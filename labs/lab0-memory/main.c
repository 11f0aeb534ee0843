/* lab0: memory access patterns and divergence. The driver: options, data, check,
 * time, table, CSV. Every variant is checked against the CPU reference before it
 * is timed; see README.md for the exercise. */
#include "lab0.h"

#include <stdio.h>
#include <stdlib.h>

static long long stride = 2, offset = 1;
static int stride_sweep;

static const kit_flag lab0_flags[] = {
    { "--stride", KIT_FLAG_INT, "S", "stride of the `stride` variant, in floats (default 2, 1..32)",
      &stride, 1, LAB0_MAX_STRIDE },
    { "--offset", KIT_FLAG_INT, "K", "start offset of the `offset` variant, in floats (default 1, 0..32)",
      &offset, 0, LAB0_PAD },
    { "--stride-sweep", KIT_FLAG_SWITCH, NULL,
      "run `stride` for S = 1..32 and `offset` for K = 0..32 at --n (for the stride chart)",
      &stride_sweep, 0, 0 },
    { NULL, 0, NULL, NULL, NULL, 0, 0 },
};

/* Check and time the selected variants on one problem. */
static void run_problem(kit_report *rep, const kit_options *opt, lab0_problem *p, size_t n,
                        const char *param, int only_variant, cudaStream_t stream)
{
    kit_case *cases = kit_host_alloc((size_t)lab0_variant_count * sizeof *cases, "the cases");
    int count = 0;
    for (int v = 0; v < lab0_variant_count; v++) {
        int wanted = only_variant >= 0 ? v == only_variant
                                       : kit_variant_selected(opt, lab0_variants[v].info.slug);
        if (wanted)
            cases[count++] = lab0_problem_case(p, v);
    }
    kit_config cfg = { .lab = "lab0", .type = "f32", .dist = "uniform", .n = n, .items = (double)n };
    snprintf(cfg.param, sizeof cfg.param, "%s", param);
    lab0_problem_copy_limit(p, &cfg);
    kit_run_cases(rep, opt, &cfg, cases, count, stream);
    free(cases);
}

int main(int argc, char **argv)
{
    const kit_lab lab0 = {
        .name = "lab0",
        .title = "lab0: memory access patterns (coalescing, AoS vs SoA, stride, offset) and divergence",
        .variants = KIT_VARIANTS(lab0_variants, lab0_variant_count),
        .flags = lab0_flags,
        .default_n = (size_t)1 << 24,
        .max_n = LAB0_MAX_N,
        .n_unit = "float3 records (12 bytes each)",
    };
    kit_options opt;
    kit_options_or_exit(&lab0, argc, argv, &opt);
    kit_report rep;
    cudaStream_t stream = kit_begin(&opt, &rep);

    if (stride_sweep) {
        int v_stride = kit_variant_find(lab0.variants, "stride");
        int v_offset = kit_variant_find(lab0.variants, "offset");
        char param[32];
        for (int s = 1; s <= LAB0_MAX_STRIDE; s++) {
            lab0_problem *p = lab0_problem_create(opt.n, opt.seed, s, (int)offset);
            snprintf(param, sizeof param, "s=%d", s);
            run_problem(&rep, &opt, p, opt.n, param, v_stride, stream);
            lab0_problem_destroy(p);
        }
        for (int k = 0; k <= LAB0_PAD; k++) {
            lab0_problem *p = lab0_problem_create(opt.n, opt.seed, (int)stride, k);
            snprintf(param, sizeof param, "offset=%d", k);
            run_problem(&rep, &opt, p, opt.n, param, v_offset, stream);
            lab0_problem_destroy(p);
        }
    } else {
        size_t sizes[32];
        int count = kit_sizes(&opt, &lab0, sizes);
        char param[64];
        snprintf(param, sizeof param, "s=%lld;offset=%lld", stride, offset);
        for (int i = 0; i < count; i++) {
            lab0_problem *p = lab0_problem_create(sizes[i], opt.seed, (int)stride, (int)offset);
            run_problem(&rep, &opt, p, sizes[i], param, -1, stream);
            lab0_problem_destroy(p);
        }
    }
    return kit_end(&rep, stream);
}
