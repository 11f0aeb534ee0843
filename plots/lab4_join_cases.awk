# lab4_join_cases.awk: from a CSV of lab4's joins at 2^24 keys with build and round
# columns (variant 2, n 3, type 4, dist 5, param 6, pct_of_memcpy 12, build 17,
# round 18), each join's share of the copy (memcpy of the same bytes, same binary,
# same run) per case: label, then the lower and higher round of each bar, and the
# goal. The bars come from -v bars="VARIANT:BUILD VARIANT:BUILD ..."
# (lab4_join_hot.gp, lab4_join_tile32.gp, lab4_join_lbs32_h100.gp).
/^#/ || $1 == "lab" || $3 != 16777216 { next }
{
    split($6, p, ";")
    c = $5 == "hot" ? "hot" : p[1] # dups=D
    t[$2 SUBSEP $4 SUBSEP c SUBSEP $17 SUBSEP $18] = $12 / 100
}
END {
    nbars = split(bars, bar, " ")
    split("inner left right outer", types, " ")
    split("dups=1 dups=4 dups=16 hot", cases, " ")
    split("unique|4 per key|16 per key|hot key", labels, "|")
    for (d = 1; d <= 4; d++)
        for (k = 1; k <= 4; k++) {
            line = types[k] " " labels[d]
            for (b = 1; b <= nbars; b++) {
                split(bar[b], vb, ":")
                line = line "," round_pair(vb[1] SUBSEP types[k] SUBSEP cases[d] SUBSEP vb[2])
            }
            print line ",0.30"
        }
}
