# rounds.awk: helpers for the before/after charts whose CSVs carry a build and a
# round column (two rounds per case): load it first, awk -f plots/rounds.awk -f X.awk.
function lo(a, b) { return a < b ? a : b }
function hi(a, b) { return a > b ? a : b }
# Two rounds' values as "lower,higher" (a bar's whiskers).
function rounds(r1, r2) { return lo(r1, r2) "," hi(r1, r2) }
# The two rounds of t[key SUBSEP round] (t: the caller's array of values by
# key and round, the round last) as "lower,higher".
function round_pair(key) { return rounds(t[key SUBSEP 1], t[key SUBSEP 2]) }
