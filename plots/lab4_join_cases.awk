# lab4_join_cases.awk: from a CSV of lab4's joins at 2^24 keys with build and round
# columns (variant 2, n 3, type 4, dist 5, param 6, pct_of_memcpy 12, build 17,
# round 18), each join's share of the copy (memcpy of the same bytes, same binary,
# same run) per case: label, then the lower and higher round of each bar, and the
# goal. The bars come from -v bars="VARIANT:BUILD VARIANT:BUILD ...", the cases
# from -v cases="dups=1 dups=4 ..." (default: dups=1 dups=4 dups=16 hot)
# (lab4_join_fused.gp, lab4_join_hot.gp, lab4_join_tile32.gp, lab4_join_lbs32.gp, lab4_join_occupancy.gp,
# lab4_join_flags.gp, lab4_join_prefetch.gp, lab4_join_count_walk.gp, lab4_join_keep_b.gp).
/^#/ || $1 == "lab" || $3 != 16777216 { next }
{
    split($6, p, ";")
    c = $5 == "hot" ? "hot" : p[1] # dups=D
    t[$2 SUBSEP $4 SUBSEP c SUBSEP $17 SUBSEP $18] = $12 / 100
}
END {
    nbars = split(bars, bar, " ")
    split("inner left right outer", types, " ")
    ncases = split(cases == "" ? "dups=1 dups=4 dups=16 hot" : cases, case_of, " ")
    label["dups=1"] = "unique"; label["dups=4"] = "4 per key"; label["dups=16"] = "16 per key"; label["hot"] = "hot key"
    for (d = 1; d <= ncases; d++)
        for (k = 1; k <= 4; k++) {
            line = types[k] " " label[case_of[d]]
            for (b = 1; b <= nbars; b++) {
                split(bar[b], vb, ":")
                line = line "," round_pair(vb[1] SUBSEP types[k] SUBSEP case_of[d] SUBSEP vb[2])
            }
            print line ",0.30"
        }
}
