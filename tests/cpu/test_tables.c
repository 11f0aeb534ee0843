/* CPU suite for tools/tables.py: a results table in a document is generated from
 * its CSV, and `--check` (make check-tables, run in CI) fails as soon as the CSV
 * and the committed table disagree. */
#include "tool_run.h"

#include <stdio.h>

/* A scratch tree with plots/data/t.csv and doc.md holding one pivot block. */
static void make_tree(char *dir, const char *rows)
{
    strcpy(dir, "/tmp/kit_tables_XXXXXX");
    cr_assert(not(eq(ptr, mkdtemp(dir), NULL)));
    int status;
    tool_run(&status, "mkdir -p %s/plots/data", dir);
    cr_assert(eq(int, status, 0));
    char path[256];
    snprintf(path, sizeof path, "%s/plots/data/t.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert(not(eq(ptr, f, NULL)));
    fprintf(f, "# gpu=Test GPU; cuda=13.0; date=2026-01-01\nlab,variant,n,pct_of_memcpy\n%s", rows);
    fclose(f);
    snprintf(path, sizeof path, "%s/doc.md", dir);
    f = fopen(path, "w");
    cr_assert(not(eq(ptr, f, NULL)));
    fprintf(f, "# A lecture\n\n<!-- table csv=t.csv rows=variant cols=n value=pct_of_memcpy scale=0.01 fmt=%%.2f -->\n"
               "<!-- end table -->\n\nText after.\n");
    fclose(f);
}

static char *tables(int *status, const char *dir, const char *args)
{
    return tool_run(status, "cd %s && python3 %s/tools/tables.py %s doc.md", dir, kit_test_root(), args);
}

Test(tables, a_block_is_filled_from_its_csv)
{
    char dir[64];
    make_tree(dir, "lab3,fast,1024,93.5\nlab3,slow,1024,41\nlab3,fast,2048,96.25\n");
    int status;
    char *out = tables(&status, dir, "");
    cr_assert(eq(int, status, 0), "%s", out);
    out = tool_run(&status, "cat %s/doc.md", dir);
    cr_assert(not(eq(ptr, strstr(out, "| variant | 1024 | 2048 |"), NULL)), "%s", out);
    cr_assert(not(eq(ptr, strstr(out, "| fast | 0.94 | 0.96 |"), NULL)), "%s", out);
    cr_assert(not(eq(ptr, strstr(out, "| slow | 0.41 | - |"), NULL)), "%s", out);
    cr_assert(not(eq(ptr, strstr(out, "Measured on Test GPU, CUDA 13.0: "), NULL)), "%s", out);
    cr_assert(not(eq(ptr, strstr(out, "Text after."), NULL)), "%s", out);
    out = tables(&status, dir, "--check");
    cr_assert(eq(int, status, 0), "a table just generated must check clean: %s", out);
    tool_run(&status, "rm -rf %s", dir);
}

Test(tables, check_fails_when_a_csv_value_changes)
{
    char dir[64];
    make_tree(dir, "lab3,fast,1024,93.5\nlab3,slow,1024,41\n");
    int status;
    tables(&status, dir, "");
    cr_assert(eq(int, status, 0));
    tool_run(&status, "sed -i 's/,41$/,44/' %s/plots/data/t.csv", dir);
    char *out = tables(&status, dir, "--check");
    cr_assert(eq(int, status, 1), "a stale table must fail the check: %s", out);
    cr_assert(not(eq(ptr, strstr(out, "doc.md is stale"), NULL)), "%s", out);
    cr_assert(not(eq(ptr, strstr(out, "+| slow | 0.44 |"), NULL)), "the diff shows the new row: %s", out);
    tool_run(&status, "rm -rf %s", dir);
}

Test(tables, a_bad_block_is_an_error_not_a_table)
{
    char dir[64];
    make_tree(dir, "lab3,fast,1024,93.5\nlab3,fast,1024,94.5\n");
    int status;
    char *out = tables(&status, dir, "--check");
    cr_assert(eq(int, status, 2), "two rows for one cell without agg= must be refused: %s", out);
    cr_assert(not(eq(ptr, strstr(out, "2 rows match"), NULL)), "%s", out);
    tool_run(&status, "sed -i 's/t.csv/missing.csv/' %s/doc.md", dir);
    out = tables(&status, dir, "");
    cr_assert(eq(int, status, 2), "a missing CSV must be refused: %s", out);
    cr_assert(not(eq(ptr, strstr(out, "missing.csv not found"), NULL)), "%s", out);
    tool_run(&status, "rm -rf %s", dir);
}
