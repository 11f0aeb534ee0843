/* CPU suite for make profile's reader of Nsight Compute CSV (tools/ncu_summary.awk):
 * both page layouts, units, thousands separators, quoted names, missing numbers, and
 * the committed sample of a real lab2 run checked against a reader written here. */
#include "tool_run.h"

#include <math.h>
#include <stdio.h>

typedef struct {
    char label[64], stall_reason[64];
    int kernels;
    double time_ns, dram, occupancy, stall, bank_ld, bank_st, inst; /* NAN: "n/a" */
} totals;

static double number_or_nan(const char *field) { return strcmp(field, "n/a") ? atof(field) : NAN; }

/* Run the summary in totals mode over files (space-separated) with labels; parse the rows. */
static int summarize(const char *labels, const char *files, totals *t, int max)
{
    int status;
    char *out = tool_run(&status, "awk -v mode=totals -v labels='%s' -f %s/tools/ncu_summary.awk %s", labels,
                         kit_test_root(), files);
    cr_assert(eq(int, status, 0), "ncu_summary failed: %s", out);
    int count = 0;
    for (char *line = strtok(out, "\n"); line && count < max; line = strtok(NULL, "\n")) {
        char f[10][64];
        int n = sscanf(line, "%63[^\t]\t%63[^\t]\t%63[^\t]\t%63[^\t]\t%63[^\t]\t%63[^\t]\t%63[^\t]\t%63[^\t]\t%63[^\t]\t%63s",
                       f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]);
        cr_assert(eq(int, n, 10), "unexpected totals line: %s", line);
        totals *r = &t[count++];
        snprintf(r->label, sizeof r->label, "%s", f[0]);
        r->kernels = atoi(f[1]);
        r->time_ns = number_or_nan(f[2]);
        r->dram = number_or_nan(f[3]);
        r->occupancy = number_or_nan(f[4]);
        snprintf(r->stall_reason, sizeof r->stall_reason, "%s", f[5]);
        r->stall = number_or_nan(f[6]);
        r->bank_ld = number_or_nan(f[7]);
        r->bank_st = number_or_nan(f[8]);
        r->inst = number_or_nan(f[9]);
    }
    return count;
}

#define RAW_HEADER                                                                                       \
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","     \
    "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"dram__throughput.avg.pct_of_peak_sustained_elapsed\"," \
    "\"gpu__time_duration.sum\",\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\","          \
    "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\","                                      \
    "\"sm__warps_active.avg.pct_of_peak_sustained_active\","                                             \
    "\"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio\","                              \
    "\"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio\","                      \
    "\"smsp__average_warps_issue_stalled_selected_per_issue_active.ratio\",\"smsp__inst_executed.sum\"\n"

/* Two launches: 10 us and 30 us (in microseconds, as ncu prints without --print-units
 * base), a name with commas, thousands separators, instructions in Kinst. */
static const char raw_page[] =
    "==PROF== Connected to process 1 (./solution9)\n" RAW_HEADER
    "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"%\",\"usecond\",\"\",\"\",\"%\",\"inst\",\"inst\",\"inst\",\"Kinst\"\n"
    "\"0\",\"7\",\"solution9\",\"h\",\"void big<int, 2>(const int *, unsigned long)\",\"1\",\"13\",\"(256, 1, 1)\","
    "\"(4096, 1, 1)\",\"0\",\"9.0\",\"80\",\"10\",\"1,000\",\"10\",\"50\",\"2\",\"6\",\"9\",\"1,500\"\n"
    "\"1\",\"7\",\"solution9\",\"h\",\"void small<int, 2>(const int *, unsigned long)\",\"1\",\"13\",\"(256, 1, 1)\","
    "\"(1, 1, 1)\",\"0\",\"9.0\",\"40\",\"30\",\"234,000\",\"n/a\",\"90\",\"8\",\"2\",\"9\",\"0.5\"\n";

