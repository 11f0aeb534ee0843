#!/usr/bin/env bash
# grade.sh LAB FORMAT: make grade, the self-check. Runs lab LAB's grading selection
# of its GPU suite on labs/ (the steps' suites of labN-*/speed.cfg, sizes up to
# KIT_GRADE_MAX_N), then races each step's speed against the reference
# (tools/speed.sh), and writes the same reports as make grade-submission into
# build/grade/self/labN/: summary.txt, results.json (Gradescope), junit.xml,
# results.tap. FORMAT score prints the summary; tap, json or xml prints that report.
# It is a self-check: the code under test runs in the same process as its tests.
# The grade for credit is make grade-submission, on the instructor's machine.
# The GPU is checked before anything is built; without one every report says so.
# GRADE_SPEED=0 leaves the speed out.
# Exit status: 0 every case passed, 1 some did not, 2 not graded.
set -uo pipefail
source tools/grade/common.sh
lab=${1:-} format=${2:-score}
grade_check_lab grade "$lab"
case $format in
score | tap | json | xml) ;;
*) echo "make grade: GRADE_FORMAT must be score, tap, json or xml (got '$format')" >&2; exit 2 ;;
esac
out=build/grade/self/lab$lab
rm -rf "$out" && mkdir -p "$out"
table=$(grade_table "$lab")
{
    echo "lab=lab$lab"
    echo "title=make grade LAB=$lab: a self-check of your labs/ code on this machine (the grade for credit comes from make grade-submission on your instructor's machine)"
    echo "version=$(grade_version)"
    echo "gpu=$(grade_gpus)"
    if [[ -d solutions ]]; then
        echo "reference=built here from solutions/ at $(git rev-parse --short HEAD 2>/dev/null || echo 'an unknown commit')"
    else
        echo "reference=$(sed -n 's/^\(archs\|nvcc\|commit\|date\)=/\1 /p' reference/BUILD-INFO 2>/dev/null | paste -sd ';' | sed 's/;/; /g')"
    fi
} >"$out/meta"

show() { # the report FORMAT asks for
    case $format in
    score) cat "$out/summary.txt" ;;
    tap) cat "$out/results.tap" ;;
    json) cat "$out/results.json" ;;
    xml) cat "$out/junit.xml" ;;
    esac
}

# Without a GPU, or with EMU=1 (the CPU emulator), nothing is graded: 'make test' checks
# the lab's kernels under the emulator, and an emulated run is not a grade.
if [[ -z $(grade_gpus) || ${EMU:-0} == 1 ]]; then
    why=$(grade_no_gpu)
    [[ ${EMU:-0} == 1 ]] && why="EMU=1 runs the kernels on the CPU emulator"
    echo "not_graded=$why: lab $lab needs a GPU to be graded (make test checks it under the CPU emulator; an emulated run is not a grade)" >>"$out/meta"
    grade_report "$out" "$table" /dev/null /dev/null "$out/meta" >/dev/null
    show
    exit 2
fi

echo "grade: building lab $lab's suite and speed drivers..." >&2
make -s --no-print-directory grade-self-build LAB="$lab" >&2 || exit 2
suites=$(grade_suites "$table" | paste -sd '|')
echo "grade: running the steps' tests of lab $lab ($suites), one case at a time..." >&2
# A case that hangs is killed at GRADE_CASE_LIMIT seconds (tools/grade/case.c) and
# counts as failed; the whole run at GRADE_SUITE_LIMIT.
KIT_GRADE_SELECTION=1 KIT_TEST_BIG=0 GRADE_RESULTS=$out/results.tsv GRADE_CASE_FILE=$out/case \
    GRADE_CASE_ALARM=${GRADE_CASE_LIMIT:-120} timeout "${GRADE_SUITE_LIMIT:-3600}" \
    build/tests/grade_lab"$lab" -j1 --quiet --filter "@($suites)/*" >"$out/tests.log" 2>&1
touch "$out/results.tsv"

touch "$out/speed.tsv"
if [[ ${GRADE_SPEED:-1} == 0 ]]; then
    echo "speed=left out (GRADE_SPEED=0)" >>"$out/meta"
elif ref=$(bash tools/speed.sh reference "$lab" 2>"$out/speed.why"); then
    bash tools/speed.sh run "$table" build/grade/self_speed_lab"$lab" "$ref" "$out"
else
    echo "speed=$(cat "$out/speed.why")" >>"$out/meta"
fi
grade_report "$out" "$table" "$out/results.tsv" "$out/speed.tsv" "$out/meta" >/dev/null
status=$?
show
((status)) && exit 2
awk -F'\t' '$4 == "fail" { bad = 1 } END { exit bad }' "$out/results.tsv"
