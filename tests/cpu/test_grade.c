/* CPU suite for the grader (make grade-submission, make grade): the steps of
 * tools/grade/submission.sh run on a stand-in lab (tests/cpu/fixtures/grade/:
 * lab9-standin and standin.sh), whose "device" is host memory, so that everything
 * but the GPU and nvcc is exercised here: the manifest, the files that are ignored,
 * the build rounds, contained workers, the judges' replay, and the reports. The
 * stand-in's Step 9.1 has 4 cases (n = 0, 1, 5, 1000), its Step 9.2 too; 25% of the
 * grade is speed (left out unless a test asks for it). */
#include "kit_test.h"
#include "tool_run.h"

#include <sys/stat.h>

#define FIXTURES "tests/cpu/fixtures/grade"

/* The temporary folders a test makes, removed when its worker process ends. */
static char temp_dirs[8][64];
static int temp_dir_count;
static void remove_temp_dirs(void)
{
    for (int i = 0; i < temp_dir_count; i++) {
        char cmd[sizeof temp_dirs + 16]; /* (the compiler bounds the name by the whole array) */
        snprintf(cmd, sizeof cmd, "rm -rf %s", temp_dirs[i]);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", temp_dirs[i]);
    }
}

/* mkdtemp(path), the folder removed at exit. */
static void make_temp_dir(char *path)
{
    cr_assert(not(eq(ptr, mkdtemp(path), NULL)), "mkdtemp %s", path);
    cr_assert(lt(int, temp_dir_count, 8), "too many temporary folders in one test");
    if (temp_dir_count == 0)
        atexit(remove_temp_dirs);
    snprintf(temp_dirs[temp_dir_count++], sizeof temp_dirs[0], "%s", path);
}

/* The instructor's tree has solutions/; a student copy does not. */
static int instructor_tree(void)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/solutions", kit_test_root());
    return access(path, F_OK) == 0;
}

/* A submission folder in a fresh temporary place: the stand-in's solution files
 * (a right submission), then `file` (in the submission's tree at `as`) from
 * FIXTURES/submissions/ on top, if given. Returns the folder (static). */
static const char *submission(const char *file, const char *as)
{
    static char dir[64];
    strcpy(dir, "/tmp/kit_sub_XXXXXX");
    make_temp_dir(dir);
    chmod(dir, 0755); /* a grade as another user reads it */
    int status;
    char *out = tool_run(&status, "cd %s && cp " FIXTURES "/lab9-standin/v1_double.c " FIXTURES "/lab9-standin/v2_odd.c %s/",
                         kit_test_root(), dir);
    cr_assert(eq(int, status, 0), "%s", out);
    if (file) {
        out = tool_run(&status, "cd %s && mkdir -p $(dirname %s/%s) && cp " FIXTURES "/submissions/%s %s/%s",
                       kit_test_root(), dir, as, file, dir, as);
        cr_assert(eq(int, status, 0), "%s", out);
    }
    return dir;
}

/* Grade a submission of the stand-in; `env` goes before the command (e.g.
 * "GRADE_CASE_LIMIT=2"). Returns the summary and the reports' folder (static). */
static char reports[64];
static char *grade(const char *sub, const char *env, int *status)
{
    strcpy(reports, "/tmp/kit_reports_XXXXXX");
    make_temp_dir(reports);
    chmod(reports, 0777);
    return tool_run(status, "cd %s && %s bash " FIXTURES "/standin.sh %s %s/out 2>/dev/null", kit_test_root(), env, sub,
                    reports);
}

/* A report of the last grade (a fresh copy: free it, or let the test's process end). */
static char *report(const char *name)
{
    char text[65536];
    char path[256];
    snprintf(path, sizeof path, "%s/out/%s", reports, name);
    FILE *f = fopen(path, "r");
    cr_assert(not(eq(ptr, f, NULL)), "no %s", path);
    size_t len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    return strdup(text);
}

/* The summary's line of a step: "9.1    lab9_v1   2/4   50.0% ...". */
static void expect_step(const char *summary, const char *step, const char *cases)
{
    char want[128];
    snprintf(want, sizeof want, "%s    lab9_v%c ", step, step[2]);
    const char *line = strstr(summary, want);
    cr_assert(not(eq(ptr, (void *)line, NULL)), "no line for step %s in\n%s", step, summary);
    const char *end = strchr(line, '\n');
    char text[256];
    snprintf(text, sizeof text, "%.*s", (int)(end ? end - line : 200), line);
    cr_expect(strstr(text, cases) != NULL, "step %s: want %s cases, got: %s", step, cases, text);
}

