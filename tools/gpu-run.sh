#!/usr/bin/env bash
# gpu-run.sh BINDIR OUTDIR [N ...]: everything a GPU node checks, with prebuilt
# binaries (make all build/tests/kit_tests ARCH=sm_XX; binaries are copied into
# build/bin, Criterion's libraries with ../shared/tools/bundle-libs.sh into
# build/bin/lib): the test suites, compute-sanitizer on every variant of labs N...
# (default: all), and each lab's bench script into OUTDIR/data.
set -uo pipefail
bindir=$1 out=$2
shift 2
labs=("$@")
if ((${#labs[@]} == 0)); then
    labs=($(ls "$bindir" | sed -n 's/^solution\([0-9]\)$/\1/p'))
fi
export LD_LIBRARY_PATH=$bindir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out/data" "$out/sanitize"
nvidia-smi >"$out/nvidia-smi.txt" 2>&1
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }
if [[ ${SKIP_TESTS:-0} != 1 ]]; then
    stamp "tests"
    timeout 900 "$bindir/kit_tests" -j1 --short-filename ${TEST_FILTER:+--filter "$TEST_FILTER"} >"$out/tests.log" 2>&1
    tail -1 "$out/tests.log"
fi
for n in "${labs[@]}"; do
    if [[ ${SKIP_SANITIZE:-0} != 1 ]]; then
        stamp "sanitize lab$n"
        SANITIZE_LOGS=$out/sanitize timeout 600 bash tools/sanitize.sh "$bindir/solution$n" >"$out/sanitize_lab$n.txt" 2>&1
        cat "$out/sanitize_lab$n.txt"
    fi
    if [[ ${SKIP_BENCH:-0} != 1 && -f plots/bench-lab$n.sh ]]; then
        stamp "bench lab$n"
        timeout 900 bash "plots/bench-lab$n.sh" "$bindir" "$out/data" >"$out/bench_lab$n.log" 2>&1
        tail -3 "$out/bench_lab$n.log"
    fi
done
stamp "done"
