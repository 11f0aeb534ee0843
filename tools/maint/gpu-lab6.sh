#!/usr/bin/env bash
# gpu-lab6.sh BINDIR OUT: lab6 on a GPU machine (NCCL and nvcc installed), in about
# four minutes on one H100. Run from the repository root.
#   1. solution6 and test_lab6 from BINDIR (built elsewhere: see below); what is
#      missing is built here (make; test_lab6 only if Criterion's headers are here);
#   2. a smoke run, then lab6's GPU and CPU suites (test_lab6);
#   3. one process per GPU under mpirun: 1 rank, and one per GPU when there are more;
#   4. the bench (plots/bench-lab6.sh): OUT/data/lab6_allreduce.csv, lab6_apps.csv, for
#      at most BENCH_BUDGET_S seconds (default 400: on two H200s the all-reduce sweep
#      took 40 s and the applications at 2^30 keys more than 330 s, most of it the CPU
#      references; rows finished before a stop stay in the CSVs);
#   5. compute-sanitizer on every variant (tools/sanitize.sh: what `make sanitize
#      LAB=6` runs) for at most SANITIZE_BUDGET_S seconds (default 60).
# Writes 7 files: OUT/lab6_gpu.log (machine, build, smoke and mpirun runs, timings),
# OUT/tests_lab6.log, OUT/bench_lab6.log, OUT/sanitize_lab6.txt,
# OUT/sanitize_lab6_logs.tgz, OUT/data/lab6_allreduce.csv, OUT/data/lab6_apps.csv.
# Built elsewhere (here, a machine with NCCL and Criterion):
#   make -j2 ARCH=sm_90 solution6 build/tests/test_lab6 && cp build/tests/test_lab6 build/bin/
#   bash tools/maint/bundle-libs.sh build/tests/test_lab6 build/bin/lib && rm -f build/bin/lib/libnccl*
# (libnccl is left out: the GPU machine has its own, and it is 200 MB.)
set -uo pipefail
bindir=${1:?usage: gpu-lab6.sh BINDIR OUT} out=${2:?usage: gpu-lab6.sh BINDIR OUT}
export NCCL_NVLS_ENABLE=0 # NVLink multicast stays off on shared machines
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mkdir -p "$out/data"
log=$out/lab6_gpu.log
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*" | tee -a "$log"; }
{ nvidia-smi; nvidia-smi topo -m; } >"$log" 2>&1
gpus=$(nvidia-smi -L | wc -l)
stamp "$gpus GPU(s): $(nvidia-smi -L | head -1)"

# 1. binaries
if [[ ! -x $bindir/solution6 ]]; then
    stamp "building solution6 here"
    timeout 300 make -j"$(nproc)" ARCH="${ARCH:-sm_90}" solution6 >>"$log" 2>&1 || { stamp "build failed"; exit 2; }
    mkdir -p "$bindir" && cp solution6 "$bindir/"
fi
if [[ ! -x $bindir/test_lab6 && -f /usr/include/criterion/criterion.h ]]; then
    stamp "building test_lab6 here"
    timeout 300 make -j"$(nproc)" ARCH="${ARCH:-sm_90}" build/tests/test_lab6 >>"$log" 2>&1 &&
        cp build/tests/test_lab6 "$bindir/"
fi
export LD_LIBRARY_PATH=$bindir/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
sol=$bindir/solution6

# 2. smoke run and tests
stamp "smoke run: every row at n = 4099"
timeout 60 "$sol" --n 4099 --reps 2 --warmup 1 >>"$log" 2>&1
stamp "smoke run exit status $?"
if [[ -x $bindir/test_lab6 ]]; then
    stamp "test_lab6"
    timeout 240 "$bindir/test_lab6" -j1 --short-filename >"$out/tests_lab6.log" 2>&1
    stamp "test_lab6 exit status $?: $(tail -1 "$out/tests_lab6.log")"
else
    stamp "no test_lab6 (build it where Criterion is, see the header of this script)"
fi

# 3. one process per GPU
if command -v mpirun >/dev/null; then
    for np in 1 $( ((gpus > 1)) && echo "$gpus"); do
        stamp "mpirun -np $np"
        # one host: the ranks inherit this environment (NCCL_NVLS_ENABLE=0 included)
        timeout 60 mpirun -np "$np" "$sol" --n 2^20+7 --reps 3 >>"$log" 2>&1
        stamp "mpirun -np $np exit status $?"
    done
else
    stamp "no mpirun: one process per GPU runs by hand with --ranks R --rank r --id-file F"
fi

# 4. bench
stamp "bench"
timeout "${BENCH_BUDGET_S:-400}" bash plots/bench-lab6.sh "$bindir" "$out/data" >"$out/bench_lab6.log" 2>&1
stamp "bench exit status $?"

# 5. compute-sanitizer
budget=${SANITIZE_BUDGET_S:-60}
stamp "sanitize (at most $budget s)"
SANITIZE_LOGS=$out/sanitize_logs timeout "$budget" bash tools/sanitize.sh "$sol" >"$out/sanitize_lab6.txt" 2>&1
status=$?
((status == 124)) && echo "(stopped after $budget s: the rows above finished)" >>"$out/sanitize_lab6.txt"
tar czf "$out/sanitize_lab6_logs.tgz" -C "$out" sanitize_logs 2>/dev/null && rm -rf "$out/sanitize_logs"
stamp "sanitize exit status $status"
cat "$out/sanitize_lab6.txt"
stamp "done"
