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

Test(speed, a_timing_the_graders_clock_contradicts_scores_zero)
{
    /* 9.1: the events leave out 0.1 ms a run on both sides (reset, flush): trusted.
     * 9.2: yours claim 1.0 ms but take 3.1 ms on the grader's clock: not trusted. */
    const char timings[] = "you 9.1 1 PASS 1.0 1.1\nref 9.1 1 PASS 1.0 1.1\n"
                           "you 9.2 1 PASS 1.0 3.1\nref 9.2 1 PASS 1.0 1.1\n";
    step_score s[2];
    int status;
    cr_assert(eq(int, score(table, timings, both_correct, s, 2, &status), 2));
    cr_expect(eq(dbl, s[0].score, 1.0), "%s", s[0].reason);
    cr_expect(eq(dbl, s[1].score, 0.0));
    cr_expect(strstr(s[1].reason, "not trusted") != NULL, "%s", s[1].reason);
}

Test(speed, a_row_for_more_gpus_than_present_is_not_run)
{
    const char timings[] = "ref 9.1 1 NEEDS_2_GPUS -\nyou 9.2 1 PASS 1.0\nref 9.2 1 PASS 1.0\n";
    step_score s[2];
    int status;
    cr_assert(eq(int, score(table, timings, both_correct, s, 2, &status), 2));
    cr_expect(isnan(s[0].score), "not run, so not scored");
    cr_expect(strstr(s[0].reason, "needs 2 GPUs") != NULL, "%s", s[0].reason);
    cr_expect(eq(dbl, s[1].score, 1.0));
}

/* ---- tools/speed.sh: the race of two stand-in drivers -------------------------------- */

/* speed.sh run on the stand-in table with fake drivers (tests/cpu/fixtures/grade/
 * fake_speed.sh): the reference takes 1 ms a run; yours `yours_ms` and reports
 * `lie_ms` (NULL: what it measured), in its first race only when `once`. Returns
 * speed.tsv, then what speed.sh said. */
static char *race(const char *yours_ms, const char *lie_ms, int once, int *status)
{
    return tool_run(status,
                    "cd %s && d=$(mktemp -d) && sed 's/^SIDE=.*/SIDE=%s/; s/^LIE=.*/LIE=%s/'\"%s\" "
                    "tests/cpu/fixtures/grade/fake_speed.sh >$d/yours && cp tests/cpu/fixtures/grade/fake_speed.sh $d/ref && "
                    "chmod +x $d/yours $d/ref && SPEED_REPS=20 SPEED_ROUNDS=3 bash tools/speed.sh run "
                    "tests/cpu/fixtures/grade/lab9-standin/speed.cfg $d/yours $d/ref $d/out 2>$d/said && "
                    "cat $d/out/speed.tsv $d/said; rm -rf $d",
                    kit_test_root(), yours_ms, lie_ms ? lie_ms : "", once ? "; s|^ONCE=.*|ONCE=$d/lied|" : "");
}

Test(speed, the_race_scores_the_drivers_by_their_times)
{
    int status;
    char *out = race("1.0", NULL, 0, &status);
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "9.1\tdouble\tlab9_v1\t1.2\t2.5\t") != NULL, "%s", out);
    cr_expect(strstr(out, "\t1.0000\t") != NULL, "as fast as the reference: full marks: %s", out);
    out = race("4.0", NULL, 0, &status);
    cr_expect(strstr(out, "\t0.0000\t") != NULL, "over 2.5 times slower: zero: %s", out);
}

Test(speed, a_driver_that_reports_a_forged_time_scores_zero)
{
    int status;
    char *out = race("3.0", "0.5", 0, &status);
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "not trusted") != NULL, "%s", out);
    cr_expect(strstr(out, "\t1.0000\t") == NULL, "%s", out);
}

/* A clock that contradicts the events once (here: the first race of row 9.1 lies)
 * costs nothing: the row is raced once more, and the second race counts. The forged
 * driver above lies in both races and still scores zero. */
Test(speed, a_one_off_contradiction_is_raced_again)
{
    int status;
    char *out = race("1.0", "0.2", 1, &status);
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "step 9.1: the grader's clock contradicts your driver's events; racing once more") != NULL,
              "%s", out);
    cr_expect(strstr(out, "step 9.2: the grader's clock") == NULL, "%s", out);
    cr_expect(strstr(out, "not trusted") == NULL, "%s", out);
    cr_expect(strstr(out, "9.1\tdouble\tlab9_v1\t1.2\t2.5\t") != NULL, "%s", out);
}
