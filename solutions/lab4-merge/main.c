/* lab4: merge and joins. The driver: options, data, check, time, table, CSV.
 * Variants compute different operations, so --op picks the group of rows:
 *   merge  (naive-merge, merge-path, cub; keys, or key-value pairs with --pairs),
 *   search (sorted-search), lbs (load-balancing-search),
 *   join   (join, one row per --join type).
 * Every row is checked against the CPU reference before it is timed; see
 * README.md for the exercise. */
#include "lab4.h"
#include "lab4_search.h"

#include <stdlib.h>
#include <string.h>

static const char *op_arg = NULL, *join_arg = "all";
static long long split = 50, dups = 1, hot = 0;
static int trace, phases, pairs;

/* Joins are swept up to this size (their reference and outputs grow fast). */
#define LAB4_JOIN_SWEEP_MAX ((size_t)1 << 24)

static const kit_flag lab4_flags[] = {
    { "--op", KIT_FLAG_STRING, "OP",
      "merge | search | lbs | join | all (default merge, or the op of --variant)", &op_arg, 0, 0 },
    { "--join", KIT_FLAG_STRING, "TYPE", "join type for --op join: inner | left | right | outer | all (default all)",
      &join_arg, 0, 0 },
    { "--split", KIT_FLAG_INT, "PCT", "|A| = n * PCT / 100, |B| = the rest (default 50, 0..100)", &split,
      0, 100 },
    { "--dups", KIT_FLAG_INT, "D", "join tables: about D rows per key (default 1 = unique keys, 1..64)",
      &dups, 1, 64 },
    { "--hot", KIT_FLAG_INT, "H",
      "join tables: one key (A's middle one) given H rows in A and in B (more if it had more), an outer "
      "product of at least H x H rows (default 0 = none, at most 65536; a join past the row limit is "
      "refused)",
      &hot, 0, 65536 },
    { "--pairs", KIT_FLAG_SWITCH, NULL,
      "merge key-value pairs (each value the item's origin, so the check sees stability) instead of keys",
      &pairs, 0, 0 },
    { "--phases", KIT_FLAG_SWITCH, NULL,
      "also time the join's phases (search + count + scan, the expand's partitions, expand) with "
      "events: rows join:search, join:partition, join:expand",
      &phases, 0, 0 },
    { "--trace", KIT_FLAG_SWITCH, NULL,
      "print the Merge Path partition of the lecture's 16 x 14 example (no GPU needed) and exit",
      &trace, 0, 0 },
    { NULL, 0, NULL, NULL, NULL, 0, 0 },
};

static const char *const lab4_dists[] = { "uniform", "dups", NULL };

/* ---- --trace ---------------------------------------------------------------- */

/* The lecture's tile for the trace: 4 threads x 3 items. */
enum { TRACE_NT = 4, TRACE_VT = 3, TRACE_NV = TRACE_NT * TRACE_VT };

/* The lecture's tables (section 8, from Baxter's slides): letters are keys; "E2"
 * is the third E of its table. */
static const char trace_a[] = "AABEEEEFFGHHJJMM";
static const char trace_b[] = "AABBBCCFGGHILL";

static void label(char *out, const char *keys, int64_t i)
{
    int occurrence = 0;
    while (occurrence < i && keys[i - occurrence - 1] == keys[i])
        occurrence++;
    snprintf(out, 16, "%c%d", keys[i], occurrence);
}

static void print_interval(const char *name, const char *keys, int64_t lo, int64_t hi)
{
    char l[16];
    printf("%s[%2lld, %2lld) =", name, (long long)lo, (long long)hi);
    for (int64_t i = lo; i < hi; i++) {
        label(l, keys, i);
        printf(" %s", l);
    }
    printf("\n");
}

/* The partition kernel and the tile kernel of step 4.1, run on the host with the
 * same functions (lab4_search.h); the serial merge's source indices name the items. */
