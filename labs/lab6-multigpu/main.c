/* lab6: beyond one GPU. The driver: where this process stands in the ring (one
 * process for every GPU, or one per GPU under mpirun / srun / --ranks), options,
 * data, check, time, table, CSV. Every row is checked against the CPU reference
 * before it is timed; see README.md for the exercise. */
#include "lab6.h"

#include <stdlib.h>
#include <string.h>

static long long gpus_arg, chunks = 4, bins = 256, ranks_arg, rank_arg = -1;
static const char *type_arg = "f32", *op_arg = "all", *id_file;

static const kit_flag lab6_flags[] = {
    { "--gpus", KIT_FLAG_INT, "G", "GPUs in the ring, all driven by this process (default: every visible GPU)",
      &gpus_arg, 1, LAB6_MAX_LOCAL },
    { "--op", KIT_FLAG_STRING, "OP", "allreduce, histogram, scan, sort, a comma-separated list, or all (default all)",
      &op_arg, 0, 0 },
    { "--type", KIT_FLAG_STRING, "T", "all-reduce values: i32, f32 or all (default f32)", &type_arg, 0, 0 },
    { "--chunks", KIT_FLAG_INT, "K", "ring: chunks per segment, pipelined over two streams (default 4, 1..16)",
      &chunks, 1, LAB6_MAX_CHUNKS },
    { "--bins", KIT_FLAG_INT, "B", "histogram: bins (default 256, 1..65536)", &bins, 1, 65536 },
    { "--ranks", KIT_FLAG_INT, "R", "one process per GPU, started by hand: R processes (mpirun and srun say it themselves)",
      &ranks_arg, 1, 1 << 20 },
    { "--rank", KIT_FLAG_INT, "r", "with --ranks: this process's rank, 0..R-1", &rank_arg, 0, 1 << 20 },
    { "--id-file", KIT_FLAG_STRING, "F", "one process per GPU: the file rank 0 passes NCCL's id through"
      " (default $TMPDIR/lab6-nccl-id-JOB; between hosts: a shared file system)", &id_file, 0, 0 },
    { NULL, 0, NULL, NULL, NULL, 0, 0 },
};

/* Rows every all-reduce size adds: the bandwidths the way nccl-tests reports them. */
static void print_bus_bandwidth(const kit_report *rep, int first_row, int G, double bytes)
{
    printf("  nccl-tests: algbw = %.0f bytes / time, busbw = algbw x 2(G-1)/G = algbw x %.2f (the link rate for"
           " p2p-copy)\n", bytes, lab6_allreduce_bus_factor(G));
    for (int i = first_row; i < rep->count; i++) {
        const kit_row *r = &rep->rows[i];
        if (r->status != KIT_PASS || !strcmp(r->variant, "memcpy"))
            continue;
        int link = !strcmp(r->variant, "p2p-copy");
        double algbw = lab6_algbw_gbs(bytes, r->ms.median);
        printf("  %-24s algbw %9.1f GB/s   busbw %9.1f GB/s\n", r->variant, algbw,
               link ? algbw : lab6_busbw_gbs(bytes, r->ms.median, G));
    }
}

/* Is `name` one of the comma-separated words of `list`? */
static int in_list(const char *list, const char *name)
{
    size_t len = strlen(name);
    for (const char *w = list;;) {
        size_t wlen = strcspn(w, ",");
        if (wlen == len && !strncmp(w, name, len))
            return 1;
        if (!w[wlen])
            return 0;
        w += wlen + 1;
    }
}

static int op_selected(const kit_options *opt, lab6_op op)
{
    if (strcmp(op_arg, "all") && !in_list(op_arg, lab6_op_name(op)))
        return 0;
    for (int v = 0; v < lab6_variant_count; v++)
        if (lab6_variants[v].op == op && kit_variant_selected(opt, lab6_variants[v].info.slug))
            return 1;
    return 0;
}

