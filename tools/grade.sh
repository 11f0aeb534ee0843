#!/usr/bin/env bash
# grade.sh BINARY LAB FORMAT: run a lab's GPU suite on the student's code.
# FORMAT score: one line per variant (suite labN_vK) with passed/run, and a total;
#        tap | json | xml: Criterion's own report on stdout.
# Then, on a GPU, the speed of each step against the reference (tools/speed.sh): a
# table after the scores, or one more suite (labN_speed) in the TAP/JSON/XML report.
# A skipped test (Criterion's TAP says "ok ... # SKIP reason") was not run: it is
# shown as "not run" with its reason and counts neither as passed nor in the total.
# A suite whose tests were all skipped says so instead of scoring.
# GRADE_FILTER=PATTERN grades only the matching tests (Criterion's --filter).
set -uo pipefail
bin=$1 lab=$2 format=${3:-score}
filter=()
[[ -n ${GRADE_FILTER:-} ]] && filter=(--filter "$GRADE_FILTER")
# The speed part (tools/speed.sh) runs after the correctness suite when the Makefile
# named the two drivers (SPEED_STUDENT, SPEED_REFERENCE) and a GPU is there; not for
# a filtered run, nor with GRADE_SPEED=0.
speed_wanted() {
    [[ -n ${SPEED_REFERENCE:-} && ${GRADE_SPEED:-1} != 0 && ${#filter[@]} -eq 0 ]] && nvidia-smi -L >/dev/null 2>&1
}
speed() { bash "$(dirname "$0")/speed.sh" grade "$lab" "$1" "$SPEED_STUDENT" "$SPEED_REFERENCE" "$2"; }
# No GPU: every test skipped itself ("GPU suite skipped"). Say so and exit 2 in every
# format: a report of skips with exit status 0 could be imported as a pass.
refuse_without_gpu() { # TAP text
    grep -q "# SKIP GPU suite skipped" <<<"$1" || return 0
    echo "grade: $(grep -m1 -o 'no CUDA-capable GPU found.*' <<<"$1")" >&2
    echo "grade: lab $lab needs a GPU to be graded" >&2
    exit 2
}
case $format in
tap | json | xml)
    tap=$(mktemp) report=$(mktemp)
    trap 'rm -f "$tap" "$report"' EXIT
    outputs=(--tap="$tap")
    if [[ $format == tap ]]; then report=$tap; else outputs+=(--"$format"="$report"); fi
    "$bin" -j1 "${filter[@]}" "${outputs[@]}" --quiet
    status=$?
    refuse_without_gpu "$(cat "$tap")"
    if speed_wanted; then
        speed "$format" "$report" || ((status)) || status=2
    else
        cat "$report"
    fi
    exit $status ;;
score) ;;
*) echo "grade: GRADE_FORMAT must be score, tap, json or xml (got '$format')" >&2; exit 2 ;;
esac
tap=$("$bin" -j1 "${filter[@]}" --tap=- --quiet 2>/dev/null)
status=$?
refuse_without_gpu "$tap"
# The steps' suites, from the suite column of the lab's speed table (Step 3.6 is lab3_select).
steps=$(bash "$(dirname "$0")/speed.sh" steps "$lab" | paste -sd ' ')
awk -v lab="lab$lab" -v steps="$steps" -f "$(dirname "$0")/tap.awk" -f "$(dirname "$0")/grade.awk" <<<"$tap"
echo "(run 'make grade LAB=$lab GRADE_FORMAT=tap' for the failure messages and skip reasons)"
if speed_wanted; then
    speed score <(printf '%s\n' "$tap") || ((status)) || status=2
fi
exit $status
