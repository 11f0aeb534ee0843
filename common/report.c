/* report.c: check, time and report the cases of one configuration. */
#include "kit.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static FILE *table_out(void) { return stdout; }

static const char *table_head =
    "%-22s %12s %-6s %-10s %-10s %10s %10s %10s %9s %9s %8s %8s  %s\n";

void kit_print_table_head(FILE *to)
{
    fprintf(to, table_head, "variant", "n", "type", "dist", "param", "median_ms", "min_ms", "max_ms",
            "GB/s", "Gitems/s", "%memcpy", "speedup", "status");
}

void kit_print_table_row(FILE *to, const kit_row *r)
{
    const char *param = r->param[0] ? r->param : "-";
    if (r->status == KIT_PASS && kit_emulated()) {
        char n[24];
        snprintf(n, sizeof n, "%zu", r->n);
        fprintf(to, table_head, r->variant, n, r->type, r->dist, param, "-", "-", "-", "-", "-", "-", "-",
                "PASS (emulated: not timed)");
    } else if (r->status == KIT_PASS) {
        char status[64];
        if (r->ms.runs < r->planned_runs) /* the time budget cut the repetitions */
            snprintf(status, sizeof status, "PASS (budget: %d of %d runs)", r->ms.runs, r->planned_runs);
        else
            snprintf(status, sizeof status, "PASS");
        fprintf(to, "%-22s %12zu %-6s %-10s %-10s %10.4f %10.4f %10.4f %9.1f %9.2f %7.1f%% %7.2fx  %s\n",
                r->variant, r->n, r->type, r->dist, param, r->ms.median, r->ms.min, r->ms.max,
                r->gbytes_s, r->gitems_s, r->pct_of_memcpy, r->speedup, status);
    } else {
        char n[24];
        snprintf(n, sizeof n, "%zu", r->n);
        fprintf(to, table_head, r->variant, n, r->type, r->dist, param, "-", "-", "-", "-", "-", "-",
                "-", kit_status_name(r->status));
    }
}

void kit_csv_header(FILE *to, const kit_device *dev)
{
    int runtime = 0;
    cudaRuntimeGetVersion(&runtime);
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d", gmtime(&now));
    fprintf(to, "# gpu=%s; sms=%d; cc=%d.%d; cuda=%d.%d; date=%s\n", dev->name, dev->sms,
            dev->cc_major, dev->cc_minor, runtime / 1000, runtime % 1000 / 10, date);
    fprintf(to, "lab,variant,n,type,dist,param,median_ms,min_ms,max_ms,gbytes_s,gitems_s,"
                "pct_of_memcpy,speedup,status,runs,baseline\n");
}

void kit_csv_row(FILE *to, const kit_row *r)
{
    fprintf(to, "%s,%s,%zu,%s,%s,%s,%.6f,%.6f,%.6f,%.3f,%.4f,%.2f,%.4f,%s,%d,%s\n", r->lab, r->variant,
            r->n, r->type, r->dist, r->param[0] ? r->param : "-", r->ms.median, r->ms.min, r->ms.max,
            r->gbytes_s, r->gitems_s, r->pct_of_memcpy, r->speedup, kit_status_name(r->status),
            r->ms.runs, r->baseline[0] ? r->baseline : "-");
    fflush(to); /* a run stopped by a time limit keeps the rows it finished */
}

void kit_report_open(kit_report *rep, const kit_options *opt, const kit_device *dev)
{
    memset(rep, 0, sizeof *rep);
    rep->dev = *dev;
    kit_device_print(dev, table_out());
    if (opt->csv_path) {
        rep->csv = fopen(opt->csv_path, "w");
        if (!rep->csv)
            kit_die(KIT_EXIT_USAGE, "cannot write CSV file '%s'", opt->csv_path);
        kit_csv_header(rep->csv, dev);
    }
    /* Twice the L2, so nothing the previous run touched is still cached. */
    rep->flush_bytes = 2 * (dev->l2_bytes ? dev->l2_bytes : (64u << 20));
    rep->flush_buf = kit_device_alloc(rep->flush_bytes, "the L2 flush buffer");
    if (kit_emulated()) {
        fprintf(table_out(), "emulated GPU: every row is checked against the CPU reference; nothing is timed (the "
                             "emulator shows correctness, not speed)\n\n");
        return;
    }
    char budget[48] = "no time limit per row (--budget 0)";
    if (opt->budget_s > 0)
        snprintf(budget, sizeof budget, "at most %.0f s per row (--budget)", opt->budget_s);
    fprintf(table_out(), "timing: median of %d runs after %d warm-up runs, L2 flushed before each run; %s\n",
            opt->reps, opt->warmup, budget);
    fprintf(table_out(), "speedup: relative to the first variant of each configuration that passes\n\n");
}

