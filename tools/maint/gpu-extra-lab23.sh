#!/usr/bin/env bash
# gpu-extra-lab23.sh: the ablations of the two bundled steps of labs 2 and 3.
#   lab2_ablation.csv  Step 2.5 (register-blocked: 16-byte loads, register blocking,
#                      an occupancy-sized grid with a grid-stride loop), one idea at a time
#   lab3_ablation.csv  Step 3.5 (lookback-tuned: shared-memory tile, bigger tiles, a
#                      warp-parallel look-back) one knob at a time, and the back-off of
#                      the waits on and off (lookback-tuned and select-if)
#
#   gpu-extra-lab23.sh build [ARCH]            where nvcc is, after `make solution2 solution3
#                                              ARCH=...`: build/bin/solution2-vt1,
#                                              solution3-vt9, solution3-nobackoff
#   gpu-extra-lab23.sh run BINDIR OUTDIR LAB   on the GPU (about a minute each; LAB 2 or 3):
#                                              OUTDIR/labLAB_ablation.csv, the kit's CSV with a
#                                              first column `config`
set -euo pipefail

build_one() { # lab folder, binary name, -D flags...
    local lab=$1 name=$2 obj=build/ablation/$2
    shift 2
    mkdir -p "$obj" build/bin
    for f in solutions/"$lab"/*.cu; do
        "$nvcc" -O3 -std=c++17 -arch="$arch" -Icommon -Isolutions/"$lab" "$@" -c "$f" -o "$obj/$(basename "$f").o"
    done
    "$nvcc" -arch="$arch" -o "build/bin/$name" "$obj"/*.o build/solutions/"$lab"/*.c.o $(printf 'build/%s.o ' common/*.c) \
        -Xcompiler -fopenmp
    echo "built build/bin/$name"
}

# One CSV from the runs in $tmp (named N-config.csv, in order): the header once,
# every row prefixed with its config.
combine() {
    local first=1 f config
    for f in "$tmp"/*.csv; do
        config=$(basename "$f" .csv)
        config=${config#?-}
        if ((first)); then
            head -1 "$f"
            sed -n 2p "$f" | sed 's/^/config,/'
            first=0
        fi
        tail -n +3 "$f" | sed "s/^/$config,/"
    done
}

case ${1:-} in
build)
    arch=${2:-sm_90}
    nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    build_one lab2-reduction solution2-vt1 -DLAB2_BLOCKED_VT=1
    build_one lab3-scan solution3-vt9 -DLAB3_TUNED_NT=256 -DLAB3_TUNED_VT_I32=9 -DLAB3_TUNED_VT_I64=9
    build_one lab3-scan solution3-nobackoff -DLAB3_BACKOFF_NS=0
    ;;
run)
    bin=$2 out=$3 lab=$4
    mkdir -p "$out"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    if [[ $lab == 2 ]]; then
        common=(--n 2^26 --type i64 --reps 20)
        "$bin/solution2" "${common[@]}" --variant warp-shuffle --csv "$tmp/1-warp-shuffle.csv"
        "$bin/solution2-vt1" "${common[@]}" --variant register-blocked --grid 2^31 --csv "$tmp/2-vt1-grid-per-tile.csv"
        "$bin/solution2" "${common[@]}" --variant register-blocked --grid 2^31 --csv "$tmp/3-vt4-grid-per-tile.csv"
        "$bin/solution2" "${common[@]}" --variant register-blocked --csv "$tmp/4-vt4-occupancy-grid.csv"
    else
        common=(--n 2^28 --type all --scan exclusive --reps 10)
        compact=(--op compact --n 2^24 --keep 50 --type all --reps 20)
        "$bin/solution3" "${common[@]}" --variant decoupled-lookback --csv "$tmp/1-decoupled-lookback.csv"
        "$bin/solution3-vt9" "${common[@]}" --variant lookback-tuned --csv "$tmp/2-vt9.csv"
        "$bin/solution3" "${common[@]}" --variant lookback-tuned --csv "$tmp/3-tuned.csv"
        "$bin/solution3-nobackoff" "${common[@]}" --variant lookback-tuned --csv "$tmp/4-nobackoff.csv"
        "$bin/solution3" "${compact[@]}" --csv "$tmp/5-select.csv"
        "$bin/solution3-nobackoff" "${compact[@]}" --csv "$tmp/6-select-nobackoff.csv"
    fi
    combine >"$out/lab${lab}_ablation.csv"
    echo "wrote $out/lab${lab}_ablation.csv"
    ;;
*)
    sed -n '2,15p' "$0" >&2
    exit 2
    ;;
esac
