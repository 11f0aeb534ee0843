# report.awk: the reports of a grade, from the verdicts of every test case and the
# speed of every row (make grade, make grade-submission).
#
#   awk -v out=DIR -f tools/grade/report.awk TABLE RESULTS SPEED META
#
# TABLE    the lab's speed.cfg: "step row suite full zero [flags]" lines name the
#          steps a student writes and their suites; "speed-weight W" the share of
#          the grade that speed carries (default 0.2)
# RESULTS  one line per test case: suite, test, case, pass|fail|notrun, message (tabs)
# SPEED    tools/speed.awk's tsv: step row suite full zero you_ms ref_ms ratio score reason
# META     key=value lines: lab, title (what graded), version, gpu, reference,
#          isolation, speed (why not measured, if it was not), handed (file<TAB>where
#          from), ignored (file<TAB>why), not_graded (the reason nothing was graded)
#
# Writes DIR/results.json (Gradescope), DIR/junit.xml, DIR/results.tap and
# DIR/summary.txt; exit status 2 when nothing could be graded. A step scores its cases passed / run (a case not
# run counts neither way; one left out of the grading selection is not listed),
# and 0 while its code still answers TODO in any case (the starter's code passes
# the empty input: an unfinished step earns nothing for it); a case of one step's
# suite that also runs another step's code (lab 3's epochs check runs Step 3.5)
# and gets TODO from that step is not counted for its own step;
# its speed is the mean of its rows' scores, and zero unless every case passed. The
# grade, out of 100: (1 - W) x the mean correctness of the steps + W x their mean
# speed, over the steps that could be graded; without any speed measured, the
# correctness alone.
function jesc(s) {
    gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); gsub(/\t/, "\\t", s); gsub(/\r/, "", s); gsub(/\n/, "\\n", s)
    return s
}
function xesc(s) {
    gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
    return s
}
function step_of(key,    s) { s = key; sub(/[^0-9.].*$/, "", s); return s }
function num(x) { return sprintf("%.2f", x) }

