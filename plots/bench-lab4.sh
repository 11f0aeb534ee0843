#!/usr/bin/env bash
# bench-lab4.sh BINDIR OUTDIR [pairs]: lab4's measurements (with "pairs": only the last two).
#   lab4_merge.csv       merge: naive-merge, merge-path, cub and memcpy, n = 2^10..2^28 total keys
#                        (|A| = |B|; the bars use n = 2^26)
#   lab4_join_u.csv      inner/left/right/outer joins, unique keys, n = 2^10..2^24 rows in A + B
#   lab4_join_d4.csv     the same with about 4 rows per key
#   lab4_phases_u.csv    the join's phases (search + count + scan, partition, expand) at n = 2^24,
#   lab4_phases_d4.csv   unique keys and ~4 duplicates; summary lines in lab4_phases.txt
#   lab4_search.csv      sorted search and load-balancing search at n = 2^26 (one run each)
#   lab4_lbs.csv
#   lab4_keys_2_K.csv    the merge of keys alone (cub: MergeKeys) and of key-value pairs
#   lab4_pairs_2_K.csv   (--pairs, cub: MergePairs), K = 24 and 28, in one session;
#                        summary lines (merge-path vs cub) in lab4_pairs.txt
set -euo pipefail
bin=$1/solution4
out=$2
mkdir -p "$out"

# One line per CSV: merge-path's and cub's GB/s and status, and cub's time over merge-path's.
summary() {
    awk -F, -v what="$1" '
        /^#/ { next }
        $1 == "lab" { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { ms[$2] = $col["median_ms"]; gbs[$2] = $col["gbytes_s"]; st[$2] = $col["status"] }
        END { printf "%s: merge-path %.0f GB/s (%s), cub %.0f GB/s (%s), merge-path / cub %.2f\n",
                     what, gbs["merge-path"], st["merge-path"], gbs["cub"], st["cub"],
                     (ms["merge-path"] > 0 ? ms["cub"] / ms["merge-path"] : 0) }' "$2"
}

pairs_against_keys() {
    : >"$out/lab4_pairs.txt"
    for k in 24 28; do
        "$bin" --op merge --n 2^$k --reps 10 --csv "$out/lab4_keys_2_$k.csv" >/dev/null
        # the first line names the GPU, as in every CSV
        [[ -s $out/lab4_pairs.txt ]] || head -1 "$out/lab4_keys_2_$k.csv" >"$out/lab4_pairs.txt"
        summary "n=2^$k keys " "$out/lab4_keys_2_$k.csv" >>"$out/lab4_pairs.txt"
        "$bin" --op merge --pairs --n 2^$k --reps 10 --csv "$out/lab4_pairs_2_$k.csv" >/dev/null
        summary "n=2^$k pairs" "$out/lab4_pairs_2_$k.csv" >>"$out/lab4_pairs.txt"
    done
    cat "$out/lab4_pairs.txt"
}

if [[ ${3:-} == pairs ]]; then
    pairs_against_keys
    exit 0
fi
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
pairs_against_keys