static void run_allreduce(kit_report *rep, const kit_options *opt, const lab6_team *t, size_t n, lab6_type type,
                          cudaStream_t stream)
{
    lab6_reduce_problem *p = lab6_reduce_create(t, n, type, (int)chunks, opt->seed);
    kit_config cfg = { .lab = "lab6", .type = type == LAB6_I32 ? "i32" : "f32", .dist = "uniform", .n = n };
    snprintf(cfg.param, sizeof cfg.param, "G=%d chunks=%lld", t->gpus, chunks);
    lab6_reduce_copy_limit(p, &cfg);
    kit_case cases[LAB6_OPS + 8];
    int count = 0;
    for (int v = 0; v < lab6_variant_count; v++)
        if (lab6_variants[v].op == LAB6_ALLREDUCE && kit_variant_selected(opt, lab6_variants[v].info.slug) &&
            !(lab6_variants[v].needs_one_process && t->local < t->gpus))
            cases[count++] = lab6_reduce_case(p, v);
    if (t->peer_access)
        cases[count++] = lab6_p2p_copy_case(p); /* the ceiling: one link's copy rate */
    int first_row = rep->count;
    kit_run_cases(rep, opt, &cfg, cases, count, stream);
    if (!kit_emulated()) /* bandwidths need times */
        print_bus_bandwidth(rep, first_row, t->gpus, (double)n * lab6_type_bytes(type));
    lab6_reduce_destroy(p);
}

static void run_app(kit_report *rep, const kit_options *opt, const lab6_team *t, lab6_op op, size_t total,
                    const char *dist, cudaStream_t stream)
{
    lab6_app_problem *p = lab6_app_create(t, op, total, dist, (int)bins, opt->seed);
    kit_config cfg = { .lab = "lab6", .type = op == LAB6_SCAN ? "i32" : "u32", .dist = dist, .n = total };
    if (op == LAB6_HISTOGRAM)
        snprintf(cfg.param, sizeof cfg.param, "G=%d bins=%lld %s", t->gpus, bins, lab6_kernel_name(op));
    else
        snprintf(cfg.param, sizeof cfg.param, "G=%d %s", t->gpus, lab6_kernel_name(op));
    lab6_app_copy_limit(p, &cfg);
    kit_case cases[2];
    int count = 0;
    cases[count++] = lab6_app_case(p, LAB6_ONE_GPU); /* first: the speedup column is against it */
    for (int v = 0; v < lab6_variant_count; v++)
        if (lab6_variants[v].op == op && kit_variant_selected(opt, lab6_variants[v].info.slug))
            cases[count++] = lab6_app_case(p, v);
    kit_run_cases(rep, opt, &cfg, cases, count, stream);
    lab6_app_destroy(p);
}

