#!/usr/bin/env bash
# plots.sh: render every chart plots/NAME.gp into plots/NAME.png. Each script names
# its CSV on its first line ("# data: FILE.csv", a file in plots/data/).
set -euo pipefail
command -v gnuplot >/dev/null || { echo "plots: gnuplot not found (make deps)" >&2; exit 2; }
status=0
for gp in plots/*.gp; do
    [[ $(basename "$gp") == style.gp ]] && continue
    data=$(sed -n '1s/^# data: *//p' "$gp")
    if [[ -z $data ]]; then
        echo "plots: $gp lacks a '# data: FILE.csv' first line" >&2; status=1; continue
    fi
    if [[ ! -f plots/data/$data ]]; then
        echo "plots: skip $gp (plots/data/$data not measured yet)"; continue
    fi
    png=${gp%.gp}.png
    if gnuplot -c "$gp" "plots/data/$data" "$png"; then
        echo "plots: $png"
    else
        echo "plots: $gp failed" >&2; status=1
    fi
done
exit $status
