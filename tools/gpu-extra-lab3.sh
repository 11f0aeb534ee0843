#!/usr/bin/env bash
# gpu-extra-lab3.sh: the ablation of Step 3.5 (lookback-tuned bundles three ideas:
# the tile in shared memory through cp.async, bigger tiles, a warp-parallel
# look-back), and the share of the look-back's back-off.
#
#   gpu-extra-lab3.sh build [ARCH]      where nvcc is, after `make solution3 ARCH=...`:
#                                       build/bin/solution3-vt9 (LAB3_TUNED_VT_I32/_I64=9) and
#                                       build/bin/solution3-nobackoff (LAB3_BACKOFF_NS=0)
#   gpu-extra-lab3.sh run BINDIR OUTDIR on the GPU (about a minute): OUTDIR/lab3_ablation.csv,
#                                       the kit's CSV with a first column `config`
set -euo pipefail
lab=solutions/lab3-scan
build_one() { # name, -D flags...
    local name=$1 obj=build/ablation/lab3-$1
    shift
    mkdir -p "$obj" build/bin
    for f in "$lab"/*.cu; do
        "$nvcc" -O3 -std=c++17 -arch="$arch" -Icommon -I"$lab" "$@" -c "$f" -o "$obj/$(basename "$f").o"
    done
    "$nvcc" -arch="$arch" -o "build/bin/solution3-$name" "$obj"/*.o build/solutions/lab3-scan/*.c.o \
        build/common/*.c.o -Xcompiler -fopenmp
    echo "built build/bin/solution3-$name"
}
case ${1:-} in
build)
    arch=${2:-sm_90}
    nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
    build_one vt9 -DLAB3_TUNED_NT=256 -DLAB3_TUNED_VT_I32=9 -DLAB3_TUNED_VT_I64=9
    build_one nobackoff -DLAB3_BACKOFF_NS=0
    ;;
run)
    bin=$2 out=$3
    mkdir -p "$out"
    tmp=$(mktemp -d)
    trap 'rm -rf "$tmp"' EXIT
    common=(--n 2^28 --type all --scan exclusive --reps 10)
    "$bin/solution3" "${common[@]}" --variant decoupled-lookback --csv "$tmp/1-decoupled-lookback.csv"
    "$bin/solution3-vt9" "${common[@]}" --variant lookback-tuned --csv "$tmp/2-vt9.csv"
    "$bin/solution3" "${common[@]}" --variant lookback-tuned --csv "$tmp/3-tuned.csv"
    "$bin/solution3-nobackoff" "${common[@]}" --variant lookback-tuned --csv "$tmp/4-nobackoff.csv"
    "$bin/solution3" --op compact --n 2^24 --keep 50 --type all --reps 20 --csv "$tmp/5-select.csv"
    "$bin/solution3-nobackoff" --op compact --n 2^24 --keep 50 --type all --reps 20 --csv "$tmp/6-select-nobackoff.csv"
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
    done >"$out/lab3_ablation.csv"
    echo "wrote $out/lab3_ablation.csv"
    ;;
*)
    sed -n '2,11p' "$0" >&2
    exit 2
    ;;
esac