FILENAME == ARGV[1] {
    if ($0 ~ /^[ \t]*(#|$)/) next
    if ($1 == "speed-weight") { weight = $2 + 0; weight_set = 1; next }
    s = step_of($1)
    if (!(s in suite_of)) { steps[++nsteps] = s; suite_of[s] = $3 }
    next
}
FILENAME == ARGV[2] {
    split($0, f, "\t")
    if (f[4] == "notrun" && f[5] ~ /KIT_TEST_BIG=0/) { left_out++; next }  # not in the grading selection
    name = f[1] "/" f[2] (f[3] != f[2] ? "/" f[3] : "")
    if (f[4] == "fail" && f[5] ~ /not implemented yet \(TODO\)/) { # KIT_TEST_FAIL_TODO's words
        todo = match(f[5], /Step [0-9]+\.[0-9]+ \(/) ? substr(f[5], RSTART + 5, RLENGTH - 7) : ""
        if (todo in suite_of && suite_of[todo] != f[1]) { # a case that runs another step's code too
            u = suite_of[todo]; unfinished[u] = 1
            if (!(u in first_fail)) first_fail[u] = name ": " f[5]
            f[4] = "notrun"; f[5] = "needs Step " todo ", which is not finished: " f[5]
        } else unfinished[f[1]] = 1
    }
    n = ++cases; c_suite[n] = f[1]; c_name[n] = name; c_out[n] = f[4]; c_msg[n] = f[5]
    if (f[4] == "pass") passed[f[1]]++
    if (f[4] != "notrun") ran[f[1]]++
    else if (!notrun[f[1]]++) first_notrun[f[1]] = name ": " f[5]
    if (f[4] == "fail" && !(f[1] in first_fail)) first_fail[f[1]] = name ": " f[5]
    next
}
FILENAME == ARGV[3] {
    split($0, f, "\t")
    r = ++rows; r_key[r] = f[1]; r_row[r] = f[2]; r_step[r] = step_of(f[1]); r_you[r] = f[6]; r_ref[r] = f[7]
    r_ratio[r] = f[8]; r_score[r] = f[9]; r_why[r] = f[10]
    next
}
FILENAME == ARGV[4] {
    k = $0; sub(/=.*/, "", k); v = $0; sub(/^[^=]*=/, "", v)
    if (k == "handed" || k == "ignored") list[k, ++listed[k]] = v
    else meta[k] = v
    next
}

END {
    if (!weight_set) weight = 0.2
    lab = meta["lab"]
    header = meta["title"] "\n" "kit " meta["version"] "; GPU: " meta["gpu"] "; reference: " meta["reference"]
    if (meta["isolation"] != "") header = header "\nsubmission's code ran as: " meta["isolation"]
    if (meta["not_graded"] != "") { not_graded(meta["not_graded"]); exit 2 }

    # correctness and speed of each step
    for (i = 1; i <= nsteps; i++) {
        s = steps[i]; u = suite_of[s]
        c_ok[s] = ran[u] > 0
        c_frac[s] = c_ok[s] && !(u in unfinished) ? passed[u] / ran[u] : 0
        sp_n[s] = 0; sp_sum[s] = 0
    }
    for (r = 1; r <= rows; r++) {
        s = r_step[r]
        if (r_score[r] == "n/a" || !(s in suite_of)) continue
        sp_n[s]++
        sp_sum[s] += (c_ok[s] && c_frac[s] == 1) ? r_score[r] : 0
    }
    graded_c = graded_s = 0
    for (i = 1; i <= nsteps; i++) { s = steps[i]; graded_c += c_ok[s]; graded_s += sp_n[s] > 0 }
    w = graded_s ? weight : 0
    total = 0
    for (i = 1; i <= nsteps; i++) {
        s = steps[i]
        c_max[s] = c_ok[s] ? 100 * (1 - w) / graded_c : 0
        c_pts[s] = c_max[s] * c_frac[s]
        s_max[s] = sp_n[s] ? 100 * w / graded_s : 0
        s_frac[s] = sp_n[s] ? sp_sum[s] / sp_n[s] : 0
        s_pts[s] = s_max[s] * s_frac[s]
        total += c_pts[s] + s_pts[s]
    }
    if (!graded_c) { not_graded("no test case of a step ran (" (left_out ? left_out " left out of the grading selection; " : "") "see the worker's logs)"); exit 2 }

    summary(); gradescope(); junit(); tap()
}

function speed_note() {
    if (meta["speed"] != "") return "speed not measured: " meta["speed"]
    if (!graded_s) return "speed not measured for any step"
    return sprintf("speed %d%% of the grade", 100 * weight + 0.5)
}

function step_output(s,    u, t, text, n) {
    u = suite_of[s]
    text = sprintf("%d of %d cases passed", passed[u], ran[u])
    if (u in unfinished) text = text " (a case answered TODO: the step is not finished and scores 0)"
    if (notrun[u]) text = text sprintf(", %d not run (not counted)", notrun[u])
    n = 0
    for (t = 1; t <= cases; t++)
        if (c_suite[t] == u && c_out[t] == "fail" && n++ < 20) text = text "\nFAILED " c_name[t] ": " c_msg[t]
    if (n > 20) text = text sprintf("\n... and %d more", n - 20)
    return text
}

function speed_output(s,    r, text) {
    text = ""
    for (r = 1; r <= rows; r++) {
        if (r_step[r] != s) continue
        if (r_score[r] == "n/a") text = text sprintf("%s (%s): not measured: %s\n", r_key[r], r_row[r], r_why[r])
        else text = text sprintf("%s (%s): you %s ms, reference %s ms, speed %d%%: %s\n", r_key[r], r_row[r], r_you[r],
                                  r_ref[r], 100 * r_score[r] + 0.5, r_why[r])
    }
    if (sp_n[s] && !(c_ok[s] && c_frac[s] == 1)) text = text "speed counts only once every case of the step passes\n"
    return text
}

function summary(    f, i, s, k) {
    f = out "/summary.txt"
    printf "%s\n%s\n\n", header, speed_note() > f
    printf "%-6s %-22s %15s %9s %8s %9s\n", "step", "suite", "cases", "correct", "speed", "points" > f
    for (i = 1; i <= nsteps; i++) {
        s = steps[i]
        printf "%-6s %-22s %15s %9s %8s %9s\n", s, suite_of[s],
            c_ok[s] ? sprintf("%d/%d", passed[suite_of[s]], ran[suite_of[s]]) : "none ran",
            c_ok[s] ? sprintf("%.1f%%", 100 * c_frac[s]) : "-", sp_n[s] ? sprintf("%.1f%%", 100 * s_frac[s]) : "-",
            num(c_pts[s] + s_pts[s]) > f
    }
    printf "%-6s %58s\n", "total", sprintf("%.2f / 100", total) > f
    if (left_out) printf "(%d cases past the grading selection's sizes are left to make test)\n", left_out > f
    for (i = 1; i <= nsteps; i++) {
        s = steps[i]
        if (suite_of[s] in unfinished) printf "%s is not finished: a case answered TODO, so the step scores 0\n", s > f
        if (c_ok[s] && c_frac[s] < 1) printf "first failure of %s: %s\n", s, first_fail[suite_of[s]] > f
        if (notrun[suite_of[s]]) printf "%s: %d cases not run here, not counted (the first: %s)\n", s,
            notrun[suite_of[s]], first_notrun[suite_of[s]] > f
    }
    for (k = 1; k <= listed["handed"]; k++) printf "handed in: %s\n", list["handed", k] > f
    for (k = 1; k <= listed["ignored"]; k++) printf "ignored: %s\n", list["ignored", k] > f
    close(f)
}

function gradescope(    f, i, s, first) {
    f = out "/results.json"
    printf "{\n  \"score\": %s,\n  \"output\": \"%s\",\n  \"visibility\": \"visible\",\n  \"stdout_visibility\": \"hidden\",\n", num(total),
        jesc(header "\n" speed_note()) > f
    printf "  \"extra_data\": {\"lab\": \"%s\", \"kit_version\": \"%s\", \"gpu\": \"%s\", \"reference\": \"%s\", \"speed_weight\": %s},\n",
        jesc(lab), jesc(meta["version"]), jesc(meta["gpu"]), jesc(meta["reference"]), w > f
    printf "  \"tests\": [" > f
    first = 1
    for (i = 1; i <= nsteps; i++) {
        s = steps[i]
        gs_test(f, first, "Step " s " correctness (" suite_of[s] ")", s, c_pts[s], c_max[s],
                c_ok[s] ? step_output(s) : "not graded: none of its cases ran")
        first = 0
        gs_test(f, 0, "Step " s " speed", s, s_pts[s], s_max[s],
                speed_output(s) (sp_n[s] ? "" : "not graded: " (meta["speed"] != "" ? meta["speed"] : "no row measured")))
    }
    printf "\n  ]\n}\n" > f
    close(f)
}
function gs_test(f, first, name, number, score, max, output) {
    printf "%s\n    {\"name\": \"%s\", \"number\": \"%s\", \"score\": %s, \"max_score\": %s, \"visibility\": \"visible\", \"output\": \"%s\"}",
        first ? "" : ",", jesc(name), number, num(score), num(max), jesc(output) > f
}

function junit(    f, i, s, u, t, fails, skips, n, r) {
    f = out "/junit.xml"
    printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"%s\" tests=\"%d\">\n", xesc(lab), cases + rows > f
    for (i = 1; i <= nsteps; i++) {
        s = steps[i]; u = suite_of[s]; fails = skips = n = 0
        for (t = 1; t <= cases; t++)
            if (c_suite[t] == u) { n++; fails += c_out[t] == "fail"; skips += c_out[t] == "notrun" }
        printf "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\">\n", xesc(u), n, fails, skips > f
        junit_properties(f, s, c_pts[s], c_max[s])
        for (t = 1; t <= cases; t++) {
            if (c_suite[t] != u) continue
            printf "    <testcase classname=\"%s\" name=\"%s\"", xesc(u), xesc(substr(c_name[t], length(u) + 2)) > f
            if (c_out[t] == "pass") printf "/>\n" > f
            else if (c_out[t] == "fail") printf ">\n      <failure message=\"%s\"/>\n    </testcase>\n", xesc(c_msg[t]) > f
            else printf ">\n      <skipped message=\"%s\"/>\n    </testcase>\n", xesc(c_msg[t]) > f
        }
        printf "  </testsuite>\n" > f
    }
    # Speed is points, not a pass or a failure: each row a test case with its points.
    printf "  <testsuite name=\"%s_speed\" tests=\"%d\" failures=\"0\" errors=\"0\" skipped=\"%d\">\n", xesc(lab), rows, speed_skips() > f
    junit_properties(f, "", 0, 0)
    for (r = 1; r <= rows; r++) {
        printf "    <testcase classname=\"%s_speed\" name=\"%s\">\n", xesc(lab), xesc(r_key[r] " " r_row[r]) > f
        if (r_score[r] == "n/a") printf "      <skipped message=\"%s\"/>\n", xesc("not measured: " r_why[r]) > f
        else {
            printf "      <properties><property name=\"speed\" value=\"%s\"/><property name=\"you_ms\" value=\"%s\"/>", r_score[r], r_you[r] > f
            printf "<property name=\"reference_ms\" value=\"%s\"/></properties>\n", r_ref[r] > f
            printf "      <system-out>%s</system-out>\n", xesc(row_line(r)) > f
        }
        printf "    </testcase>\n" > f
    }
    printf "  </testsuite>\n</testsuites>\n" > f
    close(f)
}
function junit_properties(f, s, pts, max) {
    printf "    <properties><property name=\"kit_version\" value=\"%s\"/><property name=\"gpu\" value=\"%s\"/>", xesc(meta["version"]), xesc(meta["gpu"]) > f
    printf "<property name=\"reference\" value=\"%s\"/>", xesc(meta["reference"]) > f
    if (s != "") printf "<property name=\"step\" value=\"%s\"/><property name=\"points\" value=\"%s\"/><property name=\"max_points\" value=\"%s\"/>", s, num(pts), num(max) > f
    printf "</properties>\n" > f
}
function speed_skips(    r, k) { k = 0; for (r = 1; r <= rows; r++) k += r_score[r] == "n/a"; return k }
function row_line(r) {
    return sprintf("step %s: speed %d%% (you %s ms, reference %s ms; %s)", r_key[r], 100 * r_score[r] + 0.5, r_you[r], r_ref[r], r_why[r])
}

function tap(    f, t, r, n, line) {
    f = out "/results.tap"
    printf "TAP version 13\n1..%d\n", cases + rows > f
    n = split(header, line, "\n")
    for (t = 1; t <= n; t++) printf "# %s\n", line[t] > f
    printf "# grade: %s / 100 (%s)\n", num(total), speed_note() > f
    n = 0
    for (t = 1; t <= cases; t++) {
        if (c_out[t] == "pass") printf "ok %d - %s\n", ++n, c_name[t] > f
        else if (c_out[t] == "fail") printf "not ok %d - %s\n  ---\n  message: \"%s\"\n  ...\n", ++n, c_name[t], jesc(c_msg[t]) > f
        else printf "ok %d - %s # SKIP %s\n", ++n, c_name[t], c_msg[t] > f
    }
    # Speed is points: a measured row is "ok" with its speed; one not measured is a skip.
    for (r = 1; r <= rows; r++) {
        if (r_score[r] == "n/a") printf "ok %d - %s_speed/%s # SKIP not measured: %s\n", ++n, lab, r_key[r], r_why[r] > f
        else printf "ok %d - %s_speed/%s # %s\n  ---\n  speed: %s\n  you_ms: %s\n  reference_ms: %s\n  ...\n", ++n, lab, r_key[r],
            row_line(r), r_score[r], r_you[r], r_ref[r] > f
    }
    close(f)
}

# Nothing could be graded (no GPU, ...): every format says so in its own shape.
function not_graded(why,    f) {
    f = out "/results.json"
    printf "{\n  \"score\": 0,\n  \"output\": \"NOT GRADED: %s\\n%s\",\n  \"visibility\": \"visible\",\n  \"tests\": [],\n", jesc(why), jesc(header) > f
    printf "  \"extra_data\": {\"graded\": false, \"reason\": \"%s\", \"lab\": \"%s\", \"kit_version\": \"%s\"}\n}\n", jesc(why), jesc(lab), jesc(meta["version"]) > f
    close(f)
    f = out "/junit.xml"
    printf "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"%s\" tests=\"1\" errors=\"1\">\n", xesc(lab) > f
    printf "  <testsuite name=\"%s\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\">\n", xesc(lab) > f
    printf "    <testcase classname=\"%s\" name=\"graded\">\n      <error message=\"%s\"/>\n    </testcase>\n", xesc(lab), xesc("not graded: " why) > f
    printf "  </testsuite>\n</testsuites>\n" > f
    close(f)
    f = out "/results.tap"
    printf "TAP version 13\n1..0 # SKIP not graded: %s\n", why > f
    close(f)
    f = out "/summary.txt"
    printf "%s\nNOT GRADED: %s\n", header, why > f
    close(f)
}
