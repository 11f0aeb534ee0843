#!/usr/bin/env bash
# student-tests.sh BINARY [JOBS]: `make test` in a student copy (no solutions/). Runs every
# suite quietly and, instead of a wall of failures, says per lab which steps are
# still TODO (the TODO(Step N.K) markers left in labs/) and which tests cannot pass
# until they are done. A failure in a lab with no TODO left, or outside the labs, is
# shown as a real failure.
# Exit status: 0 everything that ran passed, 1 a failure that no TODO explains,
# 3 failures only in labs that still have TODO steps.
set -uo pipefail
bin=$1
tap=$(mktemp)
trap 'rm -f "$tap"' EXIT
jobs=${2:-1}
echo "running every suite of the student copy (CPU suites always; GPU suites on the GPU, or without one under the CPU emulator)..."
OMP_WAIT_POLICY=passive "$bin" -j"$jobs" --quiet --short-filename --tap="$tap" >/dev/null 2>&1
todo_steps() { # the steps whose TODO markers are still in lab N's sources
    grep -ho 'TODO(Step [0-9]*\.[0-9]*)' labs/lab"$1"-*/*.c labs/lab"$1"-*/*.cu labs/lab"$1"-*/*.cuh \
        labs/lab"$1"-*/*.h 2>/dev/null | sed 's/TODO(Step \(.*\))/\1/' | sort -uV | tr '\n' ' '
}
declare -A todo
for d in labs/lab*-*/; do
    n=$(basename "$d" | sed 's/^lab\([0-9]*\)-.*/\1/')
    todo[$n]=$(todo_steps "$n")
done
status=0
summary=$(awk -v report=labs -f "$(dirname "$0")/tap.awk" "$tap" | sort -V)
while IFS=$'\t' read -r lab passed failed skipped why names; do
    [[ -z $lab ]] && continue
    what=$([[ $lab == - ]] && echo "kit" || echo "lab$lab")
    line="$what: $passed passed"
    ((skipped)) && line+=", $skipped not run ($why)"
    steps=${todo[$lab]:-}
    if ((failed)) && [[ -n $steps ]]; then
        echo "$line; steps still TODO: ${steps% }; $failed test(s) cannot pass until they are done:"
        ((status == 0)) && status=3
    elif ((failed)); then
        echo "$line, $failed FAILED:"
        status=1
    else
        echo "$line${steps:+; steps still TODO: ${steps% }}"
    fi
    ((failed)) && tr '|' '\n' <<<"$names" | sed '/^$/d; s/^/      /'
done <<<"$summary"
if ((status)); then
    echo "one lab's suites with their messages: make build/tests/test_labN && build/tests/test_labN --filter 'labN_*/*'"
fi
exit $status
