# lab4_join_hot.awk: from lab4_join_hot*.csv (columns: variant 2, type 4, dist 5,
# param 6, pct_of_memcpy 12, build 17, round 18), each join's share of the copy
# (memcpy of the same bytes, same binary, same run) per case: label, then the lower
# and higher round of Step 4.4, of Step 4.5 with sharing turned off (build noshare)
# and of Step 4.5 as committed (build new), and the goal.
/^#/ || $1 == "lab" { next }
{
    split($6, p, ";")
    c = $5 == "hot" ? "hot" : p[1] # dups=D
    t[$2 SUBSEP $4 SUBSEP c SUBSEP $17 SUBSEP $18] = $12 / 100
}
function pair(variant, type, c, build) { return round_pair(variant SUBSEP type SUBSEP c SUBSEP build) }
END {
    split("inner left right outer", types, " ")
    split("dups=1 dups=4 dups=16 hot", cases, " ")
    split("unique|4 per key|16 per key|hot key", labels, "|")
    for (d = 1; d <= 4; d++)
        for (k = 1; k <= 4; k++)
            print types[k] " " labels[d] "," pair("join", types[k], cases[d], "new") "," \
                  pair("join-fused", types[k], cases[d], "noshare") "," \
                  pair("join-fused", types[k], cases[d], "new") ",0.30"
}
