#!/usr/bin/env bash
# bench.sh [BINDIR] [OUTDIR]: run every lab's measurement script plots/bench-labN.sh
# (GPU needed) so plots/data/*.csv are regenerated on this machine's GPU.
set -euo pipefail
bindir=${1:-.}
outdir=${2:-plots/data}
mkdir -p "$outdir"
nvidia-smi -L >/dev/null 2>&1 || { echo "bench: no GPU visible (nvidia-smi); nothing measured" >&2; exit 2; }
for script in plots/bench-lab*.sh; do
    echo "== $script"
    bash "$script" "$bindir" "$outdir"
done
echo "bench: CSVs in $outdir; render the charts with 'make plots'"