static void print_trace(void)
{
    int32_t a[sizeof trace_a], b[sizeof trace_b];
    int64_t na = (int64_t)strlen(trace_a), nb = (int64_t)strlen(trace_b), total = na + nb;
    for (int64_t i = 0; i < na; i++)
        a[i] = trace_a[i];
    for (int64_t j = 0; j < nb; j++)
        b[j] = trace_b[j];
    printf("Merge Path partition of the lecture's example (stable: on equal keys A first)\n");
    print_interval("A", trace_a, 0, na);
    print_interval("B", trace_b, 0, nb);
    printf("tiles of NV = NT x VT = %d x %d = %d outputs; the partition kernel searches each tile's\n"
           "first diagonal in the whole arrays, each thread then its own diagonal inside the tile.\n\n",
           TRACE_NT, TRACE_VT, TRACE_NV);
    int64_t tiles = (int64_t)kit_div_up((size_t)total, TRACE_NV);
    int64_t partitions[sizeof trace_a + sizeof trace_b];
    for (int64_t t = 0; t <= tiles; t++)
        partitions[t] = lab4_merge_path_search(a, na, b, nb, lab4_tile_diag(t, TRACE_NV, total), 0);
    for (int64_t t = 0; t < tiles; t++) {
        lab4_merge_range r = lab4_merge_tile_range(partitions, t, TRACE_NV, na, nb);
        int tile_a = (int)(r.a_end - r.a_begin), tile_b = (int)(r.b_end - r.b_begin);
        int tile_n = tile_a + tile_b;
        printf("tile %lld: diagonals %lld..%lld\n  ", (long long)t, (long long)(r.a_begin + r.b_begin),
               (long long)(r.a_end + r.b_end));
        print_interval("A", trace_a, r.a_begin, r.a_end);
        printf("  ");
        print_interval("B", trace_b, r.b_begin, r.b_end);
        int32_t keys[TRACE_NV];
        for (int i = 0; i < tile_n; i++)
            keys[i] = i < tile_a ? a[r.a_begin + i] : b[r.b_begin + i - tile_a];
        for (int tid = 0; tid < TRACE_NT && tid * TRACE_VT < tile_n; tid++) {
            int diag = tid * TRACE_VT, count = tile_n - diag < TRACE_VT ? tile_n - diag : TRACE_VT;
            int as = (int)lab4_merge_path_search(keys, tile_a, keys + tile_a, tile_b, diag, 0);
            int32_t out[TRACE_VT];
            int src[TRACE_VT];
            for (int k = 0; k < TRACE_VT; k++)
                src[k] = -1; /* stays -1 while lab4_serial_merge is a TODO */
            lab4_serial_merge(keys, as, tile_a, tile_a + diag - as, tile_n, count, TRACE_VT, out, src);
            printf("    thread %d: diagonal %2d -> starts at A[%2lld] B[%2lld], emits", tid, diag,
                   (long long)(r.a_begin + as), (long long)(r.b_begin + diag - as));
            for (int k = 0; k < count; k++) {
                char l[16];
                if (src[k] < 0 || src[k] >= tile_n) {
                    printf(" ?");
                    continue;
                }
                int from_a = src[k] < tile_a;
                if (from_a)
                    label(l, trace_a, r.a_begin + src[k]);
                else
                    label(l, trace_b, r.b_begin + src[k] - tile_a);
                printf(" %c:%s", from_a ? 'a' : 'b', l);
            }
            printf("\n");
        }
    }
}

/* ---- the runs --------------------------------------------------------------- */

static int variant_of_op(lab4_op op, int v, const kit_options *opt)
{
    return lab4_variants[v].op == op && kit_variant_selected(opt, lab4_variants[v].info.slug);
}

