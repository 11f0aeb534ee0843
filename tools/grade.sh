#!/usr/bin/env bash
# grade.sh BINARY LAB FORMAT: run a lab's GPU suite on the student's code.
# FORMAT score: one line per variant (suite labN_vK) with passed/run, and a total;
#        tap | json | xml: Criterion's own report on stdout.
# A skipped test (Criterion's TAP says "ok ... # SKIP reason") was not run: it is
# shown as "not run" with its reason and counts neither as passed nor in the total.
# A suite whose tests were all skipped says so instead of scoring.
# GRADE_FILTER=PATTERN grades only the matching tests (Criterion's --filter).
set -uo pipefail
bin=$1 lab=$2 format=${3:-score}
filter=()
[[ -n ${GRADE_FILTER:-} ]] && filter=(--filter "$GRADE_FILTER")
case $format in
tap) exec "$bin" -j1 "${filter[@]}" --tap=- --quiet ;;
json) exec "$bin" -j1 "${filter[@]}" --json=- --quiet ;;
xml) exec "$bin" -j1 "${filter[@]}" --xml=- --quiet ;;
score) ;;
*) echo "grade: GRADE_FORMAT must be score, tap, json or xml (got '$format')" >&2; exit 2 ;;
esac
tap=$("$bin" -j1 "${filter[@]}" --tap=- --quiet 2>/dev/null)
status=$?
if grep -q "# SKIP GPU suite skipped" <<<"$tap"; then
    echo "grade: $(grep -m1 -o 'no CUDA-capable GPU found.*' <<<"$tap")" >&2
    echo "grade: lab $lab needs a GPU to be graded" >&2
    exit 2
fi
awk -v lab="lab$lab" -f "$(dirname "$0")/grade.awk" <<<"$tap"
echo "(run 'make grade LAB=$lab GRADE_FORMAT=tap' for the failure messages and skip reasons)"
exit $status
