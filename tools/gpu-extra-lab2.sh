#!/usr/bin/env bash
# gpu-extra-lab2.sh: the ablation of Step 2.5 (register-blocked bundles three ideas:
# 16-byte loads, register blocking, an occupancy-sized grid with a grid-stride loop).
#
#   gpu-extra-lab2.sh build [ARCH]      where nvcc is, after `make solution2 ARCH=...`:
#                                       build/bin/solution2-vt1 (LAB2_BLOCKED_VT=1)
#   gpu-extra-lab2.sh run BINDIR OUTDIR on the GPU (under a minute): OUTDIR/lab2_ablation.csv,
#                                       the kit's CSV with a first column `config`
set -euo pipefail
lab=solutions/lab2-reduction
case ${1:-} in
build)
    arch=${2:-sm_90}
    nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    obj=build/ablation/lab2-vt1
    mkdir -p "$obj" build/bin
    for f in "$lab"/*.cu; do
        "$nvcc" -O3 -std=c++17 -arch="$arch" -Icommon -I"$lab" -DLAB2_BLOCKED_VT=1 -c "$f" -o "$obj/$(basename "$f").o"
    done
    "$nvcc" -arch="$arch" -o build/bin/solution2-vt1 "$obj"/*.o build/solutions/lab2-reduction/*.c.o \
        build/common/*.c.o -Xcompiler -fopenmp
    echo "built build/bin/solution2-vt1"
    ;;
run)
    bin=$2 out=$3
    mkdir -p "$out"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    common=(--n 2^26 --type i64 --reps 20)
    # config name | binary | arguments
    "$bin/solution2" "${common[@]}" --variant warp-shuffle --csv "$tmp/1-warp-shuffle.csv"
    "$bin/solution2-vt1" "${common[@]}" --variant register-blocked --grid 2^31 --csv "$tmp/2-vt1-grid-per-tile.csv"
    "$bin/solution2" "${common[@]}" --variant register-blocked --grid 2^31 --csv "$tmp/3-vt4-grid-per-tile.csv"
    "$bin/solution2" "${common[@]}" --variant register-blocked --csv "$tmp/4-vt4-occupancy-grid.csv"
    first=1
    for f in "$tmp"/*.csv; do
        config=$(basename "$f" .csv)
        config=${config#?-}
        if ((first)); then
            head -1 "$f"
            sed -n 2p "$f" | sed 's/^/config,/'
            first=0
        fi
        tail -n +3 "$f" | sed "s/^/$config,/"
    done >"$out/lab2_ablation.csv"
    echo "wrote $out/lab2_ablation.csv"
    ;;
*)
    sed -n '2,9p' "$0" >&2
    exit 2
    ;;
esac
