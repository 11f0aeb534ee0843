# lab4_join_ablation.awk: from lab4_join_ablation*.csv (build 17, round 18), the
# fused inner join's share of the copy rate for the committed build (b11) and for
# the two builds stopped early (count: the count and scan only; nostore: the
# look-back too). Those two write no rows, so their own pct_of_memcpy is 0: their
# share is b11's share x b11's time / their time, within the same round (the same
# bytes counted). One line per case: label, then lower,higher over the rounds of
# count, nostore and b11, and the goal, for the cases the ablations ran
# (lab4_join_ablation.gp).
/^#/ || $1 == "lab" || $2 != "join-fused" || $4 != "inner" { next }
{
    c = ($3 == 268435456 ? "2^{28} " : "2^{24} ") ($5 == "unique" ? "unique" : "4 per key")
    if (!(c in seen)) { seen[c] = 1; order[++ncases] = c }
    ms[c SUBSEP $17 SUBSEP $18] = $7
    if ($17 == "b11") share[c SUBSEP $18] = $12 / 100
}
function add(c, b, v) {
    if (!((c SUBSEP b) in low) || v < low[c SUBSEP b]) low[c SUBSEP b] = v
    if (!((c SUBSEP b) in high) || v > high[c SUBSEP b]) high[c SUBSEP b] = v
}
END {
    split("count nostore b11", builds, " ")
    for (k in ms) {
        split(k, f, SUBSEP)
        if ((f[1] SUBSEP f[3]) in share)
            add(f[1], f[2], share[f[1] SUBSEP f[3]] * ms[f[1] SUBSEP "b11" SUBSEP f[3]] / ms[k])
    }
    for (i = 1; i <= ncases; i++) {
        if (!((order[i] SUBSEP "count") in low))
            continue # b11 alone (the H200's ~4 per key at 2^28): nothing to compare
        line = order[i]
        for (b = 1; b <= 3; b++)
            line = line "," low[order[i] SUBSEP builds[b]] "," high[order[i] SUBSEP builds[b]]
        print line ",0.30"
    }
}
