#!/usr/bin/env bash
# grade-submission.sh LAB SUB [OUT]: make grade-submission, the grade for credit, in
# the instructor's tree. SUB is a student's folder or archive (.tar.gz, .tgz, .tar,
# .zip): a whole student copy, its lab folder, or the files alone.
#
#  1. The GPU is checked first: without one, every report says so (exit 2).
#  2. Only the files a student hands in are taken from SUB: those of the lab with a
#     BEGIN SOLUTION region in solutions/ (the sheet lists them). They go into a
#     fresh copy of the lab; a file not handed in stays the starter's. Every other
#     file of SUB is ignored, and a changed one is listed in the report.
#  3. The submission's files are compiled with its lab folder and a copy of common/
#     as the only include paths of the kit; a file that does not compile, or that
#     includes anything outside those and the system's headers, is replaced by its
#     starter (its steps score 0) and the report says why.
#  4. Speed: each row of the speed table raced against the reference built from
#     solutions/ (tools/speed.sh; GRADE_SPEED=0 leaves it out).
#  5. For each step's suite (GRADE_JOBS, default 4, at once, the last steps first):
#     the worker runs the suite with the submission's code, as an unprivileged user
#     where grading runs as root, in namespaces of its own where the system allows
#     (tools/grade/contain.c), each case in a process of its own (GRADE_CASE_JOBS,
#     default 1, at once) under a time limit (GRADE_CASE_LIMIT, default 120 s; the suite
#     GRADE_SUITE_LIMIT, default 900 s), and records what the submission's calls
#     changed (tools/grade/replay.h). Once every process of that worker is gone and
#     the grader's own files are checked unchanged, the judge, built from the
#     instructor's tree alone, replays the records, checks every output against its
#     own CPU reference and writes the verdicts.
#  6. The reports, once every process of the submission is gone: OUT/summary.txt,
#     results.json (Gradescope), junit.xml, results.tap, and the logs. OUT defaults
#     to build/grade/submissions/labN-NAME.
# Exit status: 0 graded (whatever the score), 2 not graded.
set -uo pipefail

main() {
    source tools/grade/common.sh
    source tools/grade/submission.sh
    local lab=${1:-} sub=${2:-} out=${3:-}
    grade_check_lab grade-submission "$lab"
    if [[ -z $sub ]]; then
        echo "make grade-submission: say which submission: make grade-submission LAB=$lab SUB=PATH (a folder or an archive)" >&2
        exit 2
    fi
    [[ -e $sub ]] || { echo "make grade-submission: SUB=$sub: no such file or folder" >&2; exit 2; }
    local name
    name=$(basename "$sub")
    name=${name%%.*}
    out=${out:-build/grade/submissions/lab$lab-$name}
    table=$(grade_table "$lab")
    labdir=$(grade_lab_dir "$lab")
    starter=labs/$(basename "$labdir")
    # Not under /tmp: the submission's processes get a /tmp of their own (contain.c).
    stage=$(mktemp -d "${GRADE_TMPDIR:-/var/tmp}/grade-lab$lab-XXXXXX")
    trap 'rm -rf "$stage"' EXIT
    chmod 711 "$stage"
    mkdir -p "$stage/report" "$stage/logs"
    chmod 700 "$stage/report"
    {
        echo "lab=lab$lab"
        echo "title=make grade-submission LAB=$lab: $name, graded for credit"
        echo "version=$(grade_version)"
        echo "gpu=$(grade_gpus)"
        echo "reference=built here from solutions/ at $(git rev-parse --short HEAD 2>/dev/null || echo 'an unknown commit')" \
            "with nvcc $(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p'), ARCH $(cat build/last-arch 2>/dev/null || echo native)"
    } >"$stage/meta"

    if [[ -z $(grade_gpus) ]]; then
        echo "not_graded=$(grade_no_gpu): lab $lab needs a GPU to be graded" >>"$stage/meta"
        publish 2
    fi

    say "taking the files a student hands in from $sub"
    unpack "$sub" "$stage/sub" || { echo "not_graded=cannot unpack $sub" >>"$stage/meta"; publish 2; }
    take_handin
    list_ignored

    say "building lab $lab's judge and reference (once per lab), then the submission's worker"
    judge=build/grade/judge_lab$lab reference=build/grade/speed_lab$lab
    worker=$stage/work/worker yours=$stage/work/speed
    make -s --no-print-directory grade-judge-build LAB="$lab" >"$stage/logs/build-judge.log" 2>&1 ||
        { echo "not_graded=the grader does not build (logs/build-judge.log)" >>"$stage/meta"; publish 2; }
    build_worker make -k -s --no-print-directory grade-worker-build LAB="$lab" GRADE_WORK="$stage/work"
    grade_phases
}

main "$@"
exit