static void run_cases(kit_report *rep, const kit_options *opt, lab4_problem *p, lab4_op op,
                      size_t n, const char *type, const char *dist, const char *param,
                      int with_cub, cudaStream_t stream)
{
    kit_case *cases = kit_host_alloc((size_t)(lab4_variant_count + 1) * sizeof *cases, "the cases");
    int count = 0;
    for (int v = 0; v < lab4_variant_count; v++)
        if (variant_of_op(op, v, opt))
            cases[count++] = lab4_problem_case(p, v);
    if (with_cub)
        cases[count++] = lab4_problem_cub_case(p);
    if (count > 0) {
        kit_config cfg = { .lab = "lab4", .type = type, .dist = dist, .n = n };
        snprintf(cfg.param, sizeof cfg.param, "%s", param);
        lab4_problem_copy_limit(p, &cfg);
        kit_run_cases(rep, opt, &cfg, cases, count, stream);
    }
    free(cases);
}

/* --phases: time the join's phases with events (lab4_io.phase_events): search +
 * count + scan, the expand's partitions, the expand. */
static void time_phases(kit_report *rep, const kit_options *opt, lab4_problem *p, size_t n,
                        const char *param, cudaStream_t stream)
{
    static const char *names[3] = { "join:search", "join:partition", "join:expand" };
    lab4_io *io = lab4_problem_io(p);
    cudaEvent_t ev[4] = { NULL, NULL, NULL, NULL };
    int r = 0;
    for (int i = 0; i < 4 && !r; i++)
        r = KIT_CHECK(cudaEventCreate(&ev[i])); /* a failure becomes ERROR rows below */
    for (int i = 0; i < 3; i++)
        io->phase_events[i] = ev[i + 1];
    double *ms[3];
    for (int i = 0; i < 3; i++)
        ms[i] = kit_host_alloc(sizeof(double) * (size_t)opt->reps, "phase samples");
    for (int i = 0; i < opt->warmup && !r; i++)
        r = lab4_join(io, stream);
    for (int i = 0; i < opt->reps && !r; i++) {
        r = (int)cudaMemsetAsync(rep->flush_buf, i & 0xff, rep->flush_bytes, stream);
        if (!r)
            r = (int)cudaEventRecord(ev[0], stream);
        if (!r)
            r = lab4_join(io, stream);
        if (!r)
            r = (int)cudaEventSynchronize(ev[3]);
        for (int ph = 0; ph < 3 && !r; ph++) {
            float t = 0;
            r = (int)cudaEventElapsedTime(&t, ev[ph], ev[ph + 1]);
            ms[ph][i] = t;
        }
    }
    for (int i = 0; i < 3; i++)
        io->phase_events[i] = NULL;
    double sum = 0;
    kit_stats st[3];
    for (int ph = 0; ph < 3; ph++) {
        kit_row row;
        memset(&row, 0, sizeof row);
        snprintf(row.lab, sizeof row.lab, "lab4");
        snprintf(row.variant, sizeof row.variant, "%s", names[ph]);
        snprintf(row.type, sizeof row.type, "%s", lab4_join_name(io->join));
        snprintf(row.dist, sizeof row.dist, "-");
        snprintf(row.param, sizeof row.param, "%s", param);
        row.n = n;
        row.planned_runs = opt->reps;
        if (r) {
            row.status = KIT_ERROR;
            snprintf(row.why, sizeof row.why, "CUDA error while timing the phases: %s",
                     cudaGetErrorString((cudaError_t)r));
        } else {
            st[ph] = kit_stats_of(ms[ph], opt->reps);
            row.ms = st[ph];
            sum += st[ph].median;
        }
        kit_report_add(rep, &row);
    }
    if (!r && sum > 0)
        printf("join phases (%s, n=%zu): search + count + scan %.3f ms (%.0f%%), partition %.3f ms "
               "(%.0f%%), expand %.3f ms (%.0f%%)\n",
               lab4_join_name(io->join), n, st[0].median, 100 * st[0].median / sum, st[1].median,
               100 * st[1].median / sum, st[2].median, 100 * st[2].median / sum);
    for (int i = 0; i < 4; i++)
        if (ev[i])
            cudaEventDestroy(ev[i]);
    for (int i = 0; i < 3; i++)
        free(ms[i]);
}

