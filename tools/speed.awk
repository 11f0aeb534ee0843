# speed.awk: the speed score of each step (make grade, tools/speed.sh).
#
#   awk -f speed.awk [-v mode=table|tsv] [-v gate=1] SPEED.CFG TIMINGS CORRECTNESS
#
# SPEED.CFG    the lab's table: step row suite full zero [driver flags...]
# TIMINGS      one line per driver run and step: who step run status ms [clock_ms]
#              (who: you | ref; status: PASS, FAIL, TODO, ERROR, MISSING...; ms: the
#              row's median time by the driver's CUDA events, "-" when there is none;
#              clock_ms: the same runs on the grader's clock, tools/grade/race.c)
# CORRECTNESS  one line per suite of the correctness run: suite pass|fail|notrun
#              (with gate=1 a step scores speed only when its suite passed)
#
# Per step: each side's time is the median over its runs; ratio = yours / the
# reference's; score 1 while ratio <= full, 0 from ratio >= zero, linear between.
# A run of yours that is not PASS (a wrong result, TODO, an error, no such row)
# makes the step's score 0; a reference that is not PASS leaves it unscored.
# With the grader's clock: the events leave out of each run what both drivers do
# alike (reset, L2 flush, launch); when they leave out more of yours than of the
# reference's (by over 10% of its clock + 0.02 ms), your driver's timing is not
# trusted and the step scores 0.
# mode=tsv prints: step row suite full zero you_ms ref_ms ratio score reason
# (score "n/a" when unscored); mode=table (default) a table for people, and the
# mean score of the scored steps. Exit status 2 on a malformed table.

function fail(msg) { printf "speed: %s\n", msg > "/dev/stderr"; bad = 1; exit 2 }
function number(s) { return s ~ /^[0-9]+\.?[0-9]*([eE][-+]?[0-9]+)?$/ }

