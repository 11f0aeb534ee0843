/* lab5: radix sort. The driver: options, data, check, time, table, CSV. Every
 * row is checked against the CPU reference (keys and, with --pairs, values) before
 * it is timed; see README.md for the exercise. */
#include "lab5.h"

#include <stdio.h>
#include <string.h>

static const char *type_arg = "u32";
static int pairs;
static long long tiles_per_sm; /* 0: the GPU's choice */

static const kit_flag lab5_flags[] = {
    { "--type", KIT_FLAG_STRING, "T", "key type: u32, i32, f32 or all (default u32)", &type_arg, 0, 0 },
    { "--pairs", KIT_FLAG_SWITCH, NULL,
      "sort key-value pairs: a 32-bit value (the key's original index) travels with each key", &pairs, 0, 0 },
    { "--tiles-per-sm", KIT_FLAG_INT, "K",
      "onesweep with --pairs: 2 tiles of 384 x 22 keys per SM or 1 of 640 x 24 (default 0: the GPU's choice, "
      "1 where its DRAM gives under 30 GB/s per SM)", &tiles_per_sm, 0, 2 },
    { NULL, 0, NULL, NULL, NULL, 0, 0 },
};

/* Which digit passes onesweep ran on this input (the others had one digit value
 * for every key). Nothing when onesweep has not run (e.g. still TODO). */
static void print_onesweep_plan(lab5_problem *p, size_t n, const char *type_col, const char *dist)
{
    uint32_t plan = 0;
    if (lab5_problem_onesweep_plan(p, &plan) || plan == 0)
        return;
    printf("onesweep plan: n=%zu %s %s: %d of %d digit passes ran (", n, type_col, dist, lab5_popcount4(plan),
           LAB5_OS_PASSES);
    for (int pass = 0; pass < LAB5_OS_PASSES; pass++)
        printf("%s%d:%s", pass ? " " : "", pass, plan >> pass & 1 ? "ran" : "skipped");
    printf(")\n");
}

int main(int argc, char **argv)
{
    const kit_lab lab5 = {
        .name = "lab5",
        .title = "lab5: radix sort, from a one-bit split to Onesweep (and a merge sort for contrast)",
        .variants = KIT_VARIANTS(lab5_variants, lab5_variant_count),
        .dists = lab5_dist_names,
        .dist_help = "uniform = every 32-bit word; few = 16 distinct keys incl. edge values (-0.0, NaN, INT_MIN..); "
                     "equal = one key; sorted / reverse = ascending / descending; lowbits = high 16 bits zero",
        .flags = lab5_flags,
        .default_n = (size_t)1 << 24,
        .max_n = LAB5_MAX_N,
        .n_unit = "keys (32-bit, see --type; with --pairs each has a 32-bit value)",
    };
    kit_options opt;
    kit_options_or_exit(&lab5, argc, argv, &opt);

    lab5_type types[3];
    int type_count = 0;
    for (int t = LAB5_U32; t <= LAB5_F32; t++)
        if (!strcmp(type_arg, lab5_type_name((lab5_type)t)) || !strcmp(type_arg, "all"))
            types[type_count++] = (lab5_type)t;
    if (!type_count)
        kit_usage_error(&lab5, "--type must be u32, i32, f32 or all, got '%s'", type_arg);
    lab5_dist dist = LAB5_UNIFORM;
    while (strcmp(lab5_dist_names[dist], opt.dist))
        dist++;

    kit_report rep;
    cudaStream_t stream = kit_begin(&opt, &rep);

    size_t sizes[32];
    int size_count = kit_sizes(&opt, &lab5, sizes);
    for (int s = 0; s < size_count; s++) {
        for (int ti = 0; ti < type_count; ti++) {
            lab5_problem *p = lab5_problem_create(sizes[s], types[ti], dist, pairs, opt.seed);
            char type_col[16];
            snprintf(type_col, sizeof type_col, "%s-%s", lab5_type_name(types[ti]), pairs ? "pairs" : "keys");
            kit_config cfg = { .lab = "lab5", .type = type_col, .dist = opt.dist, .n = sizes[s] };
            if (pairs) { /* the onesweep shape that runs, in the table and the CSV */
                int tiles = tiles_per_sm ? (int)tiles_per_sm : lab5_onesweep_tiles_per_sm();
                lab5_problem_set_onesweep_tiles(p, tiles);
                snprintf(cfg.param, sizeof cfg.param, "tiles-per-sm=%d", tiles);
            }
            lab5_problem_copy_limit(p, &cfg);
            kit_case cases[16];
            int count = 0;
            for (int v = 0; v < lab5_variant_count; v++)
                if (kit_variant_selected(&opt, lab5_variants[v].info.slug))
                    cases[count++] = lab5_problem_case(p, v);
            cases[count++] = lab5_problem_case(p, LAB5_CUB); /* the library row, always */
            kit_run_cases(&rep, &opt, &cfg, cases, count, stream);
            if (kit_variant_selected(&opt, "onesweep"))
                print_onesweep_plan(p, sizes[s], type_col, opt.dist);
            lab5_problem_destroy(p);
        }
    }
    return kit_end(&rep, stream);
}
