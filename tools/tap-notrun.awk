# tap-notrun.awk (after tools/tap.awk): how many tests of a TAP report were not run
# (skipped), and the first one's reason: "COUNT REASON", or "0" when all ran.
tap_outcome($0) == "notrun" { if (!count++) why = tap_reason($0) }
END { print count + 0 (count ? " " why : "") }
