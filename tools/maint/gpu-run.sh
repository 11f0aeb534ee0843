#!/usr/bin/env bash
# gpu-run.sh BINDIR OUTDIR STEP...: what a GPU node checks and measures, with
# prebuilt binaries (make all build/tests/kit_tests ARCH=sm_XX; binaries copied into
# BINDIR, Criterion's libraries with bundle-libs.sh into BINDIR/lib). Each STEP runs
# under its own time limit and logs into OUTDIR; a line per step says how long it took.
#   tests:PATTERN[:SECONDS]   the Criterion suites matching PATTERN (e.g. 'lab3_*/*'), TEST_JOBS
#                             processes at once (default 1; more than 2 on one GPU is slower:
#                             the processes time-slice the GPU)
#   sanitize:N[:SECONDS]      compute-sanitizer on every variant of solutionN
#   bench:N[:SECONDS]         plots/bench-labN.sh into OUTDIR/data
#   cmd:NAME:SECONDS:COMMAND  any command (output in OUTDIR/NAME.log)
set -uo pipefail
bindir=$(realpath "$1") out=$(realpath -m "$2")
shift 2
export LD_LIBRARY_PATH=$bindir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export KIT_ROOT=$PWD NCCL_NVLS_ENABLE=0
mkdir -p "$out/data" "$out/logs"
nvidia-smi --query-gpu=name,memory.total,clocks.max.sm,clocks.max.mem --format=csv >"$out/logs/gpu.txt" 2>&1
t0=$(date +%s)
stamp() { printf '[%4d s] %s\n' "$(($(date +%s) - t0))" "$*"; }
for step in "$@"; do
    IFS=: read -r kind a b c <<<"$step"
    s0=$(date +%s)
    case $kind in
    tests)
        name=tests_$(tr -c 'A-Za-z0-9\n' '_' <<<"$a" | sed 's/_*$//')${KIT_TEST_BIG:+_big$KIT_TEST_BIG}
        timeout "${b:-300}" "$bindir/kit_tests" -j"${TEST_JOBS:-1}" --verbose --short-filename --filter "$a" --tap="$out/logs/$name.tap" \
            >"$out/logs/$name.log" 2>&1
        rc=$?
        result="$(tail -1 "$out/logs/$name.log") rc=$rc; $(awk -v report=notrun -f tools/tap.awk "$out/logs/$name.tap" 2>/dev/null | cut -d' ' -f1) not run"
        grep -h '^\[FAIL\]\|^\[----\].*:[0-9]*: ' "$out/logs/$name.log" | head -20 ;;
    sanitize)
        SANITIZE_LOGS=$out/logs/sanitize timeout "${b:-300}" bash tools/sanitize.sh "$bindir/solution$a" \
            >"$out/logs/sanitize_lab$a.txt" 2>&1
        rc=$?
        result="rc=$rc"
        grep -vE 'clean +clean +clean +clean' "$out/logs/sanitize_lab$a.txt" | grep -v '^logs:' | head -20 ;;
    bench)
        timeout "${b:-300}" bash "plots/bench-lab$a.sh" "$bindir" "$out/data" >"$out/logs/bench_lab$a.log" 2>&1
        rc=$?
        result="rc=$rc" ;;
    cmd)
        timeout "$b" bash -c "$c" >"$out/logs/$a.log" 2>&1
        rc=$?
        result="rc=$rc" ;;
    *) result="unknown step '$step'" ;;
    esac
    stamp "$step: $(($(date +%s) - s0)) s: $result"
done | tee "$out/logs/steps.txt"
# at most 8 files come back: pack the logs
tar czf "$out/logs.tgz" -C "$out" logs && rm -rf "$out/logs"
tar czf "$out/data.tgz" -C "$out" data && rm -rf "$out/data"
