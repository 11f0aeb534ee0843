# lab3_epochs.awk: from lab3_epochs.csv (columns: variant 2, n 3, type 4, median 7,
# build 17, round 18), the ratio of each case per build and round:
# tma-pipeline = memcpy / tma-pipeline (i32-excl, i64-excl), select-pipeline =
# cub-select / select-pipeline (i32, i64). Prints per case: label, the old build's
# lower and higher round, the new build's, and the goal.
/^#/ || $1 == "lab" { next }
{ t[$2 SUBSEP $3 SUBSEP $4 SUBSEP $17 SUBSEP $18] = $7 }
function case_(label, num, den, n, type, goal,   b, r1, r2, out) {
    out = label
    split("old new", builds, " ")
    for (b = 1; b <= 2; b++) {
        r1 = t[num SUBSEP n SUBSEP type SUBSEP builds[b] SUBSEP 1] / t[den SUBSEP n SUBSEP type SUBSEP builds[b] SUBSEP 1]
        r2 = t[num SUBSEP n SUBSEP type SUBSEP builds[b] SUBSEP 2] / t[den SUBSEP n SUBSEP type SUBSEP builds[b] SUBSEP 2]
        out = out "," rounds(r1, r2)
    }
    print out "," goal
}
END {
    case_("scan i32 2^{24}", "memcpy", "tma-pipeline", 16777216, "i32-excl", 0.90)
    case_("scan i32 2^{28}", "memcpy", "tma-pipeline", 268435456, "i32-excl", 0.90)
    case_("scan i64 2^{24}", "memcpy", "tma-pipeline", 16777216, "i64-excl", 0.95)
    case_("scan i64 2^{28}", "memcpy", "tma-pipeline", 268435456, "i64-excl", 0.95)
    case_("compact i32 2^{24}", "cub-select", "select-pipeline", 16777216, "i32", 1.0)
    case_("compact i32 2^{28}", "cub-select", "select-pipeline", 268435456, "i32", 1.0)
    case_("compact i64 2^{24}", "cub-select", "select-pipeline", 16777216, "i64", 1.0)
    case_("compact i64 2^{28}", "cub-select", "select-pipeline", 268435456, "i64", 1.0)
}
