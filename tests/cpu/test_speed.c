/* CPU suite for the speed score of make grade: the arithmetic (tools/speed.awk:
 * medians, prorating between the two factors, a wrong result, a missing variant,
 * a broken reference, the correctness gate) and the whole of tools/speed.sh with
 * stand-in drivers (rows found by column name, the TAP / JSON / XML reports). */
#include "tool_run.h"

#include <math.h>

static const char table[] = "# step row suite full zero flags\n"
                            "9.1 fast lab9_v1 1.2 2.5\n"
                            "9.2 slow lab9_v2 1.2 2.5\n";

/* The score the table promises for a ratio: 1 up to full, 0 from zero, linear between. */
static double promised(double ratio, double full, double zero)
{
    if (ratio <= full)
        return 1;
    if (ratio >= zero)
        return 0;
    return (zero - ratio) / (zero - full);
}

typedef struct {
    char step[128], reason[128];
    double you_ms, ref_ms, ratio, score; /* NAN for "-" / "n/a" */
} step_score;

/* speed.awk in tsv mode over a table, timings and correctness; returns the steps. */
static int score(const char *cfg, const char *timings, const char *correct, step_score *out, int max, int *status)
{
    char cfg_path[64], timings_path[64], correct_path[64];
    tool_write_temp(cfg_path, cfg);
    tool_write_temp(timings_path, timings);
    tool_write_temp(correct_path, correct);
    char *text = tool_run(status, "awk -v gate=1 -v mode=tsv -f %s/tools/speed.awk %s %s %s", kit_test_root(),
                          cfg_path, timings_path, correct_path);
    unlink(cfg_path);
    unlink(timings_path);
    unlink(correct_path);
    int n = 0;
    for (char *line = strtok(text, "\n"); line && n < max; line = strtok(NULL, "\n")) {
        char f[10][128];
        if (sscanf(line, "%127[^\t]\t%127[^\t]\t%127[^\t]\t%127[^\t]\t%127[^\t]\t%127[^\t]\t%127[^\t]\t%127[^\t]\t%127[^\t]\t%127[^\n]",
                   f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]) != 10)
            continue;
        step_score *s = &out[n++];
        snprintf(s->step, sizeof s->step, "%s", f[0]);
        s->you_ms = strcmp(f[5], "-") ? atof(f[5]) : NAN;
        s->ref_ms = strcmp(f[6], "-") ? atof(f[6]) : NAN;
        s->ratio = strcmp(f[7], "-") ? atof(f[7]) : NAN;
        s->score = strcmp(f[8], "n/a") ? atof(f[8]) : NAN;
        snprintf(s->reason, sizeof s->reason, "%s", f[9]);
    }
    return n;
}

static const char both_correct[] = "lab9_v1 pass\nlab9_v2 pass\n";

Test(speed, medians_and_prorating)
{
    /* fast: yours 1.0, 1.1, 9.0 (median 1.1) vs 1.0, 0.9, 1.2 (median 1.0): within full.
     * slow: yours 2.0 three times vs 1.0: between the factors. */
    const char timings[] = "you 9.1 1 PASS 1.0\nref 9.1 1 PASS 1.0\nref 9.1 2 PASS 0.9\nyou 9.1 2 PASS 1.1\n"
                           "you 9.1 3 PASS 9.0\nref 9.1 3 PASS 1.2\n"
                           "you 9.2 1 PASS 2.0\nref 9.2 1 PASS 1.0\nref 9.2 2 PASS 1.0\nyou 9.2 2 PASS 2.0\n"
                           "you 9.2 3 PASS 2.0\nref 9.2 3 PASS 1.0\n";
    step_score s[4];
    int status;
    cr_assert(eq(int, score(table, timings, both_correct, s, 4, &status), 2));
    cr_assert(eq(int, status, 0));
    cr_expect(lt(dbl, fabs(s[0].you_ms - 1.1), 1e-9), "median of yours: %f", s[0].you_ms);
    cr_expect(lt(dbl, fabs(s[0].ref_ms - 1.0), 1e-9), "median of the reference's: %f", s[0].ref_ms);
    cr_expect(lt(dbl, fabs(s[0].score - promised(1.1, 1.2, 2.5)), 1e-4));
    cr_expect(lt(dbl, fabs(s[1].ratio - 2.0), 1e-3));
    cr_expect(lt(dbl, fabs(s[1].score - promised(2.0, 1.2, 2.5)), 1e-4), "score %f", s[1].score);
}

Test(speed, the_factors_are_inclusive_and_beyond_zero_scores_nothing)
{
    const double ratios[] = { 1.0, 1.2, 1.21, 1.85, 2.49, 2.5, 7.0 };
    for (size_t i = 0; i < sizeof ratios / sizeof ratios[0]; i++) {
        char timings[256];
        snprintf(timings, sizeof timings, "you 9.1 1 PASS %.4f\nref 9.1 1 PASS 1.0\nyou 9.2 1 PASS 1\nref 9.2 1 PASS 1\n",
                 ratios[i]);
        step_score s[2];
        int status;
        cr_assert(eq(int, score(table, timings, both_correct, s, 2, &status), 2));
        cr_expect(lt(dbl, fabs(s[0].score - promised(ratios[i], 1.2, 2.5)), 1e-4), "ratio %.2f: score %f",
                  ratios[i], s[0].score);
    }
}