static const char *total_of(const char *summary)
{
    static char total[64];
    const char *t = strstr(summary, "total");
    cr_assert(not(eq(ptr, (void *)t, NULL)), "%s", summary);
    sscanf(t, "total %63[0-9.]", total);
    return total;
}

Test(grade_submission, a_right_submission_scores_everything)
{
    int status;
    char *out = grade(submission(NULL, NULL), "", &status);
    cr_assert(eq(int, status, 0), "%s", out);
    expect_step(out, "9.1", "4/4");
    expect_step(out, "9.2", "4/4");
    cr_expect(eq(str, (char *)total_of(out), "100.00"), "%s", out);
}

Test(grade_submission, the_untouched_starter_scores_nothing)
{
    int status;
    char dir[] = "/tmp/kit_empty_XXXXXX";
    make_temp_dir(dir);
    char *out = grade(dir, "", &status);
    cr_assert(eq(int, status, 0), "%s", out);
    expect_step(out, "9.1", "1/4"); /* the starter's own code passes the empty input... */
    expect_step(out, "9.1", " 0.0%");  /* ...and the unfinished step still scores nothing */
    expect_step(out, "9.2", "0/4");
    cr_expect(eq(str, (char *)total_of(out), "0.00"), "%s", out);
    cr_expect(strstr(out, "9.1 is not finished: a case answered TODO") != NULL, "%s", out);
    cr_expect(strstr(out, "Step 9.1 is not implemented yet (TODO)") != NULL, "%s", out);
    cr_expect(strstr(out, "the starter's, its steps score 0") != NULL, "%s", out);
}

Test(grade_submission, a_wrong_step_fails_its_own_cases_only)
{
    int status;
    char *out = grade(submission("wrong/v1_double.c", "v1_double.c"), "", &status);
    cr_assert(eq(int, status, 0), "%s", out);
    expect_step(out, "9.1", "2/4");
    expect_step(out, "9.2", "4/4");
    cr_expect(eq(str, (char *)total_of(out), "75.00"), "%s", out);
    cr_expect(strstr(out, "lab9_v1/sizes/n=5: n=5: wrong output") != NULL, "%s", out);
}

/* The submission writes passing TAP, JSON and verdict lines to every descriptor it
 * has and to every one it can open under /proc (its parents' too), before main and in
 * every call: it scores exactly as the same code without them. */
static void expect_forged_lines_change_nothing(const char *env)
{
    int status;
    char *wrong = grade(submission("wrong/v1_double.c", "v1_double.c"), env, &status);
    char want[64];
    snprintf(want, sizeof want, "%s", total_of(wrong));
    char *out = grade(submission("forge/v1_double.c", "v1_double.c"), env, &status);
    cr_assert(eq(int, status, 0), "%s", out);
    expect_step(out, "9.1", "2/4");
    expect_step(out, "9.2", "4/4");
    cr_expect(eq(str, (char *)total_of(out), want), "%s", out);
    cr_expect(strstr(report("results.json"), "\"score\": 75.00") != NULL, "%s", report("results.json"));
    cr_expect(strstr(report("results.tap"), "not ok 3 - lab9_v1/sizes/n=5") != NULL, "%s", report("results.tap"));
}

Test(grade_submission, forged_verdicts_change_nothing)
{
    expect_forged_lines_change_nothing("");
}

/* The same as the grader's own user, without namespaces (the fallback where the
 * system allows none): the forged lines reach the grader's descriptors, not its verdict. */
Test(grade_submission, forged_verdicts_change_nothing_as_the_same_user)
{
    if (geteuid() != 0)
        cr_skip_test("needs root, to run the whole grade as one unprivileged user");
    int status;
    tool_run(&status, "setpriv --reuid=65534 --regid=65534 --clear-groups test -r %s/tools/grade/common.sh",
             kit_test_root());
    if (status)
        cr_skip_test("user nobody cannot read this tree (%s): the grade cannot run as nobody here", kit_test_root());
    expect_forged_lines_change_nothing("setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp "
                                       "GRADE_CONTAIN_FLAGS=--no-namespace");
    cr_expect(strstr(report("summary.txt"), "the grader's own user, no namespace") != NULL, "%s", report("summary.txt"));
}