int main(int argc, char **argv)
{
    const char *dists[16];
    int dist_count = 0;
    while (lab6_sort_dists[dist_count]) {
        dists[dist_count] = lab6_sort_dists[dist_count];
        dist_count++;
    }
    dists[dist_count] = "all";
    dists[dist_count + 1] = NULL;
    const kit_lab lab6 = {
        .name = "lab6",
        .title = "lab6: beyond one GPU: all-reduce by hand and with NCCL; histogram, scan and sort across GPUs",
        .variants = KIT_VARIANTS(lab6_variants, lab6_variant_count),
        .dists = dists,
        .dist_help = "sort keys: uniform, 16 distinct values, all equal, sorted, reverse sorted, high 16 bits zero;"
                     " all: each",
        .flags = lab6_flags,
        .default_n = (size_t)1 << 24,
        .max_n = (size_t)1 << 30,
        .n_unit = "values per GPU (all-reduce) or keys in all (applications)",
    };
    kit_options opt;
    kit_options_or_exit(&lab6, argc, argv, &opt);

    int types[2], type_count = 0;
    if (!strcmp(type_arg, "i32") || !strcmp(type_arg, "all"))
        types[type_count++] = LAB6_I32;
    if (!strcmp(type_arg, "f32") || !strcmp(type_arg, "all"))
        types[type_count++] = LAB6_F32;
    if (!type_count)
        kit_usage_error(&lab6, "--type must be i32, f32 or all, got '%s'", type_arg);
    int known = 0, words = 1;
    for (const char *c = op_arg; *c; c++)
        words += *c == ',';
    for (int op = 0; op < LAB6_OPS; op++)
        known += in_list(op_arg, lab6_op_name((lab6_op)op));
    if (strcmp(op_arg, "all") && known != words)
        kit_usage_error(&lab6, "--op takes allreduce, histogram, scan, sort (or several, comma-separated) or all,"
                               " got '%s'", op_arg);
    if (rank_arg >= 0 && !ranks_arg)
        kit_usage_error(&lab6, "--rank needs --ranks");

    /* Where this process stands: --ranks, else the launcher's environment, else it
     * drives every GPU of the ring itself. */
    int rank = 0, ranks = 0, local_rank = 0;
    char job[160] = "by-hand";
    if (ranks_arg) {
        if (rank_arg < 0 || rank_arg >= ranks_arg)
            kit_usage_error(&lab6, "--ranks %lld needs --rank 0..%lld", ranks_arg, ranks_arg - 1);
        rank = (int)rank_arg;
        ranks = (int)ranks_arg;
        local_rank = rank;
    } else {
        lab6_launcher_env(&rank, &ranks, &local_rank, job, sizeof job);
    }
    if (ranks && gpus_arg)
        kit_usage_error(&lab6, "--gpus is for one process driving every GPU; with one process per GPU the ring has"
                               " one GPU per process (%d here)", ranks);
    if (ranks) {
        /* Every rank must run every collective the same number of times: a time
         * budget could stop one rank's repetitions earlier than another's, leaving
         * the other waiting in a collective for ever. */
        opt.budget_s = 0;
        opt.device += local_rank;
        if (rank != 0) { /* rank 0 prints the table and writes the CSV */
            opt.csv_path = NULL;
            if (!freopen("/dev/null", "w", stdout))
                kit_die(KIT_EXIT_USAGE, "cannot silence rank %d's table", rank);
        }
    }

    kit_report rep;
    cudaStream_t stream = kit_begin(&opt, &rep);
    lab6_team team;
    char why[512];
    int bad;
    if (ranks) {
        char default_id[512];
        const char *tmp = getenv("TMPDIR");
        snprintf(default_id, sizeof default_id, "%s/lab6-nccl-id-%s", tmp && *tmp ? tmp : "/tmp", job);
        bad = lab6_team_open_rank(&team, rank, ranks, opt.device, id_file ? id_file : default_id, why, sizeof why);
    } else {
        int count = 0;
        cudaGetDeviceCount(&count);
        int all = count - opt.device < LAB6_MAX_LOCAL ? count - opt.device : LAB6_MAX_LOCAL;
        bad = lab6_team_open(&team, opt.device, gpus_arg ? (int)gpus_arg : all, why, sizeof why);
    }
    if (bad)
        kit_die(KIT_EXIT_USAGE, "lab6: %s", why);
    int v = kit_variant_find(lab6.variants, opt.variant);
    if (v >= 0 && lab6_variants[v].needs_one_process && team.local < team.gpus)
        kit_die(KIT_EXIT_USAGE, "lab6: %s reads the other GPUs' memory directly: it needs every GPU of the ring in"
                " one process (run it without mpirun / --ranks)", opt.variant);
    int nccl = 0;
    ncclGetVersion(&nccl);
    const char *nvls = getenv("NCCL_NVLS_ENABLE");
    printf("ring: %d GPU(s) (%s%s), %d process(es); NCCL %d.%d.%d, NCCL_NVLS_ENABLE=%s; peer access %s\n", team.gpus,
           team.names, team.local < team.gpus ? " here" : "", ranks ? ranks : 1, nccl / 10000, nccl / 100 % 100,
           nccl % 100, nvls ? nvls : "(unset)", team.peer_access ? "on" : "off: the peer-to-peer rows are left out");
    if (rep.csv)
        fprintf(rep.csv, "# gpus=%d: %s%s; processes=%d; nccl=%d.%d.%d; NCCL_NVLS_ENABLE=%s\n", team.gpus,
                team.names, team.local < team.gpus ? " (rank 0's)" : "", ranks ? ranks : 1, nccl / 10000,
                nccl / 100 % 100, nccl % 100, nvls ? nvls : "unset");

    size_t sizes[32];
    int size_count = kit_sizes(&opt, &lab6, sizes);
    for (int s = 0; s < size_count; s++) {
        if (op_selected(&opt, LAB6_ALLREDUCE))
            for (int ti = 0; ti < type_count; ti++)
                run_allreduce(&rep, &opt, &team, sizes[s], (lab6_type)types[ti], stream);
        for (int op = LAB6_HISTOGRAM; op < LAB6_OPS; op++) {
            if (!op_selected(&opt, (lab6_op)op))
                continue;
            if (op != LAB6_SORT) {
                run_app(&rep, &opt, &team, (lab6_op)op, sizes[s], "uniform", stream);
                continue;
            }
            for (int d = 0; d < dist_count; d++)
                if (!strcmp(opt.dist, "all") || !strcmp(opt.dist, lab6_sort_dists[d]))
                    run_app(&rep, &opt, &team, LAB6_SORT, sizes[s], lab6_sort_dists[d], stream);
        }
    }
    lab6_team_close(&team);
    return kit_end(&rep, stream);
}