/* The same two launches as the default (details) page prints them: one row per metric. */
static const char details_page[] =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
#define K0 "\"0\",\"7\",\"solution9\",\"h\",\"void big<int, 2>(const int *, unsigned long)\",\"1\",\"13\",\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"S\","
#define K1 "\"1\",\"7\",\"solution9\",\"h\",\"void small<int, 2>(const int *, unsigned long)\",\"1\",\"13\",\"(256, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\",\"S\","
    K0 "\"gpu__time_duration.sum\",\"nsecond\",\"10,000\"\n"
    K0 "\"dram__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"80\"\n"
    K0 "\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"%\",\"50\"\n"
    K0 "\"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio\",\"inst\",\"2\"\n"
    K0 "\"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio\",\"inst\",\"6\"\n"
    K0 "\"smsp__average_warps_issue_stalled_selected_per_issue_active.ratio\",\"inst\",\"9\"\n"
    K0 "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\",\"\",\"1,000\"\n"
    K0 "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\",\"\",\"10\"\n"
    K0 "\"smsp__inst_executed.sum\",\"inst\",\"1,500,000\"\n"
    K1 "\"gpu__time_duration.sum\",\"usecond\",\"30\"\n"
    K1 "\"dram__throughput.avg.pct_of_peak_sustained_elapsed\",\"%\",\"40\"\n"
    K1 "\"sm__warps_active.avg.pct_of_peak_sustained_active\",\"%\",\"90\"\n"
    K1 "\"smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio\",\"inst\",\"8\"\n"
    K1 "\"smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio\",\"inst\",\"2\"\n"
    K1 "\"smsp__average_warps_issue_stalled_selected_per_issue_active.ratio\",\"inst\",\"9\"\n"
    K1 "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\",\"\",\"234,000\"\n"
    K1 "\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum\",\"\",\"n/a\"\n"
    K1 "\"smsp__inst_executed.sum\",\"inst\",\"500\"\n";

/* What both pages must give: times summed, percentages weighted by time, the stall
 * reason with the largest time-weighted mean ("selected" is not a stall), counts
 * summed with n/a left out. */
static void expect_the_two_launches(totals *t)
{
    cr_expect(eq(int, t->kernels, 2));
    cr_expect(ieee_ulp_eq(dbl, t->time_ns, 40000.0, 4));
    cr_expect(lt(dbl, fabs(t->dram - (10 * 80 + 30 * 40) / 40.0), 0.01), "dram %f", t->dram);
    cr_expect(lt(dbl, fabs(t->occupancy - (10 * 50 + 30 * 90) / 40.0), 0.01), "occupancy %f", t->occupancy);
    /* barrier: (10*2 + 30*8)/40 = 6.5 beats long_scoreboard: (10*6 + 30*2)/40 = 3 */
    cr_expect(eq(str, t->stall_reason, "barrier"));
    cr_expect(lt(dbl, fabs(t->stall - 6.5), 0.01), "stall %f", t->stall);
    cr_expect(ieee_ulp_eq(dbl, t->bank_ld, 235000.0, 4));
    cr_expect(ieee_ulp_eq(dbl, t->bank_st, 10.0, 4));
    cr_expect(ieee_ulp_eq(dbl, t->inst, 1500500.0, 4));
}

Test(profile, raw_page_with_units_row)
{
    char path[64];
    tool_write_temp(path, raw_page);
    totals t[2];
    cr_assert(eq(int, summarize("v", path, t, 2), 1));
    cr_expect(eq(str, t[0].label, "v"));
    expect_the_two_launches(&t[0]);
    unlink(path);
}

Test(profile, details_page_one_row_per_metric)
{
    char path[64];
    tool_write_temp(path, details_page);
    totals t[2];
    cr_assert(eq(int, summarize("v", path, t, 2), 1));
    expect_the_two_launches(&t[0]);
    unlink(path);
}

Test(profile, missing_metrics_are_not_available_and_no_kernel_is_an_error)
{
    char path[64];
    tool_write_temp(path, RAW_HEADER "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n"
                          "\"0\",\"7\",\"p\",\"h\",\"k()\",\"1\",\"13\",\"(1, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\","
                          "\"n/a\",\"5\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n");
    totals t[1];
    cr_assert(eq(int, summarize("v", path, t, 1), 1));
    cr_expect(ieee_ulp_eq(dbl, t[0].time_ns, 5.0, 4));
    cr_expect(isnan(t[0].dram) && isnan(t[0].occupancy) && isnan(t[0].bank_ld) && isnan(t[0].inst));
    cr_expect(eq(str, t[0].stall_reason, "n/a"));

    char empty[64];
    tool_write_temp(empty, RAW_HEADER);
    int status;
    char *out = tool_run(&status, "awk -f %s/tools/ncu_summary.awk %s", kit_test_root(), empty);
    cr_expect(eq(int, status, 2), "%s", out);
    cr_expect(strstr(out, "no kernel was profiled") != NULL, "%s", out);
    unlink(path);
    unlink(empty);
}

/* ---- the committed sample: make profile LAB=2 VARIANT=sequential on a GPU ----------- */

/* ncu_raw_lab2_*.csv: written by tools/maint/gpu-profile-capture.sh on an H100 (ncu 2025.3,
 * 2026-11-23), the raw page of `make profile LAB=2 VARIANT=sequential`: 983 columns. */
