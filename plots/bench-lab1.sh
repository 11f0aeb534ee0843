#!/usr/bin/env bash
# bench-lab1.sh BINDIR OUTDIR [PART...]: lab1's measurements (PART: kwarp bars cas
# ablation hint sass trace; default all of them; ablation-build only builds the -D binaries
# BINDIR/solution1_NAME of the ablation and hint parts, with nvcc and the objects of
# `make solution1`, no GPU needed: those parts build them themselves when missing).
#   lab1_kwarp.csv     every variant, both operations, kwarp:K for K = 1..32 distinct
#                      keys per warp, n = 2^24, 4096 bins (the chart of Westphal's argument)
#   lab1_bars.csv      the histogram at 256 bins, n = 2^24 and 2^28, for uniform, zipf,
#                      kwarp:1 and single, against CUB (the goal of the best variant)
#   lab1_cas.csv       every variant's scatter-add on skewed keys (zipf, single) at 256
#                      bins, n = 2^10, 2^11, ... 2^20: the CAS loop's time per element
#                      as contention grows; a distribution stops once cas-loop takes
#                      more than a second per run
#   lab1_ablation.csv  smem-warp with one of its ideas taken out (a -D switch, v5
#                      rebuilt and linked with the other objects of `make solution1`):
#                      histogram at 256 bins on four distributions, scatter-add at
#                      4096 bins on kwarp:1 and kwarp:32, n = 2^24; the variant column
#                      says which idea is out, e.g. smem-warp[one-copy]
#   lab1_hint.csv      smem-warp's histogram at 256 bins (uniform, kwarp:1, single) for
#                      n = 2^24 ... 2^28, as shipped, smem-warp[no-hint] (never the
#                      read-once hint) and smem-warp[always-hint] (at every size), with
#                      memcpy and CUB in each run (CUB is always shown): where the hint
#                      pays and where it costs
#   lab1_sass.txt      the SASS of global-atomic's kernels around their atomics, if
#                      cuobjdump is there (does the compiler aggregate on its own?)
#   lab1_trace.txt     `--trace`: one warp of warp-ballot on Westphal's 8-lane example,
#   lab1_trace.csv     checked against the host model, and as the CSV that
#                      plots/lab1_trace.gp draws (lecture 1's aggregation figure)
# The harness's --csv overwrites its file: each run goes to a temporary CSV and the
# runs are concatenated under one header.
set -euo pipefail
bindir=$1
bin=$bindir/solution1
out=$2
shift 2
parts=${*:-kwarp bars cas ablation hint sass trace}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# append CSV FILE...: concatenate the runs' CSVs, keeping the first two header lines once
append() {
    local dst=$1
    shift
    local first=1
    for f in "$@"; do
        if ((first)); then cat "$f"; first=0; else tail -n +3 "$f"; fi
    done >"$dst"
}

kwarp() {
    local runs=()
    for k in 1 2 3 4 6 8 12 16 20 24 28 32; do
        "$bin" --dist "kwarp:$k" --n 2^24 --bins 4096 --op all --reps 10 --csv "$tmp/kwarp_$k.csv"
        runs+=("$tmp/kwarp_$k.csv")
    done
    append "$out/lab1_kwarp.csv" "${runs[@]}"
}

bars() {
    local runs=() f
    for n in 2^24 2^28; do
        for dist in uniform zipf kwarp:1 single; do
            f="$tmp/bars_${n/^/_}_${dist/:/_}.csv"
            "$bin" --dist "$dist" --n "$n" --bins 256 --op histogram --reps 10 --csv "$f"
            runs+=("$f")
        done
    done
    append "$out/lab1_bars.csv" "${runs[@]}"
}

cas() {
    local runs=() f ms
    for dist in zipf single; do
        for k in $(seq 10 20); do
            f="$tmp/cas_${dist}_$k.csv"
            "$bin" --op scatter-add --dist "$dist" --n "2^$k" --bins 256 --reps 5 --warmup 1 --csv "$f"
            runs+=("$f")
            ms=$(awk -F, '$2 == "cas-loop" { print $7 }' "$f")
            awk -v ms="${ms:-0}" 'BEGIN { exit !(ms > 1000) }' && break
        done
    done
    append "$out/lab1_cas.csv" "${runs[@]}"
}

# smem-warp with one idea taken out: the -D switch of each ablation
declare -A switches=([one-copy]=-DSW_MAX_COPIES=1 [one-load]=-DLAB1_SW_LOADS=1
                     [no-cap]=-DSW_HIST_BLOCKS_PER_SM=0 [no-aggregation]=-DSW_MATCH_MIN=33
                     [no-hint]=-DSW_READ_ONCE_L2S=0 [always-hint]=-DSW_READ_ONCE_L2S=1000000)
ablations="one-copy one-load no-cap no-aggregation no-hint"

