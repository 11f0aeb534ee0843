# lab4_join_ablation.awk: from a CSV of ablation builds of the fused join (build
# 17, round 18), one join type's share of the copy rate for the committed build
# and for temporary builds that leave parts out (their own pct_of_memcpy is 0:
# their rows are wrong). -v join=TYPE picks the join, -v builds="B1 B2 ... C"
# the builds in bar order, the committed one C last: a build's share is C's share
# x C's time / its time, within the same round (the same bytes counted). One
# line per case: label, then lower,higher over the rounds of each build, and the
# goal, for the cases the ablations ran (lab4_join_ablation.gp: count, nostore,
# b11, inner; lab4_join_right.gp: one, nobw, nob, q4, right).
BEGIN { nbuilds = split(builds, build, " "); committed = build[nbuilds] }
/^#/ || $1 == "lab" || $2 != "join-fused" || $4 != join { next }
{
    c = ($3 == 268435456 ? "2^{28} " : "2^{24} ") ($5 == "unique" ? "unique" : "4 per key")
    if (!(c in seen)) { seen[c] = 1; order[++ncases] = c }
    ms[c SUBSEP $17 SUBSEP $18] = $7
    if ($17 == committed) share[c SUBSEP $18] = $12 / 100
}
function add(c, b, v) {
    if (!((c SUBSEP b) in low) || v < low[c SUBSEP b]) low[c SUBSEP b] = v
    if (!((c SUBSEP b) in high) || v > high[c SUBSEP b]) high[c SUBSEP b] = v
}
END {
    for (k in ms) {
        split(k, f, SUBSEP)
        if ((f[1] SUBSEP f[3]) in share)
            add(f[1], f[2], share[f[1] SUBSEP f[3]] * ms[f[1] SUBSEP committed SUBSEP f[3]] / ms[k])
    }
    for (i = 1; i <= ncases; i++) {
        if (!((order[i] SUBSEP build[1]) in low))
            continue # the committed build alone (the H200's ~4 per key at 2^28): nothing to compare
        line = order[i]
        for (b = 1; b <= nbuilds; b++)
            line = line "," low[order[i] SUBSEP build[b]] "," high[order[i] SUBSEP build[b]]
        print line ",0.30"
    }
}
