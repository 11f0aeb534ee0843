#!/usr/bin/env bash
# bench-lab0.sh BINDIR OUTDIR: lab0's measurements.
#   lab0.csv         every variant, n = 2^10..2^28 float3 records (bars use 2^24)
#   lab0_stride.csv  `stride` for s = 1..32 and `offset` for k = 0..32 at n = 2^24
set -euo pipefail
bin=$1/solution0
out=$2
"$bin" --sweep --reps 20 --csv "$out/lab0.csv"
"$bin" --stride-sweep --n 2^24 --reps 20 --csv "$out/lab0_stride.csv"
# Why: sectors per request, DRAM bytes and SIMT efficiency of each kernel (ncu), if present.
if command -v ncu >/dev/null 2>&1; then
    metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum
    for v in copy float3-aos float3-smem float3-soa stride offset divergent warp-uniform; do
        echo "== $v"
        ncu --metrics "$metrics" --kernel-name regex:'^(?!copy_tail)' "$bin" --variant "$v" --n 2^22 \
            --stride 4 --reps 1 --warmup 0 2>&1 | grep -E '^ +[a-z0-9_]+__|^  [a-z_]+\(' || true
    done >"$out/lab0_ncu.txt"
fi
