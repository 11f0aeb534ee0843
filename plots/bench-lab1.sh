#!/usr/bin/env bash
# bench-lab1.sh BINDIR OUTDIR: lab1's measurements.
#   lab1_kwarp.csv  every variant, both operations, kwarp:K for K = 1..32 distinct
#                   keys per warp, n = 2^24, 4096 bins (the chart of the seed's argument)
#   lab1_bars.csv   the histogram at 256 bins, n = 2^24 and 2^28, for uniform, zipf,
#                   kwarp:1 and single, against CUB (the goal of the best variant)
#   lab1_sass.txt   the SASS of global-atomic's kernels around their atomics, if
#                   cuobjdump is there (does the compiler aggregate on its own?)
# The harness's --csv overwrites its file: each run goes to a temporary CSV and the
# runs are concatenated under one header.
set -euo pipefail
bin=$1/solution1
out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# append CSV FILE...: concatenate the runs' CSVs, keeping the first two header lines once
append() {
    local dst=$1
    shift
    local first=1
    for f in "$@"; do
        if ((first)); then cat "$f"; first=0; else tail -n +3 "$f"; fi
    done >"$dst"
}

runs=()
for k in 1 2 3 4 6 8 12 16 20 24 28 32; do
    "$bin" --dist "kwarp:$k" --n 2^24 --bins 4096 --op all --reps 10 --csv "$tmp/kwarp_$k.csv"
    runs+=("$tmp/kwarp_$k.csv")
done
append "$out/lab1_kwarp.csv" "${runs[@]}"

runs=()
for n in 2^24 2^28; do
    for dist in uniform zipf kwarp:1 single; do
        f="$tmp/bars_${n/^/_}_${dist/:/_}.csv"
        "$bin" --dist "$dist" --n "$n" --bins 256 --op histogram --reps 10 --csv "$f"
        runs+=("$f")
    done
done
append "$out/lab1_bars.csv" "${runs[@]}"

obj=build/solutions/lab1-atomics/v0_global_atomic.cu.o
if command -v cuobjdump >/dev/null 2>&1 && [[ -f $obj ]]; then
    cuobjdump -sass "$obj" | grep -E 'Function|ATOM|RED|MATCH|VOTE|POPC|REDUX|FLO|SHFL|BRA' >"$out/lab1_sass.txt" || true
fi
