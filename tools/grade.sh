#!/usr/bin/env bash
# grade.sh BINARY LAB FORMAT: run a lab's GPU suite on the student's code.
# FORMAT score: one line per variant (suite labN_vK) with passed/total and a total;
#        tap | json | xml: Criterion's own report on stdout.
set -uo pipefail
bin=$1 lab=$2 format=${3:-score}
case $format in
tap) exec "$bin" -j1 --tap=- --quiet ;;
json) exec "$bin" -j1 --json=- --quiet ;;
xml) exec "$bin" -j1 --xml=- --quiet ;;
score) ;;
*) echo "grade: GRADE_FORMAT must be score, tap, json or xml (got '$format')" >&2; exit 2 ;;
esac
tap=$("$bin" -j1 --tap=- --quiet 2>/dev/null)
status=$?
if grep -q "# SKIP GPU suite skipped" <<<"$tap"; then
    echo "grade: $(grep -m1 -o 'no CUDA-capable GPU found.*' <<<"$tap")" >&2
    echo "grade: lab $lab needs a GPU to be graded" >&2
    exit 2
fi
awk -v lab="lab$lab" '
    /^(not )?ok / {
        name = $0; sub(/^(not )?ok [0-9]* *- */, "", name); sub(/::.*/, "", name)
        if (name !~ "^" lab "_v[0-9]+$") next
        total[name]++
        if ($1 == "ok") pass[name]++
    }
    END {
        for (s in total) {
            p = pass[s] + 0; t = total[s]
            printf "%-10s %3d/%-3d %5.1f%%\n", s, p, t, 100 * p / t | "sort -V"
            all_p += p; all_t += t
        }
        close("sort -V")
        if (all_t) printf "%-10s %3d/%-3d %5.1f%%\n", "total", all_p, all_t, 100 * all_p / all_t
    }' <<<"$tap"
echo "(run 'make grade LAB=$lab GRADE_FORMAT=tap' for the failure messages)"
exit $status