Test(speed, a_wrong_result_scores_zero_even_when_fast)
{
    const char timings[] = "you 9.1 1 PASS 0.5\nref 9.1 1 PASS 1.0\nyou 9.1 2 FAIL -\nref 9.1 2 PASS 1.0\n"
                           "you 9.2 1 TODO -\nref 9.2 1 PASS 1.0\n";
    step_score s[2];
    int status;
    cr_assert(eq(int, score(table, timings, both_correct, s, 2, &status), 2));
    cr_expect(eq(dbl, s[0].score, 0.0));
    cr_expect(strstr(s[0].reason, "wrong result") != NULL, "%s", s[0].reason);
    cr_expect(eq(dbl, s[1].score, 0.0));
    cr_expect(strstr(s[1].reason, "TODO") != NULL, "%s", s[1].reason);
}

Test(speed, a_missing_variant_scores_zero)
{
    /* 9.1: the student's driver has no such row; 9.2: never timed at all. */
    const char timings[] = "you 9.1 1 MISSING -\nref 9.1 1 PASS 1.0\nref 9.2 1 PASS 1.0\n";
    step_score s[2];
    int status;
    cr_assert(eq(int, score(table, timings, both_correct, s, 2, &status), 2));
    cr_expect(eq(dbl, s[0].score, 0.0));
    cr_expect(strstr(s[0].reason, "no such row") != NULL, "%s", s[0].reason);
    cr_expect(eq(dbl, s[1].score, 0.0));
    cr_expect(strstr(s[1].reason, "not timed") != NULL, "%s", s[1].reason);
}

Test(speed, failed_correctness_tests_score_zero_and_a_broken_reference_is_unscored)
{
    const char timings[] = "you 9.1 1 PASS 1.0\nref 9.1 1 PASS 1.0\nyou 9.2 1 PASS 1.0\nref 9.2 1 ERROR -\n";
    step_score s[2];
    int status;
    cr_assert(eq(int, score(table, timings, "lab9_v1 fail\nlab9_v2 pass\n", s, 2, &status), 2));
    cr_expect(eq(dbl, s[0].score, 0.0));
    cr_expect(strstr(s[0].reason, "correctness tests failed") != NULL, "%s", s[0].reason);
    cr_expect(isnan(s[1].score), "a step without a reference time is not scored");
    cr_expect(strstr(s[1].reason, "reference") != NULL, "%s", s[1].reason);
}

Test(speed, a_malformed_table_is_refused)
{
    const char *bad[] = { "9.1 fast lab9_v1 2.5 1.2\n", "9.1 fast lab9_v1 0.5 2\n", "9.1 fast lab9_v1 x 2\n",
                          "9.1 fast lab9_v1\n", "9.1 a s 1.2 2\n9.1 b s 1.2 2\n" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        step_score s[2];
        int status;
        score(bad[i], "", "", s, 2, &status);
        cr_expect(eq(int, status, 2), "table %zu was accepted: %s", i, bad[i]);
    }
}

/* ---- tools/speed.sh with stand-in drivers ------------------------------------------ */

/* Make a stand-in driver DIR/NAME whose rows are `rows` (tests/cpu/fixtures/fake_driver.sh). */
static void fake_driver(const char *dir, const char *name, const char *rows)
{
    char path[256], rows_path[300];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(rows_path, sizeof rows_path, "%s.rows", path);
    FILE *f = fopen(rows_path, "w");
    cr_assert(not(eq(ptr, f, NULL)));
    fputs(rows, f);
    fclose(f);
    char target[4200];
    snprintf(target, sizeof target, "%s/tests/cpu/fixtures/fake_driver.sh", kit_test_root());
    cr_assert(eq(int, symlink(target, path), 0));
}

/* Run speed.sh grade in `format` on a correctness report, the student's driver having
 * the rows `you_rows`; returns its output. */
static char *grade_speed_rows(const char *you_rows, const char *format, const char *report, int *status)
{
    static char dir[] = "/tmp/kit_speed_XXXXXX";
    strcpy(dir, "/tmp/kit_speed_XXXXXX");
    cr_assert(not(eq(ptr, mkdtemp(dir), NULL)));
    fake_driver(dir, "you", you_rows);
    fake_driver(dir, "ref", "fast 1.0 PASS\nslow 1.0 PASS\n");
    char cfg[64], rep[64];
    tool_write_temp(cfg, table);
    tool_write_temp(rep, report);
    char *out = tool_run(status, "cd %s && SPEED_RUNS=1 SPEED_TABLE=%s bash tools/speed.sh grade 9 %s %s/you %s/ref %s 2>/dev/null; "
                                 "rm -rf %s %s %s", kit_test_root(), cfg, format, dir, dir, rep, dir, cfg, rep);
    return out;
}

