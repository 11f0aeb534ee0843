#!/usr/bin/env bash
# gpu-lab5.sh BINDIR OUTDIR: lab5's run on a GPU node, through tools/maint/gpu-run.sh (each
# step under its own time limit; about 9 minutes on an H100 in all, up to 11.5 with every
# limit reached: where one command may run 10 minutes, run the tests step alone first). Run it from the
# repository root, with prebuilt binaries in BINDIR:
#   solution5, kit_tests   make solution5 build/tests/kit_tests ARCH=sm_90, copied into BINDIR
#   lib/                   Criterion's libraries if the node lacks them (bundle-libs.sh)
#   tune/solution5-*       only with TUNE=1: plots/bench-lab5.sh --build-tune BINDIR
# Steps: the lab5 suites (GPU and CPU), compute-sanitizer on every variant with the
# argument sets of solutions/lab5-sort/sanitize.args, plots/bench-lab5.sh (CSVs for the
# charts, onesweep's plans, resources, ncu), and with TUNE=1 the tile-shape sweep.
# OUTDIR gets logs.tgz (steps.txt, tests, sanitizer tables and logs, bench log) and
# data.tgz (lab5_*.csv, lab5_plan.txt, lab5_resources.txt, lab5_ncu.txt, lab5_tune.csv).
set -euo pipefail
bindir=$(realpath "$1") out=$(realpath -m "$2")
# Two test processes: on an H100 (2026-11-23) the v2 and v3 suites took ~80 s that way, so
# all of lab5 ~4 minutes; with 4 beside the sanitizer, or 8, it overran 200-260 s (each
# sorting case waits for its time slice of the GPU). One process was not timed.
export TEST_JOBS=${TEST_JOBS:-2}
steps=('tests:lab5*/*:300' 'sanitize:5:150' 'bench:5:240')
if [[ ${TUNE:-0} == 1 ]]; then
    steps+=("cmd:tune:120:bash plots/bench-lab5.sh --tune $bindir $out/data")
fi
exec bash tools/maint/gpu-run.sh "$bindir" "$out" "${steps[@]}"
