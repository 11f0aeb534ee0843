/* CPU suite for `make labs`: a marked solution file becomes the expected starter,
 * and malformed markers are refused. */
#include "kit_test.h"

#include <stdlib.h>
#include <string.h>

static char *run_tool(const char *fixture, int *status)
{
    char cmd[9000];
    const char *root = kit_test_root();
    snprintf(cmd, sizeof cmd, "bash %s/tools/mklabs.sh --file %s/tests/cpu/fixtures/%s 2>&1",
             root, root, fixture);
    FILE *p = popen(cmd, "r");
    cr_assert(not(eq(ptr, p, NULL)));
    static char out[8192];
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = '\0';
    *status = pclose(p);
    return out;
}

static char *read_file(const char *name)
{
    char path[4400];
    snprintf(path, sizeof path, "%s/tests/cpu/fixtures/%s", kit_test_root(), name);
    FILE *f = fopen(path, "r");
    cr_assert(not(eq(ptr, f, NULL)), "cannot open %s", path);
    static char text[8192];
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    return text;
}

Test(mklabs, marked_file_becomes_the_expected_starter)
{
    int status;
    char *got = run_tool("marked.cu", &status);
    cr_assert(eq(int, status, 0), "%s", got);
    cr_assert(eq(str, got, read_file("marked.starter.cu")));
}

Test(mklabs, malformed_markers_are_refused)
{
    const char *bad[] = { "unterminated.cu", "nested.cu", "stray_end.cu", "no_step.cu" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int status;
        char *out = run_tool(bad[i], &status);
        cr_expect(ne(int, status, 0), "%s should be refused; output: %s", bad[i], out);
    }
}