/* The submission rewrites its records (the judge's input) and plants passing verdicts
 * and reports wherever it can reach: the step scores 0, not more. */
Test(grade_submission, overwritten_records_and_reports_score_zero)
{
    int status;
    char *out = grade(submission("tamper/v1_double.c", "v1_double.c"), "", &status);
    cr_assert(eq(int, status, 0), "%s", out);
    expect_step(out, "9.1", "0/4");
    expect_step(out, "9.2", "4/4");
    cr_expect(strstr(report("results.json"), "\"score\": 50.00") != NULL, "%s", report("results.json"));
}

/* A case that hangs (killed at its time limit) or crashes costs that case alone. */
static void expect_only_n5_lost(const char *file, const char *env, const char *log_says)
{
    int status;
    char *out = grade(submission(file, "v1_double.c"), env, &status);
    cr_assert(eq(int, status, 0), "%s", out);
    expect_step(out, "9.1", "3/4");
    expect_step(out, "9.2", "4/4");
    cr_expect(strstr(out, "lab9_v1/sizes/n=5: the submission's lab9_double") != NULL, "%s", out);
    char *log = report("logs/worker-lab9_v1.log");
    cr_expect(strstr(log, log_says) != NULL, "%s", log);
}

Test(grade_submission, a_hung_case_loses_only_itself)
{
    expect_only_n5_lost("hang/v1_double.c", "GRADE_CASE_LIMIT=2", "killed at the time limit");
}

Test(grade_submission, a_crashing_case_loses_only_itself)
{
    expect_only_n5_lost("crash/v1_double.c", "", "crashed");
}

/* A whole student copy in which files other than the ones handed in were changed:
 * they are ignored and listed; a new file is "not part of the kit". */
Test(grade_submission, changes_to_other_files_are_ignored_and_listed)
{
    const char *sub = submission(NULL, NULL);
    int status;
    char *out = tool_run(&status,
                         "cd %s && mkdir -p kit/labs/lab9-standin && mv *.c kit/labs/lab9-standin/ && "
                         "cp %s/" FIXTURES "/lab9-standin/lab9.h kit/labs/lab9-standin/ && "
                         "echo '#define LAB9_TODO 0' >>kit/labs/lab9-standin/lab9.h && "
                         "printf 'all:\\n\\ttrue\\n' >kit/Makefile && echo notes >kit/notes.txt && "
                         "mkdir -p kit/build && echo x >kit/build/junk.o",
                         sub, kit_test_root());
    cr_assert(eq(int, status, 0), "%s", out);
    out = grade(sub, "", &status);
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(eq(str, (char *)total_of(out), "100.00"), "the changed header is not used: %s", out);
    cr_expect(strstr(out, "ignored: kit/labs/lab9-standin/lab9.h\tchanged, but students do not hand it in") != NULL, "%s", out);
    cr_expect(strstr(out, "ignored: kit/Makefile\tchanged") != NULL, "%s", out);
    cr_expect(strstr(out, "ignored: kit/notes.txt\tnot part of the kit") != NULL, "%s", out);
    cr_expect(strstr(out, "junk.o") == NULL, "build outputs are not listed: %s", out);
    cr_expect(strstr(out, "handed in: v1_double.c\tfrom kit/labs/lab9-standin/v1_double.c") != NULL, "%s", out);
}

/* A file that cannot be used is replaced by its starter (its step scores 0) and the
 * report says why: it does not compile, it includes a file outside the submission,
 * it carries a compiled program, or it leaves out what the lab calls (as a file that
 * counted on the reference objects of an old student copy would). */
static void expect_replaced(const char *text, const char *why)
{
    const char *sub = submission(NULL, NULL);
    char path[128];
    snprintf(path, sizeof path, "%s/v1_double.c", sub);
    FILE *f = fopen(path, "w");
    cr_assert(not(eq(ptr, f, NULL)));
    fputs(text, f);
    fclose(f);
    int status;
    char *out = grade(sub, "", &status);
    cr_assert(eq(int, status, 0), "%s", out);
    expect_step(out, "9.1", "1/4"); /* the starter's: the empty input passes, the step scores 0 */
    expect_step(out, "9.2", "4/4");
    cr_expect(eq(str, (char *)total_of(out), "50.00"), "%s", out);
    cr_expect(strstr(out, why) != NULL, "want \"%s\" in:\n%s", why, out);
}

