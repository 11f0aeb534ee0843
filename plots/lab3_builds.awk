# lab3_builds.awk: from a lab3 CSV with build and round columns (variant 2, n 3,
# type 4, median 7, build 17, round 18), memcpy / tma-pipeline per case, build and
# round. -v groups="A B+C ...": one bar per group, a group's rounds being those of
# all its builds ("+": builds with the same kernel). Prints per case: label, then
# mean, lowest and highest round of each group (0 0 0 where it has none), then the
# goal. Rows without a time (status ERROR) are left out.
/^#/ || $1 == "lab" { next }
$2 == "memcpy" { copy[$3 SUBSEP $4 SUBSEP $17 SUBSEP $18] = $7; next }
$2 == "tma-pipeline" && $7 + 0 > 0 { scan[$3 SUBSEP $4 SUBSEP $17 SUBSEP $18] = $7 }
function case_(label, n, type, goal,   g, b, k, key, parts, r, sum, count, lo, hi, out) {
    out = label
    for (g = 1; g <= ngroups; g++) {
        split(group[g], members, "+")
        sum = 0; count = 0; lo = 0; hi = 0
        for (key in scan) {
            split(key, parts, SUBSEP)
            if (parts[1] != n || parts[2] != type) continue
            for (b in members) if (parts[3] == members[b]) {
                r = copy[key] / scan[key]
                sum += r; count++
                if (count == 1 || r < lo) lo = r
                if (count == 1 || r > hi) hi = r
            }
        }
        out = out "," (count ? sum / count : 0) "," lo "," hi
    }
    print out "," goal
}
END {
    ngroups = split(groups, group, " ")
    case_("int32 2^{24}", 16777216, "i32-excl", 0.90)
    case_("int32 2^{28}", 268435456, "i32-excl", 0.90)
    case_("int64 2^{24}", 16777216, "i64-excl", 0.95)
    case_("int64 2^{28}", 268435456, "i64-excl", 0.95)
}
