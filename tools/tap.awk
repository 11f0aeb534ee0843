# tap.awk: how the kit reads Criterion's TAP report.
# As a library, loaded before the script that uses it (awk -f tools/tap.awk -f SCRIPT):
#   tap_outcome(line)  "pass", "fail", "notrun" (a skip: not run, never a pass), or ""
#                      for a line that is no test result, and for a test that --filter
#                      left out (Criterion writes "# SKIP test was skipped" for those)
#   tap_test(line)     "suite::test";  tap_suite(line) "suite";  tap_reason(line) why
#                      a skipped test was not run
function tap_outcome(line) {
    if (line !~ /^(not )?ok /) return ""
    if (line ~ /# SKIP test was skipped$/) return ""
    if (line ~ /^not ok /) return "fail"
    return line ~ /# SKIP/ ? "notrun" : "pass"
}
function tap_test(line,    t) {
    t = line
    sub(/^(not )?ok [0-9]* *- */, "", t)
    sub(/ +[(#].*$/, "", t)
    return t
}
function tap_suite(line,    s) {
    s = tap_test(line)
    sub(/::.*/, "", s)
    return s
}
function tap_reason(line,    w) {
    w = line
    sub(/.*# SKIP */, "", w)
    return w
}

# As a report on its own, awk -v report=KIND -f tools/tap.awk FILE.tap:
#   notrun  "COUNT REASON": how many tests were not run (skipped) and the first
#           one's reason; "0" when all ran (make test)
#   labs    per lab (labN_... suites; "-" for the kit's own): "LAB<TAB>passed<TAB>
#           failed<TAB>not run<TAB>first skip reason<TAB>failed tests separated by
#           |" (student-tests.sh)
report != "" {
    tap_o = tap_outcome($0)
    if (tap_o == "") next
    tap_s = tap_suite($0)
    if (report == "notrun") {
        if (tap_o == "notrun" && !tap_notrun_count++) tap_notrun_why = tap_reason($0)
    } else if (report == "labs") {
        tap_l = match(tap_s, /^lab[0-9]+/) ? substr(tap_s, 4, RLENGTH - 3) : "-"
        tap_labs[tap_l] = 1
        if (tap_o == "notrun") { tap_skipped[tap_l]++; if (!(tap_l in tap_why)) tap_why[tap_l] = tap_reason($0) }
        else if (tap_o == "pass") tap_passed[tap_l]++
        else { tap_failed[tap_l]++; tap_names[tap_l] = tap_names[tap_l] "|" tap_test($0) }
    }
}
END {
    if (report == "notrun")
        print tap_notrun_count + 0 (tap_notrun_count ? " " tap_notrun_why : "")
    else if (report == "labs")
        for (tap_l in tap_labs) printf "%s\t%d\t%d\t%d\t%s\t%s\n", tap_l, tap_passed[tap_l], tap_failed[tap_l], tap_skipped[tap_l], tap_why[tap_l], tap_names[tap_l]
    else if (report != "")
        { print "tap.awk: report is notrun or labs (got '" report "')" > "/dev/stderr"; exit 2 }
}
