#!/usr/bin/env bash
# bench-lab5.sh BINDIR OUTDIR: lab5's measurements (GPU).
#   lab5_keys.csv       every variant + cub + memcpy, u32 keys, uniform, n = 2^10..2^28
#   lab5_pairs.csv      the same with values (--pairs)
#   lab5_lowbits.csv    every variant on uniform and on lowbits keys (high 16 bits zero),
#                       n = 2^24 and 2^28, keys and pairs: which sorts skip passes
#   lab5_dists.csv      onesweep and cub on every distribution and type, n = 2^24, keys and pairs
#   lab5_plan.txt       the passes onesweep ran on each of those inputs
#   lab5_resources.txt  registers / shared memory / spills of every kernel (cuobjdump)
#   lab5_ncu.txt        (if ncu is present) onesweep's pass kernel and CUB's onesweep kernel
#                       at 2^24: DRAM throughput, occupancy, bank conflicts, stall reasons
# bench-lab5.sh --tune BINDIR OUTDIR: run the tuning binaries BINDIR/tune/solution5-* (built
#   by --build-tune) on onesweep at 2^24 and 2^28, keys and pairs -> lab5_tune.csv (the
#   binary's tile shape in the param column)
# bench-lab5.sh --build-tune BINDIR: build those binaries here (needs nvcc and a normal build
#   first: make solution5 ARCH=sm_90, or make lab5 in the student copy, whose sources it then
#   uses), one per shape in TUNE_SHAPES.
# The harness's --csv overwrites its file: each run goes to a temporary CSV and the runs are
# concatenated under one header.
set -euo pipefail

# The builds of the tuning sweep: name and -D flags (lab5_shapes.h); the
# shapes of earlier runs are named in the first line of plots/data/lab5_tune_*.csv.
TUNE_SHAPES=(
    "shipped:"
    "lookback-window-1:-DLAB5_LOOKBACK_WINDOW=1"
    "lookback-window-4-pairs:-DLAB5_LOOKBACK_WINDOW_PAIRS=4"
    "nt384-vt20-vp20:-DLAB5_ONESWEEP_VT=20 -DLAB5_ONESWEEP_VT_PAIRS=20"
    "solo-nt512-vp32:-DLAB5_ONESWEEP_SOLO_NT=512 -DLAB5_ONESWEEP_SOLO_VT_PAIRS=32"
)

# append DST CSV...: concatenate the runs' CSVs, keeping the first two header lines once
append() {
    local dst=$1
    shift
    local first=1
    for f in "$@"; do
        if ((first)); then cat "$f"; first=0; else tail -n +3 "$f"; fi
    done >"$dst"
}

if [[ ${1:-} == --build-tune ]]; then
    bindir=$2
    nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
    arch=${ARCH:-sm_90}
    # the reference's sources, or (in the student copy) the student's: make solution5 or make lab5 first
    tree=solutions
    [[ -d solutions/lab5-sort ]] || tree=labs
    mkdir -p "$bindir/tune"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    # Every lab5 source but cub_ref.cu (no tile shape in it) is rebuilt with the flags;
    # the flags of the Makefile's compile rules, plus the shape.
    for shape in "${TUNE_SHAPES[@]}"; do
        name=${shape%%:*} flags=${shape#*:}
        objs=(build/$tree/lab5-sort/cub_ref.cu.o)
        for f in common/*.c; do objs+=("build/$f.o"); done # not a glob of build/: no stale objects
        for f in $tree/lab5-sort/*.c; do
            o=$tmp/$(basename "$f").o
            cc -std=c11 -D_GNU_SOURCE -O2 -fopenmp -Icommon -I"${nvcc%/bin/nvcc}/include" -I$tree/lab5-sort \
                $flags -c "$f" -o "$o"
            objs+=("$o")
        done
        for f in $tree/lab5-sort/v*.cu; do
            o=$tmp/$(basename "$f").o
            "$nvcc" -O3 -std=c++17 -arch="$arch" -lineinfo -Icommon -I$tree/lab5-sort $flags -c "$f" -o "$o"
            objs+=("$o")
        done
        "$nvcc" -arch="$arch" -o "$bindir/tune/solution5-$name" "${objs[@]}" -Xcompiler -fopenmp
        echo "built $bindir/tune/solution5-$name ($flags)"
    done
    exit 0
fi

if [[ ${1:-} == --tune ]]; then
    bindir=$2 out=$3
    mkdir -p "$out"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    runs=()
    for bin in "$bindir"/tune/solution5-*; do
        name=${bin##*/solution5-}
        for n in 2^24 2^28; do
            for kv in keys pairs; do
                f="$tmp/${name}_${n/^/_}_$kv.csv"
                "$bin" --variant onesweep --n "$n" $([[ $kv == pairs ]] && echo --pairs) --reps 10 --csv "$f.raw"
                # the shape in the param column (6) of every data row, before the
                # run's own parameter (pairs: the tiles per SM that onesweep used)
                awk -F, -v OFS=, -v s="$name" 'NR <= 2 { print; next } { $6 = ($6 == "-" || $6 == "") ? s : s ";" $6; print }' "$f.raw" >"$f"
                runs+=("$f")
            done
        done
    done
    append "$out/lab5_tune.csv" "${runs[@]}"
    exit 0