Test(grade_submission, a_file_that_does_not_compile_is_replaced)
{
    expect_replaced("int lab9_double(const lab9_io *io) { return oops; }\n", "v1_double.c\tdid not compile");
}

Test(grade_submission, a_file_that_includes_what_it_may_not_is_replaced)
{
    char text[4400];
    snprintf(text, sizeof text, "#include \"%s/" FIXTURES "/lab9-standin/v1_double.c\"\n", kit_test_root());
    expect_replaced(text, "v1_double.c\tincludes ");
}

Test(grade_submission, a_file_that_carries_a_compiled_program_is_replaced)
{
    expect_replaced("#include \"lab9.h\"\nstatic const unsigned char blob[] = { 0x7f, 0x45, 0x4c, 0x46, 2, 1 };\n"
                    "int lab9_double(const lab9_io *io) { (void)io; return blob[0] - 0x7f; }\n",
                    "carries a compiled program");
}

Test(grade_submission, a_file_that_counts_on_old_reference_objects_is_replaced)
{
    expect_replaced("/* lab9_double: from the reference objects of an old student copy */\n",
                    "does not define lab9_double, which the lab calls");
}

/* ---- the reports ------------------------------------------------------------------- */

/* results.json parses, has a unique name for every test, and its score is the sum of
 * the tests'; junit.xml parses with unique (class, name) pairs; the TAP plan counts
 * the lines. Python 3 (make deps) reads the JSON and the XML. */
Test(grade_reports, every_format_is_well_formed_with_unique_names)
{
    int status;
    char *out = grade(submission("wrong/v1_double.c", "v1_double.c"), "FAKE_SPEED=1.6 SPEED_REPS=10 SPEED_ROUNDS=3", &status);
    cr_assert(eq(int, status, 0), "%s", out);
    out = tool_run(&status,
                   "cd %s/out && python3 -c '\n"
                   "import json, xml.etree.ElementTree as ET\n"
                   "r = json.load(open(\"results.json\"))\n"
                   "names = [t[\"name\"] for t in r[\"tests\"]]\n"
                   "assert len(names) == len(set(names)) == 4, names\n"
                   "assert abs(sum(t[\"score\"] for t in r[\"tests\"]) - r[\"score\"]) < 0.02, r\n"
                   "assert abs(sum(t[\"max_score\"] for t in r[\"tests\"]) - 100) < 0.02, r\n"
                   "assert all(t[\"visibility\"] == \"visible\" and \"output\" in t for t in r[\"tests\"])\n"
                   "cases = [(c.get(\"classname\"), c.get(\"name\")) for c in ET.parse(\"junit.xml\").iter(\"testcase\")]\n"
                   "assert len(cases) == len(set(cases)) == 10, cases\n"
                   "tap = open(\"results.tap\").read().splitlines()\n"
                   "plan = [l for l in tap if l.startswith(\"1..\")][0]\n"
                   "results = [l for l in tap if l.startswith(\"ok \") or l.startswith(\"not ok \")]\n"
                   "assert plan == \"1..%%d\" %% len(results), (plan, len(results))\n"
                   "print(\"well formed\")'",
                   reports);
    cr_expect(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "well formed") != NULL, "%s", out);
    /* Speed is points: the rows carry their speed, not a pass or a failure. */
    char *tap = report("results.tap");
    cr_expect(strstr(tap, "ok 9 - lab9_speed/9.1 # step 9.1: speed ") != NULL, "%s", tap);
    char *xml = report("junit.xml");
    cr_expect(strstr(xml, "<property name=\"speed\" value=") != NULL, "%s", xml);
    cr_expect(strstr(xml, "classname=\"lab9_speed\" name=\"9.1 double\">\n      <properties>") != NULL, "%s", xml);
    /* Every report names the kit's version, the GPU and the reference. */
    cr_expect(strstr(report("results.json"), "\"kit_version\": \"0.0.1\"") != NULL, "%s", report("results.json"));
    cr_expect(strstr(tap, "# kit 0.0.1; GPU: none (stand-in); reference: the stand-in") != NULL, "%s", tap);
    cr_expect(strstr(xml, "<property name=\"kit_version\" value=\"0.0.1\"/>") != NULL, "%s", xml);
}

