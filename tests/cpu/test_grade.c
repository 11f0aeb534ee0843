/* CPU suite for the grader's scoring (tools/tap.awk + tools/grade.awk): a skipped test is "not run",
 * never a pass; a suite whose tests were all skipped does not score 100%. */
#include "kit_test.h"
#include "tool_run.h"

/* Score a TAP text as `make grade LAB=9` would, with lab9_select as a step's suite
 * (as lab3_select is Step 3.6's); returns the grader's output. */
static char *score(const char *tap)
{
    char tap_path[] = "/tmp/kit_grade_XXXXXX";
    int fd = mkstemp(tap_path);
    cr_assert(ge(int, fd, 0));
    cr_assert(eq(sz, (size_t)write(fd, tap, strlen(tap)), strlen(tap)));
    close(fd);
    char cmd[8400];
    snprintf(cmd, sizeof cmd, "awk -v lab=lab9 -v steps=lab9_select -f %s/tools/tap.awk -f %s/tools/grade.awk %s 2>&1", kit_test_root(),
             kit_test_root(), tap_path);
    FILE *p = popen(cmd, "r");
    cr_assert(not(eq(ptr, p, NULL)));
    static char out[4096];
    size_t len = fread(out, 1, sizeof out - 1, p);
    out[len] = '\0';
    cr_assert(eq(int, pclose(p), 0), "%s", out);
    unlink(tap_path);
    return out;
}

Test(grade, a_skip_is_not_a_pass)
{
    char *out = score("ok - lab9_v1::sizes  (0.01s)\n"
                      "ok - lab9_v1::huge  # SKIP needs 20 GiB of device memory\n");
    cr_assert(strstr(out, "lab9_v1      1/1   100.0%") != NULL, "%s", out);
    cr_assert(strstr(out, "1 not run (needs 20 GiB of device memory)") != NULL, "%s", out);
    cr_assert(strstr(out, "2/2") == NULL, "a skip was counted: %s", out);
}

Test(grade, a_suite_of_skips_does_not_score)
{
    char *out = score("ok - lab9_v1::sizes  (0.01s)\n"
                      "ok - lab9_v2::sizes  # SKIP GPU too small\n"
                      "ok - lab9_v2::sizes  # SKIP GPU too small\n");
    cr_assert(strstr(out, "lab9_v2    not run: all 2 tests skipped (GPU too small)") != NULL, "%s", out);
    cr_assert(strstr(out, "total        1/1   100.0%   (2 tests not run: not counted)") != NULL, "%s", out);
}

Test(grade, failures_count_and_other_labs_are_ignored)
{
    char *out = score("ok - lab9_v1::sizes  (0.01s)\n"
                      "not ok - lab9_v1::sizes  (0.01s)\n"
                      "ok - lab8_v1::sizes  (0.01s)\n"
                      "ok - lab9_table::count  (0.01s)\n");
    cr_assert(strstr(out, "lab9_v1      1/2    50.0%") != NULL, "%s", out);
    cr_assert(strstr(out, "lab8") == NULL, "%s", out);
    cr_assert(strstr(out, "total        1/2    50.0%") != NULL, "%s", out);
}

Test(grade, nothing_run_gives_no_score)
{
    char *out = score("ok - lab9_v1::sizes  # SKIP no GPU\n");
    cr_assert(strstr(out, "no test ran (1 skipped): no score") != NULL, "%s", out);
    cr_assert(strstr(out, "%") == NULL, "%s", out);
}

/* --filter marks the tests it leaves out "# SKIP test was skipped": not selected,
 * so neither run nor "not run". */
Test(grade, tests_left_out_by_a_filter_are_ignored)
{
    char *out = score("ok - lab9_v1::sizes  (0.01s)\n"
                      "ok - lab9_v2::sizes  # SKIP test was skipped\n");
    cr_assert(strstr(out, "lab9_v2") == NULL, "%s", out);
    cr_assert(strstr(out, "not run") == NULL, "%s", out);
    cr_assert(strstr(out, "total        1/1   100.0%") != NULL, "%s", out);
}

Test(grade, a_step_suite_outside_the_variants_is_scored)
{
    char *out = score("ok - lab9_v1::sizes  (0.01s)\n"
                      "not ok - lab9_select::keep_rates  (0.01s)\n"
                      "ok - lab9_cub_select::sizes  (0.01s)\n");
    cr_assert(strstr(out, "lab9_select   0/1     0.0%") != NULL, "%s", out);
    cr_assert(strstr(out, "total        1/2    50.0%") != NULL, "%s", out);
    cr_assert(strstr(out, "lab9_cub_select") == NULL, "the library's suite is not the student's: %s", out);
}

/* tools/grade.sh on a stand-in suite (tests/cpu/fixtures/fake_suite.sh): without a GPU
 * every format refuses with exit status 2, so that no report of skips can be imported
 * as a pass; with the tests run, the machine-readable report comes out whole. */
static char *grade_fake(const char *suite, const char *format, int *status)
{
    return tool_run(status, "cd %s && FAKE_SUITE=%s SPEED_REFERENCE= bash tools/grade.sh tests/cpu/fixtures/fake_suite.sh 9 %s",
                    kit_test_root(), suite, format);
}

Test(grade, without_a_gpu_every_format_refuses)
{
    const char *formats[] = { "score", "tap", "json", "xml" };
    for (int i = 0; i < 4; i++) {
        int status;
        char *out = grade_fake("nogpu", formats[i], &status);
        cr_expect(eq(int, status, 2), "%s: %s", formats[i], out);
        cr_expect(strstr(out, "lab 9 needs a GPU to be graded") != NULL, "%s: %s", formats[i], out);
        cr_expect(strstr(out, "\"skipped\"") == NULL && strstr(out, "<testsuites") == NULL &&
                      strstr(out, "# SKIP") == NULL,
                  "%s: a report of skips came out: %s", formats[i], out);
    }
}

Test(grade, with_the_tests_run_the_report_comes_out)
{
    int status;
    char *out = grade_fake("ran", "json", &status);
    cr_expect(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "\"passed\": 2,") != NULL, "%s", out);
    out = grade_fake("ran", "tap", &status);
    cr_expect(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "ok - lab9_v1::huge") != NULL, "%s", out);
}