# Median of the n values in v[1..n] (sorted in place).
function median(v, n,    i, j, x) {
    for (i = 2; i <= n; i++) {
        x = v[i]
        for (j = i - 1; j >= 1 && v[j] > x; j--) v[j + 1] = v[j]
        v[j + 1] = x
    }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

function why_not(status) {
    if (status == "FAIL") return "wrong result"
    if (status == "TODO") return "still TODO"
    if (status == "MISSING") return "no such row in your driver (see --list)"
    if (status == "ERROR") return "CUDA error or refused flags (exit 2)"
    if (status == "TIMEOUT") return "did not finish in time"
    return "did not run (" status ")"
}

FILENAME == ARGV[1] {
    if ($0 ~ /^[ \t]*(#|$)/ || $1 == "speed-weight") next
    if (NF < 5) fail(sprintf("%s:%d: need: step row suite full zero [flags]", FILENAME, FNR))
    if (!number($4) || !number($5) || $4 + 0 < 1 || $5 + 0 <= $4 + 0)
        fail(sprintf("%s:%d: full (%s) and zero (%s) must be factors with 1 <= full < zero", FILENAME, FNR, $4, $5))
    if ($1 in row_of) fail(sprintf("%s:%d: step %s listed twice", FILENAME, FNR, $1))
    steps[++nsteps] = $1
    row_of[$1] = $2; suite_of[$1] = $3; full[$1] = $4 + 0; zero[$1] = $5 + 0
    next
}
FILENAME == ARGV[2] {
    who = $1; s = $2
    if (!(s in row_of)) next
    if ($4 != "PASS" || !number($5)) {
        if (!((who, s) in broken)) broken[who, s] = $4 == "PASS" ? "MISSING" : $4
        next
    }
    times[who, s, ++count[who, s]] = $5 + 0
    if (NF >= 6 && number($6)) clocks[who, s, ++clock_count[who, s]] = $6 + 0
    next
}
{ correct[$1] = $2 }

function score_step(s,    v, i, n) {
    you_ms[s] = ref_ms[s] = ratio[s] = "-"
    if ((("ref", s) in broken) || !count["ref", s]) {
        score[s] = "n/a"
        reason[s] = "the reference " (("ref", s) in broken ? "did not run cleanly (" broken["ref", s] ")" : "was not timed")
        if (broken["ref", s] ~ /^NEEDS_[0-9]+_GPUS$/) {
            split(broken["ref", s], need, "_")
            reason[s] = "not run: the row needs " need[2] " GPUs, this machine has fewer"
        }
        return
    }
    n = count["ref", s]
    for (i = 1; i <= n; i++) v[i] = times["ref", s, i]
    ref_ms[s] = median(v, n)
    if (("you", s) in broken) { score[s] = 0; reason[s] = why_not(broken["you", s]); return }
    if (!count["you", s]) { score[s] = 0; reason[s] = "not timed"; return }
    n = count["you", s]
    for (i = 1; i <= n; i++) v[i] = times["you", s, i]
    you_ms[s] = median(v, n)
    ratio[s] = ref_ms[s] > 0 ? you_ms[s] / ref_ms[s] : 0
    if (clock_count["you", s] && clock_count["ref", s]) {
        left_out = side_clock("you", s) - you_ms[s] - (side_clock("ref", s) - ref_ms[s])
        if (left_out > 0.1 * side_clock("ref", s) + 0.02) {
            score[s] = 0
            reason[s] = sprintf("your driver's timing is not trusted: its events leave out %.3f ms a run more of the grader's clock than the reference's", left_out)
            return
        }
    }
    if (gate && correct[suite_of[s]] != "pass") {
        score[s] = 0
        reason[s] = "correctness tests " (correct[suite_of[s]] == "fail" ? "failed" : "did not run") " (" suite_of[s] ")"
        return
    }
    if (ratio[s] <= full[s]) score[s] = 1
    else if (ratio[s] >= zero[s]) score[s] = 0
    else score[s] = (zero[s] - ratio[s]) / (zero[s] - full[s])
    reason[s] = sprintf("%.2fx the reference's time", ratio[s])
}

function side_clock(who, s,    v, i) {
    for (i = 1; i <= clock_count[who, s]; i++) v[i] = clocks[who, s, i]
    return median(v, clock_count[who, s])
}

function ms(x) { return x == "-" ? "-" : sprintf("%.4f", x) }

END {
    if (bad) exit 2
    if (!nsteps) fail(ARGV[1] ": no steps")
    for (i = 1; i <= nsteps; i++) score_step(steps[i])
    if (mode == "tsv") {
        for (i = 1; i <= nsteps; i++) {
            s = steps[i]
            printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", s, row_of[s], suite_of[s], full[s], zero[s], ms(you_ms[s]),
                ms(ref_ms[s]), ratio[s] == "-" ? "-" : sprintf("%.3f", ratio[s]),
                score[s] == "n/a" ? "n/a" : sprintf("%.4f", score[s]), reason[s]
        }
        exit 0
    }
    printf "%-6s %-22s %10s %10s %7s %5s %5s %7s  %s\n", "step", "row", "you_ms", "ref_ms", "ratio", "full", "zero", "speed", ""
    for (i = 1; i <= nsteps; i++) {
        s = steps[i]
        printf "%-6s %-22s %10s %10s %7s %5.2g %5.2g %7s  %s\n", s, row_of[s], ms(you_ms[s]), ms(ref_ms[s]),
            ratio[s] == "-" ? "-" : sprintf("%.2fx", ratio[s]), full[s], zero[s],
            score[s] == "n/a" ? "n/a" : sprintf("%.1f%%", 100 * score[s]), score[s] == 1 ? "" : reason[s]
        if (score[s] != "n/a") { total += score[s]; scored++ }
    }
    if (scored)
        printf "%-6s %-22s %10s %10s %7s %5s %5s %7s  %s\n", "total", "", "", "", "", "", "",
            sprintf("%.1f%%", 100 * total / scored), scored < nsteps ? sprintf("(mean of the %d scored steps)", scored) : "(mean of the steps)"
}
