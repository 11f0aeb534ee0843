# lab3_lookback_ablation.awk: from lab3_lookback_ablation*.csv (columns: variant 2,
# n 3, type 4, median 7, build 17, round 18), memcpy / tma-pipeline per case, build
# and round. Prints per case: label, then the lower and higher round of the builds
# s0 (shipped), n0 (no look-back) and np (no look-back, no prefetch), and the goal.
/^#/ || $1 == "lab" { next }
{ t[$2 SUBSEP $3 SUBSEP $4 SUBSEP $17 SUBSEP $18] = $7 }
function ratio(n, type, build, r) {
    return t["memcpy" SUBSEP n SUBSEP type SUBSEP build SUBSEP r] / t["tma-pipeline" SUBSEP n SUBSEP type SUBSEP build SUBSEP r]
}
function case_(label, n, type, goal,   b, r1, r2, out) {
    out = label
    split("s0 n0 np", builds, " ")
    for (b = 1; b <= 3; b++) {
        r1 = ratio(n, type, builds[b], 1)
        r2 = ratio(n, type, builds[b], 2)
        out = out "," rounds(r1, r2)
    }
    print out "," goal
}
END {
    case_("int32 2^{24}", 16777216, "i32-excl", 0.90)
    case_("int32 2^{28}", 268435456, "i32-excl", 0.90)
    case_("int64 2^{24}", 16777216, "i64-excl", 0.95)
    case_("int64 2^{28}", 268435456, "i64-excl", 0.95)
}