/* |A| = n * split / 100, |B| = the rest. */
static size_t a_count_of(size_t n) { return (size_t)((double)n * (double)split / 100.0); }

/* One size of every selected operation. Returns 0, or KIT_EXIT_USAGE when a join
 * was refused (its message printed): the driver then stops. */
static int run_size(kit_report *rep, const kit_options *opt, unsigned ops, unsigned joins,
                    size_t n, cudaStream_t stream)
{
    size_t a_count = a_count_of(n), b_count = n - a_count;
    char param[64];
    if (ops & (1u << LAB4_MERGE | 1u << LAB4_SEARCH)) {
        int with_dups = strcmp(opt->dist, "dups") == 0;
        int32_t *a = kit_host_alloc(a_count * sizeof(int32_t), "A");
        int32_t *b = kit_host_alloc(b_count * sizeof(int32_t), "B");
        lab4_make_sorted(a, a_count, n, opt->seed, with_dups);
        lab4_make_sorted(b, b_count, n, opt->seed + 0x9E37, with_dups);
        snprintf(param, sizeof param, "split=%lld", split);
        for (lab4_op op = LAB4_MERGE; op <= LAB4_SEARCH; op++) {
            if (!(ops & 1u << op))
                continue;
            lab4_problem *p = lab4_problem_create(op, a, a_count, b, b_count);
            int with_pairs = op == LAB4_MERGE && pairs;
            if (with_pairs)
                lab4_problem_use_pairs(p);
            run_cases(rep, opt, p, op, n, with_pairs ? "pairs" : "i32", opt->dist, param,
                      op == LAB4_MERGE /* the library row, always */, stream);
            lab4_problem_destroy(p);
        }
        free(a);
        free(b);
    }
    if (ops & 1u << LAB4_LBS) {
        /* n outputs from n / 4 objects: about 4 outputs per object, some empty. */
        size_t objs = n ? (n / 4 ? n / 4 : 1) : 0;
        int64_t *offsets = kit_host_alloc((objs + 1) * sizeof(int64_t), "offsets");
        lab4_make_offsets(offsets, objs, n, opt->seed);
        lab4_problem *p = lab4_problem_create_lbs(offsets, objs);
        snprintf(param, sizeof param, "objects=%zu", objs);
        run_cases(rep, opt, p, LAB4_LBS, n, "i64", "uniform", param, 0, stream);
        lab4_problem_destroy(p);
        free(offsets);
    }
    int status = 0;
    if ((ops & 1u << LAB4_JOIN) && !(opt->sweep && n > LAB4_JOIN_SWEEP_MAX)) {
        int32_t *a = kit_host_alloc(a_count * sizeof(int32_t), "table A");
        int32_t *b = kit_host_alloc(b_count * sizeof(int32_t), "table B");
        lab4_make_table(a, a_count, (int)dups, opt->seed);
        lab4_make_table(b, b_count, (int)dups, opt->seed ^ 0x5bd1e995u);
        if (hot && a_count && b_count) {
            int32_t key = a[a_count / 2];
            lab4_make_hot(a, a_count, key, (size_t)hot);
            lab4_make_hot(b, b_count, key, (size_t)hot);
        }
        lab4_problem *p = lab4_problem_create(LAB4_JOIN, a, a_count, b, b_count);
        snprintf(param, sizeof param, "dups=%lld;split=%lld;hot=%lld", dups, split, hot);
        for (lab4_join_type t = LAB4_INNER; t <= LAB4_OUTER && !status; t++) {
            if (!(joins & 1u << t))
                continue;
            if ((status = lab4_problem_set_join(p, t)))
                break; /* refused: the message is printed */
            run_cases(rep, opt, p, LAB4_JOIN, n, lab4_join_name(t), hot ? "hot" : dups > 1 ? "dups" : "unique",
                      param, 0, stream);
            if (phases && kit_variant_selected(opt, "join") && kit_emulated())
                printf("--phases: the phases are not timed under the CPU emulator\n");
            else if (phases && kit_variant_selected(opt, "join"))
                time_phases(rep, opt, p, n, param, stream);
        }
        lab4_problem_destroy(p);
        free(a);
        free(b);
    }
    return status;
}

