#!/usr/bin/env bash
# bench-goals.sh BINDIR OUTDIR [TAG]: the performance goals of the final variants,
# each measured in the same run as its ceiling (CUB and memcpy), at n = 2^24 and
# 2^28, twice (a goal holds when it holds in two runs). One CSV, goals[_TAG].csv;
# tools/goals-table.sh turns it into the table of ratios.
#   lab1 smem-warp vs CUB HistogramEven, 256 bins: uniform, kwarp:1, single
#   lab3 lookback-tuned and tma-pipeline vs memcpy, int32 and int64; select-if and select-pipeline vs cub-select, keep 50%
#   lab4 merge-path vs CUB MergeKeys; the joins vs memcpy (2^24 only)
#   lab5 onesweep vs CUB SortKeys / SortPairs, u32 (if solution5 exists)
set -euo pipefail
bin=$1 out=$2 tag=${3:+_$3}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
run() { i=$((i + 1)); "$@" --reps 20 --csv "$tmp/${round}_$(printf %03d $i).csv" >/dev/null; }
for round in 1 2; do
    for n in 2^24 2^28; do
        for dist in uniform kwarp:1 single; do
            run "$bin/solution1" --variant smem-warp --op histogram --bins 256 --dist "$dist" --n "$n"
        done
        run "$bin/solution3" --variant lookback-tuned --type all --scan exclusive --n "$n"
        run "$bin/solution3" --variant tma-pipeline --type all --scan exclusive --n "$n"
        run "$bin/solution3" --op compact --keep 50 --type all --n "$n"
        run "$bin/solution4" --op merge --variant merge-path --n "$n"
        if [[ -x $bin/solution5 ]]; then
            run "$bin/solution5" --variant onesweep --n "$n"
            run "$bin/solution5" --variant onesweep --pairs --n "$n"
        fi
    done
    run "$bin/solution4" --op join --join all --n 2^24
done
# one CSV: the first header, then every run's rows tagged with its round
first=$(ls "$tmp"/*.csv | head -1)
{
    head -2 "$first" | sed '2s/$/,run/'
    for f in "$tmp"/*.csv; do
        r=$(basename "$f" | cut -d_ -f1)
        tail -n +3 "$f" | sed "s/\$/,$r/"
    done
} >"$out/goals$tag.csv"
echo "bench-goals: $out/goals$tag.csv ($(($(wc -l <"$out/goals$tag.csv") - 2)) rows)"
