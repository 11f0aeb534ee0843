/* lab3: prefix sum (scan) and stream compaction. The driver: options, data,
 * check, time, table, CSV. Every row is checked against the CPU reference before
 * it is timed; see README.md for the exercise. */
#include "lab3.h"

#include <stdio.h>
#include <string.h>

static const char *type_arg = "i32", *scan_arg = "exclusive", *op_arg = "scan";
static long long keep_pct = 50;
static int want_stats;

static const kit_flag lab3_flags[] = {
    { "--type", KIT_FLAG_STRING, "T", "element type: i32, i64 or all (default i32)", &type_arg, 0, 0 },
    { "--scan", KIT_FLAG_STRING, "K", "inclusive, exclusive or all (default exclusive)", &scan_arg, 0, 0 },
    { "--op", KIT_FLAG_STRING, "OP",
      "scan (the variants and cub, default) or compact (select-if, select-pipeline and cub-select; no --variant, --scan is ignored)",
      &op_arg, 0, 0 },
    { "--keep", KIT_FLAG_INT, "PCT", "compaction: percent of items kept (default 50, 0..100)", &keep_pct, 0, 100 },
    { "--stats", KIT_FLAG_SWITCH, NULL,
      "after timing, run the look-back variants once more and print how many predecessors each tile inspected",
      &want_stats, 0, 0 },
    { NULL, 0, NULL, NULL, NULL, 0, 0 },
};

static const char *type_name(lab3_type t) { return t == LAB3_I32 ? "i32" : "i64"; }

/* One extra run of a look-back variant with the device counters on. */
static void print_stats(lab3_problem *p, int v, int exclusive, size_t n, lab3_type type, cudaStream_t stream)
{
    lab3_problem_enable_stats(p, 1);
    char why[256] = "";
    kit_case c = lab3_problem_scan_case(p, v, exclusive);
    kit_status s = kit_check_case(&c, stream, why, sizeof why);
    unsigned long long st[LAB3_STAT_COUNT] = { 0 };
    if (s == KIT_PASS && lab3_problem_read_stats(p, st) == 0) {
        double mean = st[LAB3_STAT_TILES] ? (double)st[LAB3_STAT_DEPTH_SUM] / (double)st[LAB3_STAT_TILES] : 0;
        printf("stats: %-20s n=%-11zu %s  tiles looking back=%llu  predecessors inspected per tile: mean %.2f,"
               " max %llu  status reads that found X: %llu\n",
               lab3_variants[v].info.slug, n, type_name(type), st[LAB3_STAT_TILES], mean, st[LAB3_STAT_DEPTH_MAX],
               st[LAB3_STAT_WAITS]);
    } else {
        printf("stats: %-20s n=%-11zu %s  not available (%s)\n", lab3_variants[v].info.slug, n, type_name(type),
               s == KIT_PASS ? "cannot read the counters" : why);
    }
    lab3_problem_enable_stats(p, 0);
}

int main(int argc, char **argv)
{
    const kit_lab lab3 = {
        .name = "lab3",
        .title = "lab3: prefix sum (scan) from a block-level scan to single-pass decoupled look-back; stream compaction",
        .variants = KIT_VARIANTS(lab3_variants, lab3_variant_count),
        .flags = lab3_flags,
        .default_n = (size_t)1 << 24,
        .max_n = LAB3_MAX_N,
        .n_unit = "values (int32 or int64, see --type)",
    };
    kit_options opt;
    kit_options_or_exit(&lab3, argc, argv, &opt);

    int types[2], type_count = 0, kinds[2], kind_count = 0;
    if (!strcmp(type_arg, "i32") || !strcmp(type_arg, "all"))
        types[type_count++] = LAB3_I32;
    if (!strcmp(type_arg, "i64") || !strcmp(type_arg, "all"))
        types[type_count++] = LAB3_I64;
    if (!type_count)
        kit_usage_error(&lab3, "--type must be i32, i64 or all, got '%s'", type_arg);
    if (!strcmp(scan_arg, "inclusive") || !strcmp(scan_arg, "all"))
        kinds[kind_count++] = 0;
    if (!strcmp(scan_arg, "exclusive") || !strcmp(scan_arg, "all"))
        kinds[kind_count++] = 1;
    if (!kind_count)
        kit_usage_error(&lab3, "--scan must be inclusive, exclusive or all, got '%s'", scan_arg);
    int compact = !strcmp(op_arg, "compact");
    if (!compact && strcmp(op_arg, "scan"))
        kit_usage_error(&lab3, "--op must be scan or compact, got '%s'", op_arg);
    if (compact && strcmp(opt.variant, "all"))
        kit_usage_error(&lab3, "--op compact runs select-if, select-pipeline and cub-select, not the scan variants: leave out --variant");

    kit_report rep;
    cudaStream_t stream = kit_begin(&opt, &rep);

    size_t sizes[32];
    int size_count = kit_sizes(&opt, &lab3, sizes);
    for (int s = 0; s < size_count; s++) {
        for (int ti = 0; ti < type_count; ti++) {
            lab3_type type = (lab3_type)types[ti];
            lab3_problem *p = lab3_problem_create(sizes[s], type, opt.seed, (uint32_t)keep_pct);
            kit_config cfg = { .lab = "lab3", .dist = "uniform", .n = sizes[s] };
            lab3_problem_copy_limit(p, &cfg);
            kit_case cases[20];
            int count = 0;
            if (compact) {
                cfg.type = type_name(type);
                snprintf(cfg.param, sizeof cfg.param, "keep=%lld", keep_pct);
                for (int row = 0; row < LAB3_SELECT_ROWS; row++)
                    cases[count++] = lab3_problem_select_case(p, (lab3_select_row)row);
                kit_run_cases(&rep, &opt, &cfg, cases, count, stream);
            } else {
                for (int k = 0; k < kind_count; k++) {
                    char type_col[16];
                    snprintf(type_col, sizeof type_col, "%s-%s", type_name(type), kinds[k] ? "excl" : "incl");
                    cfg.type = type_col;
                    count = 0;
                    for (int v = 0; v < lab3_variant_count; v++)
                        if (kit_variant_selected(&opt, lab3_variants[v].info.slug))
                            cases[count++] = lab3_problem_scan_case(p, v, kinds[k]);
                    cases[count++] = lab3_problem_scan_case(p, LAB3_CUB, kinds[k]); /* the library row, always */
                    kit_run_cases(&rep, &opt, &cfg, cases, count, stream);
                    for (int v = 0; want_stats && v < lab3_variant_count; v++)
                        if (lab3_variants[v].lookback && kit_variant_selected(&opt, lab3_variants[v].info.slug))
                            print_stats(p, v, kinds[k], sizes[s], type, stream);
                }
            }
            lab3_problem_destroy(p);
        }
    }
    return kit_end(&rep, stream);
}