static char *grade_speed(const char *format, const char *report, int *status)
{
    return grade_speed_rows("fast 1.0 PASS\nslow 2.0 PASS\n", format, report, status);
}

Test(speed, score_table_from_real_runs)
{
    int status;
    char *out = grade_speed("score", "ok - lab9_v1::a\nok - lab9_v2::a\n", &status);
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "100.0%") != NULL, "%s", out);
    char slow[32];
    snprintf(slow, sizeof slow, "%.1f%%", 100 * promised(2.0, 1.2, 2.5));
    cr_expect(strstr(out, slow) != NULL, "expected %s in %s", slow, out);
}

Test(speed, tap_report_gains_a_speed_suite_and_its_plan_counts_it)
{
    int status;
    char *out = grade_speed("tap", "TAP version 13\n1..2\nok - lab9_v1::a\nnot ok - lab9_v2::a\n", &status);
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "\n1..4\n") != NULL, "%s", out);
    cr_expect(strstr(out, "ok - lab9_speed::step_9.1 speed 100.0%") != NULL, "%s", out);
    /* lab9_v2's correctness test failed: no speed marks for step 9.2 */
    cr_expect(strstr(out, "not ok - lab9_speed::step_9.2 speed 0.0%: correctness tests failed") != NULL, "%s", out);
    cr_expect(strstr(out, "  score: 1.0000\n") != NULL, "%s", out);
}

Test(speed, json_and_xml_reports_carry_the_scores)
{
    int status;
    char *json = grade_speed("json",
                             "{\n  \"id\": \"Criterion v2.4.1\",\n  \"passed\": 2,\n  \"failed\": 0,\n  \"errored\": 0,\n"
                             "  \"skipped\": 0,\n  \"test_suites\": [\n    {\n      \"name\": \"lab9_v1\",\n"
                             "      \"passed\": 1,\n      \"failed\": 0,\n      \"errored\": 0,\n      \"skipped\": 0,\n"
                             "      \"tests\": [\n      ]\n    },\n    {\n      \"name\": \"lab9_v2\",\n"
                             "      \"passed\": 1,\n      \"failed\": 0,\n      \"errored\": 0,\n      \"skipped\": 0,\n"
                             "      \"tests\": [\n      ]\n    }\n  ]\n}\n",
                             &status);
    cr_assert(eq(int, status, 0), "%s", json);
    cr_expect(strstr(json, "  \"passed\": 4,") != NULL, "both speed tests pass (score > 0): %s", json);
    cr_expect(strstr(json, "\"name\": \"lab9_speed\"") != NULL, "%s", json);
    cr_expect(strstr(json, "\"score\": 1.0000,") != NULL, "%s", json);
    cr_expect(strstr(json, "    },\n    {\n      \"name\": \"lab9_speed\"") != NULL, "a comma between suites: %s", json);

    char *xml = grade_speed("xml",
                            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"Criterion Tests\" tests=\"2\" "
                            "failures=\"0\" errors=\"0\" disabled=\"0\">\n  <testsuite name=\"lab9_v1\" tests=\"1\" "
                            "failures=\"0\" errors=\"0\" disabled=\"0\" skipped=\"0\" time=\"0\">\n  </testsuite>\n"
                            "  <testsuite name=\"lab9_v2\" tests=\"1\" failures=\"0\" errors=\"0\" disabled=\"0\" "
                            "skipped=\"0\" time=\"0\">\n  </testsuite>\n</testsuites>\n",
                            &status);
    cr_assert(eq(int, status, 0), "%s", xml);
    cr_expect(strstr(xml, "tests=\"4\" failures=\"0\"") != NULL, "%s", xml);
    cr_expect(strstr(xml, "<testsuite name=\"lab9_speed\" tests=\"2\"") != NULL, "%s", xml);
    cr_expect(strstr(xml, "<property name=\"score\" value=\"1.0000\"/>") != NULL, "%s", xml);
}

/* A slow row that the driver's --budget cut short ("PASS (budget: 3 of 20 runs)", as
 * lab 1's cas-loop at the default size) is correct and timed: it scores on its time. */
Test(speed, a_row_cut_short_by_the_budget_is_still_timed)
{
    int status;
    char *out = grade_speed_rows("fast 1.0 PASS (budget: 3 of 20 runs)\nslow 2.0 PASS\n", "score",
                                 "ok - lab9_v1::a\nok - lab9_v2::a\n", &status);
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "no such row") == NULL, "%s", out);
    cr_expect(strstr(out, "did not run cleanly") == NULL, "%s", out);
    cr_expect(strstr(out, "1.00x") != NULL, "step 9.1 timed at the reference's time: %s", out);
}