/* The summary report.awk writes for stand-in test results (RESULTS: its tsv lines,
 * as a printf format) of the stand-in lab 9, with no speed measured. */
static char *summary_of(const char *results, int *status)
{
    return tool_run(status,
                    "d=$(mktemp -d) && cd %s && printf '%s' >$d/r.tsv && : >$d/s.tsv && echo lab=lab9 >$d/meta && "
                    "awk -v out=$d -f tools/grade/report.awk tests/cpu/fixtures/grade/lab9-standin/speed.cfg "
                    "$d/r.tsv $d/s.tsv $d/meta && cat $d/summary.txt; rm -rf $d",
                    kit_test_root(), results);
}

/* A case that cannot run on this machine (lab 6's two-GPU cases where one GPU is
 * present) is not counted, and the summary names it: a skipped case is not passed. */
Test(grade_reports, cases_not_run_are_named_in_the_summary)
{
    int status;
    char *out = summary_of("lab9_v1\\tsizes\\tn=0\\tpass\\t\\n"
                           "lab9_v1\\tsizes\\tn=1\\tnotrun\\ta ring of 2 GPUs needs 2 GPUs, 1 present\\n"
                           "lab9_v2\\tsizes\\tn=0\\tfail\\twrong\\n",
                           &status);
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "9.1    lab9_v1                            1/1") != NULL, "%s", out);
    cr_expect(strstr(out, "9.1: 1 cases not run here, not counted (the first: lab9_v1/sizes/n=1: a ring of 2 GPUs "
                          "needs 2 GPUs, 1 present)") != NULL, "%s", out);
    cr_expect(strstr(out, "\n9.2: ") == NULL, "%s", out); /* every case of 9.2 ran */
}

/* A case of Step 9.1 that also runs Step 9.2's code, which answers TODO: 9.2 is not
 * finished (0), and the case is not counted for 9.1, whose own cases all pass. A
 * TODO from 9.1's own code still leaves 9.1 unfinished. */
Test(grade_reports, a_todo_of_another_step_costs_that_step_only)
{
    int status;
    char *out = summary_of("lab9_v1\\tsizes\\tn=0\\tpass\\t\\n"
                           "lab9_v1\\tsizes\\tn=1\\tpass\\t\\n"
                           "lab9_v1\\tafter_9_2\\tafter_9_2\\tfail\\tStep 9.2 (odd) is not implemented yet (TODO)\\n"
                           "lab9_v2\\tsizes\\tn=0\\tpass\\t\\n",
                           &status);
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "9.1    lab9_v1                            2/2    100.0%") != NULL, "%s", out);
    cr_expect(strstr(out, "9.2    lab9_v2                            1/1      0.0%") != NULL, "%s", out);
    cr_expect(strstr(out, "9.1: 1 cases not run here, not counted (the first: lab9_v1/after_9_2: needs Step 9.2, "
                          "which is not finished: Step 9.2 (odd) is not implemented yet (TODO))") != NULL, "%s", out);
    cr_expect(strstr(out, "9.2 is not finished") != NULL, "%s", out);
    cr_expect(strstr(out, "first failure of 9.2: lab9_v1/after_9_2: Step 9.2 (odd)") != NULL, "%s", out);
    cr_expect(strstr(out, " 50.00 / 100") != NULL, "%s", out);

    out = summary_of("lab9_v1\\tsizes\\tn=0\\tpass\\t\\n"
                     "lab9_v1\\tsizes\\tn=1\\tfail\\tStep 9.1 (double) is not implemented yet (TODO)\\n"
                     "lab9_v2\\tsizes\\tn=0\\tpass\\t\\n",
                     &status);
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "9.1    lab9_v1                            1/2      0.0%") != NULL, "%s", out);
    cr_expect(strstr(out, " 50.00 / 100") != NULL, "%s", out);
}

/* The GPUs a report names and the speed table counts are those CUDA_VISIBLE_DEVICES
 * leaves visible (a two-GPU row is not run where one is), with a stand-in nvidia-smi
 * of two GPUs that takes indices and refuses other names, as the real one does. */
