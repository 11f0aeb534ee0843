#!/usr/bin/env bash
# goals-table.sh GOALS.csv...: the goal ratios of plots/bench-goals.sh, one line per
# goal and size, the runs side by side in their order (round 1, round 2, ...). A
# ratio is the final variant's rate over its ceiling's rate in the same run: items/s
# against CUB, or the share of memcpy's bytes/s (pct_of_memcpy) where the ceiling is
# the copy.
set -euo pipefail
for csv in "$@"; do
    echo "== $(head -1 "$csv" | sed 's/^# //')"
    awk -F, '
    NR <= 2 { next }
    {
        key = $1 "|" $3 "|" $4 "|" $5 "|" $17   # lab, n, type, dist, run
        rate[key, $2] = $11; pct[key, $2] = $12; status[key, $2] = $14
        keys[key] = 1
    }
    function goal(label, key, v, ref,   r) {
        if (status[key, v] !~ /^PASS/) return   # also "PASS (budget: K of N runs)"
        if (ref == "memcpy") r = pct[key, v] / 100
        else if (rate[key, ref] > 0) r = rate[key, v] / rate[key, ref]
        else return
        split(key, k, "|")
        name = sprintf("%-38s n=2^%-2d %-5s %-8s", label, log(k[2]) / log(2) + 0.5, k[3], k[4])
        val[name, k[5]] = sprintf(" %6.3f", r)   # by run: awk visits keys in no set order
        if (k[5] + 0 > runs) runs = k[5] + 0
        names[name] = 1
    }
    END {
        for (key in keys) {
            split(key, k, "|")
            if (k[1] == "lab1") goal("lab1 smem-warp / cub", key, "smem-warp", "cub")
            if (k[1] == "lab3") {
                goal("lab3 lookback-tuned / memcpy", key, "lookback-tuned", "memcpy")
                goal("lab3 tma-pipeline / memcpy", key, "tma-pipeline", "memcpy")
                goal("lab3 select-if / cub-select", key, "select-if", "cub-select")
                goal("lab3 select-pipeline / cub-select", key, "select-pipeline", "cub-select")
            }
            if (k[1] == "lab4") {
                goal("lab4 merge-path / cub", key, "merge-path", "cub")
                for (j in status) { split(j, jj, SUBSEP); if (jj[1] == key && jj[2] ~ /^join/) goal("lab4 " jj[2] " / memcpy", key, jj[2], "memcpy") }
            }
            if (k[1] == "lab5") goal("lab5 onesweep / cub", key, "onesweep", "cub")
        }
        for (n in names) {
            line = n " "
            for (i = 1; i <= runs; i++) line = line ((n, i) in val ? val[n, i] : "      -")
            print line | "sort"
        }
    }' "$csv"
done
