#!/usr/bin/env bash
# profile.sh BINARY VARIANT [N [PREV [ARGS...]]]: one variant of a lab under Nsight
# Compute, next to the step before it (make profile LAB=N VARIANT=slug).
#
# Each row the driver times runs inside an NVTX range named after it (common/timing.c),
# so `ncu --nvtx --nvtx-include "slug/"` profiles exactly that variant's timed launches:
# one timed run (--reps 1 --warmup 0), after the driver has checked the result.
# The sections kept in the report are the ones the lectures reason with: speed of
# light (DRAM throughput vs peak), occupancy, warp states (stall reasons), memory
# tables (shared-memory bank conflicts), instruction statistics, launch statistics.
# The reports stay in build/profile/LAB-VARIANT.ncu-rep (open them in Nsight
# Compute's GUI) with their raw CSV next to them; tools/ncu_summary.awk prints the
# numbers that explain the step: time, DRAM % of peak, achieved occupancy, the top
# stall reason, bank conflicts, instructions.
# N: --n (default: the lab's). PREV: the variant to compare with (default: the one
# before VARIANT in the lab's table; "none" for no comparison). ARGS: more driver
# flags, e.g. --type i64. A row that is not in the variant table (lab3's select-if)
# is profiled by its flags alone: make profile LAB=3 VARIANT=select-if ARGS='--op compact'.
# NCU=/path/to/ncu picks Nsight Compute (default: ncu on PATH, then next to nvcc).
set -uo pipefail
if (($# < 2)); then
    echo "usage: $0 BINARY VARIANT [N [PREV [ARGS...]]]" >&2
    exit 2
fi
bin=$1 variant=$2 n=${3:-} prev=${4:-}
shift $(($# < 4 ? $# : 4))
args=("$@")
lab=$(basename "$bin")
lab=lab${lab##*[a-z]}
here=$(dirname "$0")

die() { echo "make profile: $*" >&2; exit 2; }
[[ -x $bin ]] || die "$bin not built"
nvidia-smi -L >/dev/null 2>&1 || die "needs a GPU (no GPU visible: nvidia-smi)"
ncu=${NCU:-$(command -v ncu || true)}
if [[ -z $ncu ]]; then
    nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    [[ -x $(dirname "$nvcc")/ncu ]] && ncu=$(dirname "$nvcc")/ncu
fi
[[ -n $ncu && -x $ncu ]] ||
    die "Nsight Compute (ncu) not found: it ships with the CUDA toolkit (next to nvcc); NCU=/path/to/ncu"

slugs=($("$bin" --list | awk '{ print $1 }'))
index=-1
for i in "${!slugs[@]}"; do [[ ${slugs[$i]} == "$variant" ]] && index=$i; done
if [[ -z $prev ]]; then
    prev=none
    ((index > 0)) && prev=${slugs[$((index - 1))]}
fi
in_table() { local s; for s in "${slugs[@]}"; do [[ $s == "$1" ]] && return 0; done; return 1; }
[[ -n $variant ]] || die "name the variant: make profile LAB=${lab#lab} VARIANT=slug (one of: ${slugs[*]})"
if ((index < 0)) && [[ " ${args[*]} " != *" --op "* ]]; then
    die "'$variant' is not a variant of $lab (${slugs[*]}); a row outside the table needs its flags, e.g. ARGS='--op compact'"
fi
[[ $prev == none ]] || in_table "$prev" || die "PREV='$prev' is not a variant of $lab (${slugs[*]})"

sections=(SpeedOfLight Occupancy LaunchStats WarpStateStats MemoryWorkloadAnalysis_Tables InstructionStats)
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
# The stall reasons the labs meet most; WarpStateStats adds the others it knows.
for reason in barrier long_scoreboard short_scoreboard mio_throttle lg_throttle wait math_pipe_throttle not_selected; do
    metrics+=,smsp__average_warps_issue_stalled_${reason}_per_issue_active.ratio
done

out=build/profile
mkdir -p "$out"
# profile_one SLUG: the report and its raw CSV; prints the CSV's path.
profile_one() {
    local slug=$1 report=$out/$lab-$1 run=("$bin" --reps 1 --warmup 0 ${n:+--n "$n"} "${args[@]}")
    in_table "$slug" && run+=(--variant "$slug")
    echo "make profile: ncu on ${run[*]} (kernels inside NVTX range '$slug')" >&2
    "$ncu" --nvtx --nvtx-include "$slug/" $(printf -- '--section %s ' "${sections[@]}") --metrics "$metrics" \
        --export "$report" --force-overwrite "${run[@]}" >"$report.log" 2>&1 ||
        { tail -20 "$report.log" >&2; die "ncu failed on $slug (full log: $report.log)"; }
    "$ncu" --import "$report.ncu-rep" --csv --page raw --print-units base >"$report.csv" 2>>"$report.log" ||
        die "ncu could not export $report.ncu-rep as CSV (log: $report.log)"
    grep -q '"Kernel Name"' "$report.csv" ||
        die "no kernel of '$slug' was profiled (is it TODO? see $report.log)"
    echo "$report.csv"
}

csvs=() labels=()
if [[ $prev != none ]]; then
    csvs+=("$(profile_one "$prev")") || exit 2
    labels+=("$prev")
fi
csvs+=("$(profile_one "$variant")") || exit 2
labels+=("$variant")
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -1)
echo
echo "$lab, ${labels[*]: -1}$([[ $prev != none ]] && echo " next to the step before it, $prev"), n = ${n:-the lab default}${args[*]:+ (${args[*]})}, on $gpu:"
awk -f "$here/ncu_summary.awk" -v labels="${labels[*]}" "${csvs[@]}" || exit 2
echo "full reports (Nsight Compute GUI: ncu-ui FILE): $(for l in "${labels[@]}"; do printf '%s ' "$out/$lab-$l.ncu-rep"; done)"
