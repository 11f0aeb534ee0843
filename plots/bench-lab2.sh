#!/usr/bin/env bash
# bench-lab2.sh BINDIR OUTDIR: lab2's measurements.
#   lab2_bars.csv       every variant x type (i64, f32, max) and cub at n = 2^26
#   lab2_sweep.csv      i64 sum, n = 2^10..2^28 (includes the 2^24 and 2^28 goal rows)
#   lab2_big.csv        single-pass vs cub for every type at n = 2^24 and 2^28
#   lab2_resources.txt  registers / shared memory / spills of every kernel (cuobjdump)
#   lab2_ablation.csv   (if tools/maint/gpu-extra-lab23.sh build ran) Step 2.5 one idea at a time
#   lab2_ncu.txt        (if ncu is present) why each step is faster: bank conflicts,
#                       SIMT efficiency, barriers, DRAM bytes, achieved occupancy
set -euo pipefail
bin=$1/solution2
out=$2
mkdir -p "$out"
"$bin" --n 2^26 --type all --reps 20 --csv "$out/lab2_bars.csv"
"$bin" --sweep --type i64 --reps 20 --csv "$out/lab2_sweep.csv"
for k in 24 28; do
    "$bin" --n 2^$k --type all --variant single-pass --reps 20 --csv "$out/lab2_big_$k.tmp"
done
# one CSV: the two header lines once, then every row
{ head -2 "$out/lab2_big_24.tmp"; tail -n +3 "$out/lab2_big_24.tmp"; tail -n +3 "$out/lab2_big_28.tmp"; } >"$out/lab2_big.csv"
rm -f "$out"/lab2_big_*.tmp
# What the compiler gave each kernel (the claims of the lecture about registers
# and shared memory are checked here, not asserted).
if command -v cuobjdump >/dev/null 2>&1; then
    cuobjdump --dump-resource-usage "$bin" 2>&1 | c++filt | grep -E 'Function|REG' >"$out/lab2_resources.txt" || true
fi
if command -v ncu >/dev/null 2>&1; then
    metrics=gpu__time_duration.sum,dram__bytes_read.sum,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__thread_inst_executed_pred_on_per_inst_executed.ratio,smsp__sass_branch_targets_threads_divergent.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size
    for v in interleaved strided-index sequential first-add warp-shuffle register-blocked single-pass; do
        echo "== $v"
        ncu --metrics "$metrics" --kernel-name regex:'^reduce_' "$bin" --variant "$v" --n 2^24 --reps 1 --warmup 0 2>&1 |
            grep -E '^  [A-Za-z_].*\(|^ +[a-z0-9_]+__|launch__' || true
    done >"$out/lab2_ncu.txt"
fi
# The ablation of Step 2.5, when its extra binary was built (tools/maint/gpu-extra-lab23.sh build).
if [[ -x $1/solution2-vt1 ]]; then
    bash tools/maint/gpu-extra-lab23.sh run "$1" "$out" 2
fi
