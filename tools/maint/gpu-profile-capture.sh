#!/usr/bin/env bash
# gpu-profile-capture.sh BINDIR OUTDIR: on the GPU, run make profile's script on
# lab 2's sequential step (next to strided-index, n = 2^24) with the prebuilt
# BINDIR/solution2, and keep what the CPU suite's sample needs:
#   OUTDIR/lab2_profile.txt                   the summary make profile prints
#   OUTDIR/ncu_raw_lab2_strided-index.csv     ncu --csv --page raw --print-units base
#   OUTDIR/ncu_raw_lab2_sequential.csv        of each report (the parser's input)
#   OUTDIR/ncu_details_lab2_sequential.csv    the default page, for reference
#   OUTDIR/ncu_version.txt
# The two ncu_raw_lab2_*.csv are the fixtures of tests/cpu/test_profile.c (copy them
# into tests/cpu/fixtures/ to refresh them with another ncu).
set -uo pipefail
bindir=$(realpath "$1") out=$(realpath -m "$2")
mkdir -p "$out"
export LD_LIBRARY_PATH=$bindir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ncu=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
"$ncu" --version >"$out/ncu_version.txt" 2>&1
bash tools/profile.sh "$bindir/solution2" sequential '2^24' 2>&1 | tee "$out/lab2_profile.txt"
status=${PIPESTATUS[0]}
for v in strided-index sequential; do
    cp build/profile/lab2-$v.csv "$out/ncu_raw_lab2_$v.csv" 2>/dev/null
done
"$ncu" --import build/profile/lab2-sequential.ncu-rep --csv --print-units base \
    >"$out/ncu_details_lab2_sequential.csv" 2>&1
# The parser on the real files, as the CPU suite will run it.
awk -v mode=totals -v labels="strided-index sequential" -f tools/ncu_summary.awk \
    "$out/ncu_raw_lab2_strided-index.csv" "$out/ncu_raw_lab2_sequential.csv" | tee -a "$out/lab2_profile.txt"
awk -v mode=totals -v labels="sequential(details-page)" -f tools/ncu_summary.awk \
    "$out/ncu_details_lab2_sequential.csv" | tee -a "$out/lab2_profile.txt"
exit "$status"