cudaStream_t kit_begin(const kit_options *opt, kit_report *rep)
{
    kit_device dev;
    kit_device_open_or_exit(opt, &dev);
    kit_report_open(rep, opt, &dev);
    cudaStream_t stream;
    if (KIT_CHECK(cudaStreamCreate(&stream)))
        exit(KIT_EXIT_USAGE);
    return stream;
}

int kit_end(kit_report *rep, cudaStream_t stream)
{
    cudaStreamDestroy(stream);
    return kit_report_finish(rep);
}

void kit_report_add(kit_report *rep, const kit_row *row)
{
    if (rep->count == rep->cap) {
        rep->cap = rep->cap ? 2 * rep->cap : 64;
        rep->rows = realloc(rep->rows, sizeof(kit_row) * (size_t)rep->cap);
        if (!rep->rows)
            kit_die(KIT_EXIT_USAGE, "out of host memory for the report");
    }
    rep->rows[rep->count++] = *row;
    if ((rep->count - 1) % 40 == 0) /* the column heads again every 40 rows */
        kit_print_table_head(table_out());
    kit_print_table_row(table_out(), row);
    fflush(table_out());
    if (rep->csv)
        kit_csv_row(rep->csv, row);
}

static void row_init(kit_row *row, const kit_config *cfg, const char *variant, int planned_runs)
{
    memset(row, 0, sizeof *row);
    snprintf(row->lab, sizeof row->lab, "%s", cfg->lab);
    snprintf(row->variant, sizeof row->variant, "%s", variant);
    snprintf(row->type, sizeof row->type, "%s", cfg->type);
    snprintf(row->dist, sizeof row->dist, "%s", cfg->dist);
    snprintf(row->param, sizeof row->param, "%s", cfg->param);
    row->n = cfg->n;
    row->planned_runs = planned_runs;
}

static void row_rates(kit_row *row, double bytes, double items, double memcpy_gbs,
                      double baseline_ms)
{
    double s = row->ms.median * 1e-3;
    row->gbytes_s = s > 0 ? bytes / s / 1e9 : 0;
    row->gitems_s = s > 0 ? items / s / 1e9 : 0;
    row->pct_of_memcpy = memcpy_gbs > 0 ? 100.0 * row->gbytes_s / memcpy_gbs : 0;
    row->speedup = row->ms.median > 0 && baseline_ms > 0 ? baseline_ms / row->ms.median : 0;
}

typedef struct { const void *src; void *dst; size_t bytes; } copy_ctx;

static int run_memcpy(void *ctx, cudaStream_t stream)
{
    copy_ctx *c = ctx;
    return c->bytes ? (int)cudaMemcpyAsync(c->dst, c->src, c->bytes, cudaMemcpyDeviceToDevice, stream)
                    : 0;
}

/* A fault inside a kernel poisons the whole context: nothing after it can run. */
static void stop_if_context_lost(kit_report *rep, const kit_row *row)
{
    cudaGetLastError();
    if (cudaDeviceSynchronize() != cudaSuccess) {
        fprintf(stderr, "%s: %s\nthe CUDA context is unusable after this error; stopping.\n",
                row->variant, row->why);
        kit_report_finish(rep);
        exit(KIT_EXIT_USAGE);
    }
}

/* A launcher returns a cudaError_t or a lab's own code (e.g. an output too large):
 * name the first, number the second. */
static void describe_error(char *why, size_t len, const char *when, int r)
{
    const char *name = cudaGetErrorName((cudaError_t)r);
    if (name && strncmp(name, "unrecognized", 12) != 0)
        snprintf(why, len, "CUDA error%s: %s", when, cudaGetErrorString((cudaError_t)r));
    else
        snprintf(why, len, "launcher error %d%s (see the lab's message above)", r, when);
}

kit_status kit_check_case(const kit_case *c, cudaStream_t stream, char *why, size_t len)
{
    int r = c->prepare ? c->prepare(c->ctx, stream) : 0;
    if (!r)
        r = c->run(c->ctx, stream);
    if (r == KIT_TODO) {
        snprintf(why, len, "not implemented yet (TODO)");
        return KIT_TODO_STATUS;
    }
    if (!r)
        r = (int)cudaStreamSynchronize(stream);
    if (r) {
        describe_error(why, len, "", r);
        return KIT_ERROR;
    }
    if (c->check && c->check(c->ctx, why, len))
        return KIT_FAIL;
    return KIT_PASS;
}