# build_one NAME: BINDIR/solution1_NAME, v5 rebuilt with the NAME's switch and linked
# with the other objects of `make solution1` (nvcc needed, no GPU)
build_one() {
    local name=$1 nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    local arch lab=solutions/lab1-atomics o
    arch=$(cat build/last-arch)
    local objs=() f
    for f in common/*.c; do objs+=("build/$f.o"); done # not a glob of build/: no stale objects
    for o in build/$lab/*.o; do
        [[ $o == */v5_smem_warp.cu.o ]] || objs+=("$o")
    done
    "$nvcc" -O3 -std=c++17 -arch="$arch" -Icommon -I"$lab" ${switches[$name]} -c "$lab/v5_smem_warp.cu" \
        -o "$tmp/v5_$name.o"
    "$nvcc" -arch="$arch" -o "$bindir/solution1_$name" "$tmp/v5_$name.o" "${objs[@]}" -Xcompiler -fopenmp
}

# build_missing NAME...: build_one every NAME whose binary is missing, in parallel
build_missing() {
    local name pids=() pid
    for name in "$@"; do
        [[ -x $bindir/solution1_$name ]] && continue
        build_one "$name" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do
        wait "$pid" # a failed build stops the script here
    done
}

# ablation-build: every -D binary (the ablation's and always-hint), built afresh (run
# where the kit was built)
ablation_build() {
    local name
    for name in $ablations always-hint; do
        rm -f "$bindir/solution1_$name"
    done
    build_missing $ablations always-hint
}

# tag_rows TAG IN OUT: IN's CSV with smem-warp's rows renamed smem-warp[TAG]
tag_rows() {
    awk -F, -v OFS=, -v tag="$1" 'NR > 2 && $2 == "smem-warp" { $2 = $2 "[" tag "]" } { print }' "$2" >"$3"
}

# ablation_run NAME PROGRAM: smem-warp's rows of PROGRAM, tagged smem-warp[NAME]
ablation_run() {
    local name=$1 program=$2 f runs=()
    for dist in uniform zipf kwarp:1 single; do
        f="$tmp/ablation_${name}_hist_${dist/:/_}.csv"
        "$program" --variant smem-warp --op histogram --dist "$dist" --n 2^24 --bins 256 --reps 20 --csv "$f"
        runs+=("$f")
    done
    for dist in kwarp:1 kwarp:32; do
        f="$tmp/ablation_${name}_f64_${dist/:/_}.csv"
        "$program" --variant smem-warp --op scatter-add --dist "$dist" --n 2^24 --bins 4096 --reps 20 --csv "$f"
        runs+=("$f")
    done
    append "$tmp/ablation_$name.csv" "${runs[@]}"
    tag_rows "$name" "$tmp/ablation_$name.csv" "$tmp/ablation_${name}_tagged.csv"
}

# ablation: the shipped smem-warp and each ablated build (built first if missing)
ablation() {
    local name
    build_missing $ablations
    ablation_run shipped "$bin"
    local tagged=("$tmp/ablation_shipped_tagged.csv")
    for name in $ablations; do
        ablation_run "$name" "$bindir/solution1_$name"
        tagged+=("$tmp/ablation_${name}_tagged.csv")
    done
    append "$out/lab1_ablation.csv" "${tagged[@]}"
}

# hint: the read-once hint by size; every variant runs (memcpy and CUB in each run),
# smem-warp's rows tagged by build
hint() {
    local name program f dists k runs=()
    build_missing no-hint always-hint
    for k in 24 25 26 27 28; do
        dists="uniform kwarp:1"
        ((k == 24 || k == 28)) && dists="uniform kwarp:1 single"
        for dist in $dists; do
            for name in shipped no-hint always-hint; do
                program=$bindir/solution1_$name
                [[ $name == shipped ]] && program=$bin
                f="$tmp/hint_${k}_${dist/:/_}_$name.csv"
                "$program" --variant smem-warp --op histogram --dist "$dist" --n "2^$k" --bins 256 \
                    --reps $((k < 27 ? 20 : 10)) --csv "$tmp/hint_raw.csv"
                tag_rows "$name" "$tmp/hint_raw.csv" "$f"
                runs+=("$f")
            done
        done
    done
    append "$out/lab1_hint.csv" "${runs[@]}"
}

sass() {
    local obj=build/solutions/lab1-atomics/v0_global_atomic.cu.o
    if command -v cuobjdump >/dev/null 2>&1 && [[ -f $obj ]]; then
        cuobjdump -sass "$obj" | grep -E 'Function|ATOM|RED|MATCH|VOTE|POPC|REDUX|FLO|SHFL|BRA' >"$out/lab1_sass.txt" || true
    fi
}

trace() {
    "$bin" --trace >"$out/lab1_trace.txt"
    awk -v date="$(date +%F)" -f plots/lab1_trace.awk "$out/lab1_trace.txt" >"$out/lab1_trace.csv"
}

for part in $parts; do
    case $part in
    kwarp | bars | cas | ablation | hint | sass | trace) "$part" ;;
    ablation-build) ablation_build ;;
    *) echo "bench-lab1: unknown part '$part' (kwarp bars cas ablation hint ablation-build sass trace)" >&2; exit 2 ;;
    esac
done
