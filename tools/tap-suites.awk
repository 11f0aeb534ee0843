# tap-suites.awk (after tools/tap.awk): "SUITE pass|fail|notrun" for every suite of
# a TAP report: fail if any test failed, pass if any passed and none failed, notrun
# if every test was skipped.
{
    outcome = tap_outcome($0)
    if (outcome == "") next
    s = tap_suite($0)
    seen[s] = 1
    if (outcome == "fail") failed[s] = 1
    else if (outcome == "pass") passed[s] = 1
}
END { for (s in seen) print s, (failed[s] ? "fail" : passed[s] ? "pass" : "notrun") }
