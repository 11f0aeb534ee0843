#!/usr/bin/env bash
# bench-lab6.sh BINDIR OUTDIR: lab6's measurements, on every GPU this machine shows.
#   lab6_allreduce.csv  the all-reduce variants, NCCL, the peer-to-peer copy and memcpy:
#                       float, n = 2^10..2^28 values per GPU (the bus-bandwidth chart)
#   lab6_apps.csv       histogram, scan and sort (every distribution), on G GPUs and on
#                       one, at APP_N keys in all (default 2^30 with several GPUs, 2^28
#                       with one, where a ring of one is the baseline's twin)
# Needs solution6, which builds only where NCCL is found (make lab6 says how to get it).
set -euo pipefail
bin=$1/solution6
out=$2
if [[ ! -x $bin ]]; then
    echo "bench-lab6: $bin is not built (NCCL not found?); nothing measured for lab6" >&2
    exit 0
fi
export NCCL_NVLS_ENABLE=0 # NVLink multicast stays off (the driver sets it too)
gpus=$(nvidia-smi -L | wc -l)
app_n=${APP_N:-$( ((gpus > 1)) && echo 2^30 || echo 2^28)}
"$bin" --op allreduce --sweep --type f32 --reps 10 --csv "$out/lab6_allreduce.csv"
"$bin" --op histogram,scan,sort --dist all --n "$app_n" --reps 10 --csv "$out/lab6_apps.csv"
