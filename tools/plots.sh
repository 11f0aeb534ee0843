#!/usr/bin/env bash
# plots.sh: render every chart plots/NAME.gp into plots/NAME.png. Each script names
# its CSV on its first line ("# data: FILE.csv", a file in plots/data/); where the
# H100's measurement FILE_h100.csv exists too, the same script also draws
# plots/NAME_h100.png from it (the GPU's name is in each CSV's header and title).
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
    # the same chart from the H100's CSV, where there is one (FILE_h100.csv -> NAME_h100.png)
    for gpu in "" _h100; do
        csv=plots/data/$data
        if [[ -n $gpu ]]; then
            [[ $data == *.csv ]] || continue # an H100 twin only for a CSV
            csv=plots/data/${data%.csv}$gpu.csv
        fi
        [[ -f $csv ]] || continue
        png=${gp%.gp}$gpu.png
        if gnuplot -c "$gp" "$csv" "$png"; then
            echo "plots: $png"
        else
            echo "plots: $gp failed on $csv" >&2; status=1
        fi
    done
done
exit $status
