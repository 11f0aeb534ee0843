#!/usr/bin/env bash
# gpu-lab5.sh BINDIR OUTDIR: what lab5 needs from a GPU node, with prebuilt binaries,
# in about 6 minutes on an H100 (every phase under its own timeout). Run it from the
# repository root (it reads tools/, plots/ and solutions/lab5-sort/sanitize.args).
#   BINDIR/solution5 and BINDIR/kit_tests   make solution5 build/tests/kit_tests ARCH=sm_90,
#                                           copied into BINDIR
#   BINDIR/lib                              Criterion's libraries, if the node lacks them
#                                           (../shared/tools/bundle-libs.sh BINDIR/kit_tests BINDIR/lib)
#   BINDIR/tune/solution5-*                 optional, for TUNE=1: the tuning binaries
#                                           (plots/bench-lab5.sh --build-tune BINDIR)
# PHASES="tests sanitize bench" (default: all three) picks phases, e.g. to split the work
# over two calls. OUTDIR gets at most 7 files, none in a subfolder:
#   summary.txt           each phase: seconds, exit status, last lines
#   nvidia-smi.txt
#   tests.log             the lab5 suites: kit_tests --filter 'lab5*/*' -j1 (GPU and CPU)
#   sanitize.txt          make sanitize LAB=5's tables (4 tools x every variant x each argument set)
#   sanitize-logs.tar.gz  the sanitizer logs behind the tables
#   bench.log             plots/bench-lab5.sh's tables (and --tune's with TUNE=1)
#   lab5-data.tar.gz      the files for plots/data: lab5_*.csv, lab5_plan.txt,
#                         lab5_resources.txt, lab5_ncu.txt (if ncu is there), lab5_tune.csv
set -uo pipefail
bindir=$(cd "$1" && pwd) out=$2
phases=${PHASES:-tests sanitize bench}
mkdir -p "$out"
out=$(cd "$out" && pwd)
export LD_LIBRARY_PATH=$bindir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
nvidia-smi >"$out/nvidia-smi.txt" 2>&1
t0=$(date +%s)

# phase NAME LOG COMMAND...: run, time and summarize one phase
phase() {
    local name=$1 log=$2
    shift 2
    local start=$(date +%s)
    "$@" >"$log" 2>&1
    local rc=$?
    {
        echo "== $name: exit $rc after $(($(date +%s) - start)) s (at $(($(date +%s) - t0)) s)"
        tail -n 4 "$log"
    } | tee -a "$out/summary.txt"
}

for p in $phases; do
    case $p in
    tests)
        phase tests "$out/tests.log" timeout 200 "$bindir/kit_tests" -j1 --short-filename --filter 'lab5*/*'
        ;;
    sanitize)
        mkdir -p "$work/sanitize"
        SANITIZE_LOGS=$work/sanitize phase sanitize "$out/sanitize.txt" timeout 150 bash tools/sanitize.sh "$bindir/solution5"
        tar czf "$out/sanitize-logs.tar.gz" -C "$work" sanitize
        ;;
    bench)
        mkdir -p "$work/data"
        phase bench "$out/bench.log" timeout 240 bash plots/bench-lab5.sh "$bindir" "$work/data"
        if [[ ${TUNE:-0} == 1 ]]; then
            phase tune "$work/tune.log" timeout 120 bash plots/bench-lab5.sh --tune "$bindir" "$work/data"
            cat "$work/tune.log" >>"$out/bench.log"
        fi
        tar czf "$out/lab5-data.tar.gz" -C "$work/data" .
        ;;
    *) echo "gpu-lab5: unknown phase '$p' (tests, sanitize, bench)" | tee -a "$out/summary.txt" ;;
    esac
done
echo "== done after $(($(date +%s) - t0)) s" | tee -a "$out/summary.txt"
