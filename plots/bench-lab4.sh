#!/usr/bin/env bash
# bench-lab4.sh BINDIR OUTDIR: lab4's measurements.
#   lab4_merge.csv       merge: naive-merge, merge-path, cub and memcpy, n = 2^10..2^28 total keys
#                        (|A| = |B|; the bars use n = 2^26)
#   lab4_join_u.csv      inner/left/right/outer joins, unique keys, n = 2^10..2^24 rows in A + B
#   lab4_join_d4.csv     the same with about 4 rows per key
#   lab4_phases_u.csv    the join's phases (search, scan + row count, expand) at n = 2^24,
#   lab4_phases_d4.csv   unique keys and ~4 duplicates; summary lines in lab4_phases.txt
#   lab4_search.csv      sorted search and load-balancing search at n = 2^26 (one run each)
#   lab4_lbs.csv
set -euo pipefail
bin=$1/solution4
out=$2
mkdir -p "$out"
"$bin" --sweep --op merge --reps 10 --csv "$out/lab4_merge.csv"
"$bin" --sweep --op join --join all --dups 1 --reps 10 --csv "$out/lab4_join_u.csv"
"$bin" --sweep --op join --join all --dups 4 --reps 10 --csv "$out/lab4_join_d4.csv"
: >"$out/lab4_phases.txt"
for d in 1 4; do
    tag=$([[ $d == 1 ]] && echo u || echo d4)
    "$bin" --op join --join all --n 2^24 --dups $d --phases --reps 10 \
        --csv "$out/lab4_phases_$tag.csv" | grep '^join phases' | sed "s/^/dups=$d: /" >>"$out/lab4_phases.txt"
done
"$bin" --op search --n 2^26 --reps 10 --csv "$out/lab4_search.csv"
"$bin" --op lbs --n 2^26 --reps 10 --csv "$out/lab4_lbs.csv"
cat "$out/lab4_phases.txt"
