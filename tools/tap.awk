# tap.awk: how the kit reads one line of Criterion's TAP report. Load it before the
# script that uses it: awk -f tools/tap.awk -f SCRIPT (or -f tools/tap.awk 'PROGRAM'
# is not portable: give the program its own file).
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
