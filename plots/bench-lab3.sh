#!/usr/bin/env bash
# bench-lab3.sh BINDIR OUTDIR: lab3's measurements.
#   lab3_i32.csv      every scan variant + cub + memcpy, exclusive int32, n = 2^10..2^28
#   lab3_i64.csv      the same for int64
#   lab3_compact.csv  select-if (in place) vs cub-select, n = 2^24, keep 50%, int32 and int64
#   lab3_stats.txt    look-back depth (--stats) of decoupled-lookback, lookback-tuned and tma-pipeline at 2^24 and 2^28
#   lab3_ablation.csv (if tools/maint/gpu-extra-lab23.sh build ran) Step 3.5 one knob at a time, back-off on/off
set -euo pipefail
bin=$1/solution3
out=$2
"$bin" --sweep --type i32 --scan exclusive --reps 10 --csv "$out/lab3_i32.csv"
"$bin" --sweep --type i64 --scan exclusive --reps 10 --csv "$out/lab3_i64.csv"
"$bin" --op compact --n 2^24 --keep 50 --type all --reps 20 --csv "$out/lab3_compact.csv"
for n in 2^24 2^28; do
    for v in decoupled-lookback lookback-tuned tma-pipeline; do
        "$bin" --n "$n" --type all --scan exclusive --variant "$v" --reps 3 --warmup 1 --stats
    done
done >"$out/lab3_stats.txt"
# The ablation of Step 3.5, when its extra binaries were built (tools/maint/gpu-extra-lab23.sh build).
if [[ -x $1/solution3-vt9 && -x $1/solution3-nobackoff ]]; then
    bash tools/maint/gpu-extra-lab23.sh run "$1" "$out" 3
fi