/* Check, then time, one case within the row's time budget; the note on stderr
 * speaks up if either takes long. */
static void check_and_time(kit_report *rep, const kit_options *opt, const kit_case *c,
                           cudaStream_t stream, kit_row *row)
{
    kit_note_begin("checking %s at n = %zu", c->variant, row->n);
    row->status = kit_check_case(c, stream, row->why, sizeof row->why);
    double checked_s = kit_note_end();
    if (row->status != KIT_PASS || kit_emulated())
        return;
    double left_s = opt->budget_s - checked_s;
    kit_timing t = { .warmup = opt->warmup, .reps = opt->reps, .budget_s = opt->budget_s,
                     .flush_buf = rep->flush_buf, .flush_bytes = rep->flush_bytes };
    if (opt->budget_s > 0) {
        /* The checked run has warmed up already when it alone spent the budget. */
        t.warmup = left_s > 0 ? opt->warmup : 0;
        t.budget_s = left_s > 0 ? left_s : 1e-3;
    }
    kit_note_begin("timing %s at n = %zu (%d runs)", c->variant, row->n, opt->reps);
    int r = kit_time(c, stream, &t, &row->ms);
    kit_note_end();
    if (r) {
        row->status = KIT_ERROR;
        describe_error(row->why, sizeof row->why, " while timing", r);
    }
}

void kit_run_cases(kit_report *rep, const kit_options *opt, const kit_config *cfg,
                   const kit_case *cases, int count, cudaStream_t stream)
{
    kit_row row;
    /* The limit: a device-to-device copy of the same bytes, read + write counted. */
    copy_ctx copy = { cfg->copy_src, cfg->copy_dst, cfg->copy_bytes };
    kit_case copy_case = { .variant = "memcpy", .run = run_memcpy, .ctx = &copy };
    row_init(&row, cfg, "memcpy", opt->reps);
    check_and_time(rep, opt, &copy_case, stream, &row);
    double memcpy_gbs = row.status == KIT_PASS && row.ms.median > 0
                            ? 2.0 * cfg->copy_bytes / (row.ms.median * 1e-3) / 1e9 : 0;
    row_rates(&row, 2.0 * cfg->copy_bytes, cfg->items, memcpy_gbs, 0); /* no speedup: 0 */
    kit_report_add(rep, &row);

    double baseline_ms = 0;
    char baseline[40] = "";
    for (int i = 0; i < count; i++) {
        const kit_case *c = &cases[i];
        row_init(&row, cfg, c->variant, opt->reps);
        check_and_time(rep, opt, c, stream, &row);
        if (row.status == KIT_PASS && !kit_emulated()) {
            if (baseline_ms == 0) {
                baseline_ms = row.ms.median;
                snprintf(baseline, sizeof baseline, "%s", c->variant);
                if (i > 0) /* the speedup column moves: say so */
                    fprintf(table_out(), "(speedup below is relative to %s: %s did not pass)\n",
                            baseline, cases[0].variant);
            }
            snprintf(row.baseline, sizeof row.baseline, "%s", baseline);
            row_rates(&row, c->bytes, c->items, memcpy_gbs, baseline_ms);
        }
        kit_report_add(rep, &row);
        if (row.status == KIT_ERROR)
            stop_if_context_lost(rep, &row);
    }
}

int kit_report_finish(kit_report *rep)
{
    int fails = 0, errors = 0, todos = 0;
    for (int i = 0; i < rep->count; i++) {
        const kit_row *r = &rep->rows[i];
        fails += r->status == KIT_FAIL;
        errors += r->status == KIT_ERROR;
        todos += r->status == KIT_TODO_STATUS;
        if (r->status == KIT_FAIL || r->status == KIT_ERROR)
            fprintf(table_out(), "%s %s at n=%zu (%s %s %s): %s\n", kit_status_name(r->status),
                    r->variant, r->n, r->type, r->dist, r->param, r->why);
    }
    if (todos)
        fprintf(table_out(), "%d row(s) TODO: implement the step(s) named in the exercise sheet.\n",
                todos);
    if (rep->csv)
        fclose(rep->csv);
    cudaFree(rep->flush_buf);
    free(rep->rows);
    memset(rep, 0, sizeof *rep);
    if (errors)
        return KIT_EXIT_USAGE;
    if (fails)
        return KIT_EXIT_WRONG;
    return todos ? KIT_EXIT_TODO : KIT_EXIT_OK;
}
