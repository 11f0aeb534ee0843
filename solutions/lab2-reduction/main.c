/* lab2: reduction. The driver: options, data, check, time, table, CSV. Every
 * variant is checked against the CPU reference before it is timed; the memcpy
 * and cub rows give the limits in the same run. See README.md for the exercise. */
#include "lab2.h"

#include <stdio.h>
#include <string.h>

static const char *type_arg = "i64";
static size_t grid_arg; /* 0: the occupancy-sized default */

static const kit_flag lab2_flags[] = {
    { "--type", KIT_FLAG_STRING, "T",
      "what to reduce: i64 (int32 summed into int64, default), f32 (float sum), max (int32\n"
      "                   maximum) or all. Rows: memcpy of the 4n input bytes (read + write counted), every\n"
      "                   variant that supports the type, cub. GB/s counts the 4n bytes read; the param\n"
      "                   column grid=A;B gives the grids of register-blocked and single-pass",
      &type_arg, 0, 0 },
    { "--grid", KIT_FLAG_SIZE, "B",
      "blocks of the grid-stride variants (register-blocked, single-pass) instead of the\n"
      "                   occupancy-sized default; a B above the number of tiles gives one block per\n"
      "                   tile (no grid-stride loop). For the ablation of Step 2.5",
      &grid_arg, 1, (long long)1 << 31 },
    { NULL, 0, NULL, NULL, NULL, 0, 0 },
};

/* Check and time every selected variant that supports the problem's type, then cub. */
static void run_problem(kit_report *rep, const kit_options *opt, lab2_problem *p, size_t n,
                        lab2_type type, cudaStream_t stream)
{
    kit_case cases[16];
    int count = 0;
    int v_rb = -1, v_sp = -1;
    for (int v = 0; v < lab2_variant_count; v++) {
        if (!strcmp(lab2_variants[v].info.slug, "register-blocked"))
            v_rb = v;
        if (!strcmp(lab2_variants[v].info.slug, "single-pass"))
            v_sp = v;
        if (kit_variant_selected(opt, lab2_variants[v].info.slug) && lab2_variant_supports(v, type))
            cases[count++] = lab2_problem_case(p, v, grid_arg);
    }
    cases[count++] = lab2_problem_cub_case(p);
    kit_config cfg = { .lab = "lab2", .type = lab2_type_name(type), .dist = "uniform", .n = n,
                       .items = (double)n };
    /* The grids of the grid-stride variants, for the record. */
    if (grid_arg)
        snprintf(cfg.param, sizeof cfg.param, "grid=%zu", grid_arg);
    else
        snprintf(cfg.param, sizeof cfg.param, "grid=%zu;%zu", lab2_problem_grid(p, v_rb),
                 lab2_problem_grid(p, v_sp));
    lab2_problem_copy_limit(p, &cfg);
    kit_run_cases(rep, opt, &cfg, cases, count, stream);
}

int main(int argc, char **argv)
{
    const kit_lab lab2 = {
        .name = "lab2",
        .title = "lab2: reduction, from interleaved addressing to a single pass at the bandwidth limit",
        .variants = KIT_VARIANTS(lab2_variants, lab2_variant_count),
        .flags = lab2_flags,
        .default_n = (size_t)1 << 24,
        .max_n = LAB2_MAX_N,
        .n_unit = "32-bit values (int32 for i64 and max, float for f32)",
    };
    kit_options opt;
    kit_options_or_exit(&lab2, argc, argv, &opt);
    lab2_type types[LAB2_TYPE_COUNT];
    int type_count = 0;
    if (!strcmp(type_arg, "all")) {
        for (int t = 0; t < LAB2_TYPE_COUNT; t++)
            types[type_count++] = (lab2_type)t;
    } else if (lab2_type_parse(type_arg, &types[0]) == 0) {
        type_count = 1;
    } else {
        kit_usage_error(&lab2, "unknown --type '%s' (i64, f32, max or all)", type_arg);
    }

    kit_report rep;
    cudaStream_t stream = kit_begin(&opt, &rep);

    size_t sizes[32];
    int size_count = kit_sizes(&opt, &lab2, sizes);
    for (int i = 0; i < size_count; i++)
        for (int t = 0; t < type_count; t++) {
            lab2_problem *p = lab2_problem_create(sizes[i], types[t], opt.seed);
            run_problem(&rep, &opt, p, sizes[i], types[t], stream);
            lab2_problem_destroy(p);
        }
    return kit_end(&rep, stream);
}
