# grade.awk (after tools/tap.awk): score Criterion's TAP per suite: the variants'
# suites (labN_vK) and the other steps' suites named in -v steps="..." (the suite
# column of the lab's speed.cfg, e.g. lab3_select for Step 3.6). Input: TAP on stdin;
# -v lab=labN. ok = passed, not ok = failed, a skip = not run (not counted in the
# score); tests --filter left out are ignored.
BEGIN {
    n = split(steps, list, " ")
    for (i = 1; i <= n; i++) step_suite[list[i]] = 1
}
{
    outcome = tap_outcome($0)
    if (outcome == "") next
    name = tap_suite($0)
    if (name !~ "^" lab "_v[0-9]+$" && !(name in step_suite)) next
    seen[name] = 1
    if (outcome == "notrun") {
        skipped[name]++
        if (!(name in reason)) reason[name] = tap_reason($0)
    } else {
        run[name]++
        if (outcome == "pass") passed[name]++
    }
}
END {
    for (s in seen) {
        p = passed[s] + 0; t = run[s] + 0; k = skipped[s] + 0
        if (t == 0)
            line = sprintf("%-10s not run: all %d tests skipped (%s)", s, k, reason[s])
        else {
            line = sprintf("%-10s %3d/%-3d %5.1f%%", s, p, t, 100 * p / t)
            if (k) line = line sprintf("   %d not run (%s)", k, reason[s])
        }
        print line | "sort -V"
        all_p += p; all_t += t; all_k += k
    }
    close("sort -V")
    if (all_t) {
        line = sprintf("%-10s %3d/%-3d %5.1f%%", "total", all_p, all_t, 100 * all_p / all_t)
        if (all_k) line = line sprintf("   (%d tests not run: not counted)", all_k)
        print line
    } else if (all_k)
        printf "%-10s no test ran (%d skipped): no score\n", "total", all_k
}