Test(grade_reports, the_gpus_are_those_cuda_visible_devices_leaves)
{
    int status;
    char *out = tool_run(
        &status,
        "d=$(mktemp -d) && cd %s && printf '%%s\\n' '#!/bin/bash' 'ids=0,1' "
        "'[[ $1 == -i ]] && { ids=$2; shift 2; }' '[[ $ids =~ ^[0-9,]+$ ]] || exit 6' "
        "'for i in ${ids//,/ }; do echo \"GPU $i\"; done' >$d/nvidia-smi && chmod +x $d/nvidia-smi && "
        "PATH=$d:$PATH bash -c 'source tools/grade/common.sh; "
        "echo \"all: $(grade_gpus)\"; echo \"one: $(CUDA_VISIBLE_DEVICES=1 grade_gpus)\"; "
        "echo \"none: $(CUDA_VISIBLE_DEVICES= grade_gpus)\"; echo \"mig: $(CUDA_VISIBLE_DEVICES=MIG-7 grade_gpus)\"'; "
        "rm -rf $d",
        kit_test_root());
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "all: GPU 0, GPU 1\n") != NULL, "%s", out);
    cr_expect(strstr(out, "one: GPU 1\n") != NULL, "%s", out);
    cr_expect(strstr(out, "none: \n") != NULL, "%s", out);
    cr_expect(strstr(out, "mig: GPU 0, GPU 1\n") != NULL, "%s", out); /* a list nvidia-smi refuses: every GPU */
}

/* ---- the commands, on this machine without a GPU ----------------------------------- */

Test(grade_commands, a_missing_or_wrong_lab_is_refused_in_one_line)
{
    const char *targets[] = { "grade", "grade-submission SUB=/tmp" };
    int commands = instructor_tree() ? 2 : 1; /* grade-submission: the instructor's tree */
    for (int i = 0; i < commands; i++) {
        int status;
        char *out = tool_run(&status, "cd %s && make -s --no-print-directory %s", kit_test_root(), targets[i]);
        cr_expect(eq(int, status, 2), "%s: %s", targets[i], out);
        cr_expect(strstr(out, "say which lab: make ") != NULL, "%s: %s", targets[i], out);
        out = tool_run(&status, "cd %s && make -s --no-print-directory %s LAB=9", kit_test_root(), targets[i]);
        cr_expect(eq(int, status, 2), "%s: %s", targets[i], out);
        cr_expect(strstr(out, "LAB=9 is not a lab of this kit") != NULL, "%s: %s", targets[i], out);
        cr_expect(eq(ptr, strchr(out, '\n'), strrchr(out, '\n')), "one line: %s", out);
    }
}

/* Without a GPU, make grade says so in every format before it builds anything. */
Test(grade_commands, without_a_gpu_every_format_says_so_before_building)
{
    if (!system("nvidia-smi -L >/dev/null 2>&1"))
        cr_skip_test("this machine has a GPU");
    const char *formats[] = { "json", "xml", "tap", "score" };
    const char *says[] = { "\"output\": \"NOT GRADED: no GPU", "<error message=\"not graded: no GPU",
                           "1..0 # SKIP not graded: no GPU", "NOT GRADED: no GPU" };
    for (int i = 0; i < 4; i++) {
        int status;
        char *out = tool_run(&status, "cd %s && rm -f build/tests/grade_lab0 && make -s --no-print-directory grade "
                                      "LAB=0 GRADE_FORMAT=%s; s=$?; test -e build/tests/grade_lab0 && echo BUILT; exit $s",
                             kit_test_root(), formats[i]);
        cr_expect(eq(int, status, 2), "%s: %s", formats[i], out);
        cr_expect(strstr(out, says[i]) != NULL, "%s: %s", formats[i], out);
        cr_expect(strstr(out, "BUILT") == NULL, "%s: it built the suite first: %s", formats[i], out);
    }
    if (!instructor_tree())
        return; /* a student copy has no make grade-submission */
    int status;
    char *out = tool_run(&status, "cd %s && make -s --no-print-directory grade-submission LAB=0 SUB=/tmp "
                                  "OUT=/tmp/kit_nogpu && exit 9; cat /tmp/kit_nogpu/results.json", kit_test_root());
    cr_expect(strstr(out, "NOT GRADED: no GPU") != NULL, "%s", out);
    cr_expect(strstr(out, "\"graded\": false") != NULL, "%s", out);
}

