# student-tests.awk (after tools/tap.awk): per lab of a TAP report (labN_... suites;
# "-" for the kit's own), "LAB<TAB>passed<TAB>failed<TAB>not run<TAB>first skip
# reason<TAB>failed tests separated by |", for tools/student-tests.sh.
{
    outcome = tap_outcome($0)
    if (outcome == "") next
    group = tap_suite($0)
    if (match(group, /^lab[0-9]+/)) lab = substr(group, 4, RLENGTH - 3); else lab = "-"
    labs[lab] = 1
    if (outcome == "notrun") { skipped[lab]++; if (!(lab in why)) why[lab] = tap_reason($0) }
    else if (outcome == "pass") passed[lab]++
    else { failed[lab]++; names[lab] = names[lab] "|" tap_test($0) }
}
END { for (l in labs) printf "%s\t%d\t%d\t%d\t%s\t%s\n", l, passed[l], failed[l], skipped[l], why[l], names[l] }