int main(int argc, char **argv)
{
    const kit_lab lab4 = {
        .name = "lab4",
        .title = "lab4: merge and joins (naive merge, Merge Path, sorted search, load-balancing search, joins)",
        .variants = KIT_VARIANTS(lab4_variants, lab4_variant_count),
        .dists = lab4_dists,
        .dist_help = "merge/search keys: uniform = spread over 2n values; dups = runs of ~16 equal keys",
        .flags = lab4_flags,
        .default_n = (size_t)1 << 24,
        .max_n = LAB4_MERGE_MAX_KEYS,
        .n_unit = "keys (|A| + |B|; lbs: outputs; above 2^30 only --op merge)",
    };
    kit_options opt;
    kit_options_or_exit(&lab4, argc, argv, &opt);

    static const char *ops_names[] = { "merge", "search", "lbs", "join" };
    unsigned ops = 0, joins = 0;
    int v = strcmp(opt.variant, "all") ? kit_variant_find(lab4.variants, opt.variant) : -1;
    if (!op_arg)
        ops = 1u << (v >= 0 ? lab4_variants[v].op : LAB4_MERGE);
    else if (!strcmp(op_arg, "all"))
        ops = 15;
    else
        for (int i = 0; i < 4; i++)
            if (!strcmp(op_arg, ops_names[i]))
                ops = 1u << i;
    if (!ops)
        kit_usage_error(&lab4, "--op must be merge, search, lbs, join or all, got '%s'", op_arg);
    if (v >= 0 && !(ops & 1u << lab4_variants[v].op))
        kit_usage_error(&lab4, "variant '%s' computes --op %s", opt.variant,
                        ops_names[lab4_variants[v].op]);
    if (!strcmp(join_arg, "all"))
        joins = 15;
    else
        for (lab4_join_type t = LAB4_INNER; t <= LAB4_OUTER; t++)
            if (!strcmp(join_arg, lab4_join_name(t)))
                joins = 1u << t;
    if (!joins)
        kit_usage_error(&lab4, "--join must be inner, left, right, outer or all, got '%s'", join_arg);
    if (opt.n > LAB4_MAX_ITEMS && (ops & ~(1u << LAB4_MERGE)))
        kit_usage_error(&lab4, "--n %zu: only --op merge goes past 2^30 (the other operations store "
                        "32-bit indices)", opt.n);
    size_t a_count = a_count_of(opt.n);
    if (pairs && (ops & 1u << LAB4_MERGE) &&
        (a_count > LAB4_PAIRS_MAX_SIDE || opt.n - a_count > LAB4_PAIRS_MAX_SIDE))
        kit_usage_error(&lab4, "--pairs: each of A and B may hold at most 2^31 - 1 items (the values "
                        "are int32 origins); use a smaller --n or a more even --split");

    if (trace) {
        print_trace();
        return KIT_EXIT_OK;
    }

    kit_report rep;
    cudaStream_t stream = kit_begin(&opt, &rep);
    size_t sizes[32];
    int count = kit_sizes(&opt, &lab4, sizes), refused = 0;
    for (int i = 0; i < count && !refused; i++)
        refused = run_size(&rep, &opt, ops, joins, sizes[i], stream);
    int status = kit_end(&rep, stream); /* the table and the CSV of what did run */
    return refused ? KIT_EXIT_USAGE : status;
}