fi

bin=$1/solution5
out=$2
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" --sweep --reps 10 --csv "$out/lab5_keys.csv"
"$bin" --sweep --pairs --reps 10 --csv "$out/lab5_pairs.csv"

for n in 2^24 2^28; do
    for dist in uniform lowbits; do
        for kv in keys pairs; do
            "$bin" --n "$n" --dist "$dist" $([[ $kv == pairs ]] && echo --pairs) --reps 10 \
                --csv "$tmp/low_${n/^/_}_${dist}_$kv.csv"
        done
    done
done | grep '^onesweep plan' >"$out/lab5_plan.txt" || true
append "$out/lab5_lowbits.csv" "$tmp"/low_*.csv

for dist in uniform few equal sorted reverse lowbits; do
    for kv in keys pairs; do
        "$bin" --n 2^24 --type all --dist "$dist" --variant onesweep $([[ $kv == pairs ]] && echo --pairs) \
            --reps 10 --csv "$tmp/dist_${dist}_$kv.csv"
    done
done | grep '^onesweep plan' >>"$out/lab5_plan.txt" || true
append "$out/lab5_dists.csv" "$tmp"/dist_*.csv

if command -v cuobjdump >/dev/null 2>&1; then
    cuobjdump --dump-resource-usage "$bin" 2>&1 | c++filt | grep -E 'Function|REG' >"$out/lab5_resources.txt" || true
fi
if command -v ncu >/dev/null 2>&1; then
    metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_registers,launch__registers_per_thread,launch__grid_size,launch__block_size,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_membar_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__inst_executed.sum
    for kv in keys pairs; do
        # passes 1 and 2 of the checked run (pass 0 also waits for the histogram's L2 state)
        echo "== onesweep $kv, n = 2^24, passes 1-2"
        ncu --metrics "$metrics" --kernel-name regex:'onesweep_pass' --launch-skip 1 --launch-count 2 \
            "$bin" --variant onesweep --n 2^24 $([[ $kv == pairs ]] && echo --pairs) --reps 1 --warmup 0 2>&1 |
            grep -E '^  [A-Za-z_].*\(|^ +[a-z0-9_]+__|launch__' || true
        echo "== onesweep histogram $kv, n = 2^24"
        ncu --metrics "$metrics" --kernel-name regex:'onesweep_histogram' --launch-count 1 \
            "$bin" --variant onesweep --n 2^24 $([[ $kv == pairs ]] && echo --pairs) --reps 1 --warmup 0 2>&1 |
            grep -E '^  [A-Za-z_].*\(|^ +[a-z0-9_]+__|launch__' || true
        echo "== cub $kv, n = 2^24, onesweep kernel of passes 1-2"
        ncu --metrics "$metrics" --kernel-name regex:'DeviceRadixSortOnesweepKernel' --launch-skip 1 --launch-count 2 \
            "$bin" --variant onesweep --n 2^24 $([[ $kv == pairs ]] && echo --pairs) --reps 1 --warmup 0 2>&1 |
            grep -E '^  [A-Za-z_].*\(|^ +[a-z0-9_]+__|launch__' || true
    done >"$out/lab5_ncu.txt"
fi
