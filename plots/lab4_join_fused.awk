# lab4_join_fused.awk: from lab4_join_fused.csv (columns: variant 2, type 4, dist 5,
# pct_of_memcpy 12, build 17, round 18), each join's share of the copy (memcpy of
# the same bytes, same binary, same run) per case: label, then the lower and higher
# round of Step 4.4 before (build old), Step 4.4 now and Step 4.5 (build new), and
# the goal.
/^#/ || $1 == "lab" || $1 == "run" { next }
{ t[$2 SUBSEP $4 SUBSEP $5 SUBSEP $17 SUBSEP $18] = $12 / 100 }
function pair(variant, type, dist, build) { return round_pair(variant SUBSEP type SUBSEP dist SUBSEP build) }
END {
    split("inner left right outer", types, " ")
    split("unique dups", dists, " ")
    for (d = 1; d <= 2; d++)
        for (k = 1; k <= 4; k++)
            print types[k] " " (dists[d] == "unique" ? "unique" : "4 per key") "," \
                  pair("join", types[k], dists[d], "old") "," pair("join", types[k], dists[d], "new") "," \
                  pair("join-fused", types[k], dists[d], "new") ",0.30"
}