/* ---- the judges of the real labs ---------------------------------------------------- */

/* Every judge the kit builds names every case of its grading selection once, and every
 * step of its table has cases (run without a GPU: each case names itself, then skips). */
Test(grade_judges, every_case_has_a_name_of_its_own)
{
    if (!instructor_tree())
        cr_skip_test("the judges are built in the instructor's tree (solutions/) only");
    int status;
    char *out = tool_run(&status,
                         "cd %s && . tools/grade/common.sh && for j in build/grade/judge_lab*; do n=${j##*lab}; "
                         "r=$(mktemp); KIT_GRADE_SELECTION=1 GRADE_RESULTS=$r GRADE_CASE_FILE=$r.case $j -j1 --quiet "
                         ">/dev/null 2>&1; echo \"lab$n $(cut -f1-3 $r | sort | uniq -d | wc -l) repeated\"; "
                         "for s in $(grade_suites $(grade_table $n)); do grep -q \"^$s\t\" $r || echo \"lab$n: no case of $s\"; "
                         "done; rm -f $r $r.case; done",
                         kit_test_root());
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "lab0 0 repeated") != NULL, "the judges are built by make test: %s", out);
    for (const char *line = out; (line = strstr(line, " repeated")); line++)
        cr_expect(eq(chr, line[-1], '0'), "%s", out);
    cr_expect(strstr(out, "no case of") == NULL, "%s", out);
}

/* ---- the manifest -------------------------------------------------------------------- */

/* Every sheet lists, under "Files you hand in", exactly the files of its lab that
 * make grade-submission takes: those with a BEGIN SOLUTION region. */
Test(grade_manifest, every_sheet_lists_the_files_handed_in)
{
    if (!instructor_tree())
        cr_skip_test("the manifest comes from solutions/ (the instructor's tree)");
    int status;
    char *out = tool_run(&status,
                         "cd %s && for d in solutions/lab*-*/; do "
                         "want=$(grep -l '// BEGIN SOLUTION' $d* | xargs -n1 basename | sort | paste -sd' '); "
                         "got=$(awk '/\\*\\*Files you hand in:\\*\\*/ { p = 1 } p { print } /not graded\\./ { p = 0 }' "
                         "$d/README.md | grep -o '`[^`]*`' | tr -d '`' | sort | paste -sd' '); "
                         "[ \"$want\" = \"$got\" ] && echo \"$d ok\" || echo \"$d: the sheet lists '$got', the lab has '$want'\"; done",
                         kit_test_root());
    cr_assert(eq(int, status, 0), "%s", out);
    cr_expect(strstr(out, "lab0-memory/ ok") != NULL, "%s", out);
    cr_expect(strstr(out, "the sheet lists") == NULL, "%s", out);
}

/* ---- the student copy ------------------------------------------------------------------ */

/* make dist's check (tools/grade/dist-check.sh) passes the starter and fails a copy
 * that holds a solution file or a binary with PTX (the kit's own test binary). */
Test(grade_dist, a_copy_that_quotes_a_solution_or_holds_ptx_fails)
{
    if (!instructor_tree())
        cr_skip_test("the solutions to look for are in the instructor's tree only");
    int status;
    char *out = tool_run(&status, "cd %s && d=$(mktemp -d) && cp -r labs $d/ && bash tools/grade/dist-check.sh check $d | "
                                  "grep -v reviewed; s=$?; rm -rf $d; exit $s", kit_test_root());
    cr_expect(strstr(out, "FAIL  labs/") == NULL, "the starter quotes no solution line: %s", out);
    out = tool_run(&status, "cd %s && d=$(mktemp -d) && cp solutions/lab2-reduction/v6_single_pass.cu $d/ && "
                            "cp build/tests/kit_tests $d/ && bash tools/grade/dist-check.sh check $d; s=$?; rm -rf $d; exit $s",
                   kit_test_root());
    cr_expect(eq(int, status, 1), "%s", out);
    cr_expect(strstr(out, "FAIL  v6_single_pass.cu quotes a solution line") != NULL, "%s", out);
    cr_expect(strstr(out, "FAIL  kit_tests holds PTX") != NULL, "%s", out);
}
