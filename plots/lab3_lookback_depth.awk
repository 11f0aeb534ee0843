# lab3_lookback_depth.awk: from the "stats:" lines of a `./lab3 --stats` log
# (plots/data/lab3_stats_*.txt), one row per variant and type in the order they
# appear, comma-separated: label, then the mean and the maximum number of predecessors a tile
# inspected at n = 2^24 and at n = 2^28 (columns 2-3 and 4-5).
function value(re,   s) { match($0, re); s = substr($0, RSTART, RLENGTH); gsub(/[^0-9.]/, "", s); return s }
$1 == "stats:" && $0 ~ /mean/ {
    key = $2 " " ($4 == "i32" ? "int32" : "int64")
    if (!(key in seen)) { seen[key] = 1; order[++count] = key }
    n = value("n=[0-9]+")
    col = n == 16777216 ? 0 : n == 268435456 ? 1 : -1
    if (col < 0) next
    mean[key, col] = value("mean [0-9.]+")
    max[key, col] = value("max [0-9]+")
}
END {
    for (i = 1; i <= count; i++) {
        k = order[i]
        printf "%s,%s,%s,%s,%s\n", k, mean[k, 0], max[k, 0], mean[k, 1], max[k, 1]
    }
}