static void sample_path(char *path, size_t len, const char *variant)
{
    snprintf(path, len, "%s/tests/cpu/fixtures/ncu_raw_lab2_%s.csv", kit_test_root(), variant);
}

/* An independent reader of the raw page: split quoted fields, find the columns by
 * name, sum the time (any second unit) and the counters over the launches. */
static int split_csv(const char *p, char *out, char **field, int max)
{
    int n = 0;
    while (n < max && *p && *p != '\n' && *p != '\r') {
        field[n++] = out;
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"')
                    p++; /* a doubled quote stands for one */
                *out++ = *p;
            }
            if (*p == '"')
                p++;
        } else {
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                *out++ = *p++;
        }
        *out++ = '\0';
        if (*p != ',')
            break;
        p++;
    }
    return n;
}

static double plain_number(const char *s)
{
    char digits[64];
    size_t k = 0;
    for (; *s && k < sizeof digits - 1; s++)
        if (*s != ',')
            digits[k++] = *s;
    digits[k] = '\0';
    return atof(digits);
}

static void read_sample(const char *path, totals *t)
{
    FILE *f = fopen(path, "r");
    cr_assert(not(eq(ptr, f, NULL)), "cannot open %s", path);
    static char line[1 << 16], copy[1 << 16];
    char *field[2048];
    int col_id = -1, col_time = -1, col_ld = -1, col_st = -1, col_inst = -1;
    double time_scale = 1;
    memset(t, 0, sizeof *t);
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '"')
            continue;
        int n = split_csv(line, copy, field, 2048);
        if (col_id < 0) {
            for (int i = 0; i < n; i++) {
                if (!strcmp(field[i], "ID")) col_id = i;
                if (!strcmp(field[i], "gpu__time_duration.sum")) col_time = i;
                if (!strcmp(field[i], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")) col_ld = i;
                if (!strcmp(field[i], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")) col_st = i;
                if (!strcmp(field[i], "smsp__inst_executed.sum")) col_inst = i;
            }
            continue;
        }
        if (!field[col_id][0]) { /* the units row */
            const char *u = field[col_time];
            time_scale = !strcmp(u, "usecond") ? 1e3 : !strcmp(u, "msecond") ? 1e6 : !strcmp(u, "second") ? 1e9 : 1;
            continue;
        }
        t->kernels++;
        t->time_ns += plain_number(field[col_time]) * time_scale;
        t->bank_ld += plain_number(field[col_ld]);
        t->bank_st += plain_number(field[col_st]);
        t->inst += plain_number(field[col_inst]);
    }
    fclose(f);
    cr_assert(ge(int, col_time, 0), "%s: no gpu__time_duration.sum column", path);
    cr_assert(ge(int, col_ld, 0), "%s: no bank-conflict column", path);
}

static int close_to(double got, double want) { return fabs(got - want) <= 1e-6 * fabs(want) + 0.5; }

Test(profile, committed_lab2_sample)
{
    char prev[4200], next[4200], files[8500];
    sample_path(prev, sizeof prev, "strided-index");
    sample_path(next, sizeof next, "sequential");
    snprintf(files, sizeof files, "%s %s", prev, next);
    totals got[2], want[2];
    cr_assert(eq(int, summarize("strided-index sequential", files, got, 2), 2));
    read_sample(prev, &want[0]);
    read_sample(next, &want[1]);
    for (int v = 0; v < 2; v++) {
        cr_expect(gt(int, got[v].kernels, 0));
        cr_expect(eq(int, got[v].kernels, want[v].kernels), "%s", got[v].label);
        cr_expect(close_to(got[v].time_ns, want[v].time_ns), "%s time %f vs %f", got[v].label, got[v].time_ns,
                  want[v].time_ns);
        cr_expect(close_to(got[v].bank_ld, want[v].bank_ld), "%s", got[v].label);
        cr_expect(close_to(got[v].bank_st, want[v].bank_st), "%s", got[v].label);
        cr_expect(close_to(got[v].inst, want[v].inst), "%s", got[v].label);
        cr_expect(not(isnan(got[v].occupancy)), "%s: no achieved occupancy", got[v].label);
        cr_expect(ne(str, got[v].stall_reason, "n/a"), "%s: no stall reason", got[v].label);
    }
    /* What lecture 2 says the step fixes: sequential addressing removes the bank conflicts. */
    cr_expect(lt(dbl, got[1].bank_ld * 10, got[0].bank_ld), "sequential %f vs strided-index %f", got[1].bank_ld,
              got[0].bank_ld);
}
