#!/usr/bin/env bash
# speed.sh: the speed part of make grade, and the reference it compares with.
#
# speed.sh grade LAB FORMAT STUDENT REFERENCE REPORT
#     Time each step of the lab's speed table (labN-*/speed.cfg) with the student's
#     driver and the reference's, alternating, SPEED_RUNS times (default 3), and score
#     it with tools/speed.awk. REPORT is the correctness run's Criterion report in
#     FORMAT: a step whose suite did not pass scores zero speed.
#     score: prints a table.  tap | json | xml: prints REPORT with the speed scores
#     added as one more suite, labN_speed (one test per step, its score attached).
#     SPEED_RUNS=K runs per side; SPEED_TABLE=FILE another table (the tests use it).
# speed.sh steps LAB
#     The suites of the lab's steps (the table's suite column), one per line; none
#     when the lab has no speed table. make grade scores these next to labN_vK.
# speed.sh reference-lib LAB
#     In a student copy: the reference objects `make dist` shipped for this GPU
#     (reference/sm_XY/liblabN.a), or a clear error when none was built for it.
set -uo pipefail
here=$(dirname "$0")
die() { echo "speed: $*" >&2; exit 2; }

gpu_sm() { # the compute capability of GPU 0 as sm_XY
    local cc
    cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null | head -1 | tr -d ' .')
    [[ $cc =~ ^[0-9]+$ ]] && echo "sm_$cc"
}

reference_lib() {
    local lab=$1 sm lib built
    sm=$(gpu_sm) || die "cannot read the GPU's compute capability (nvidia-smi --query-gpu=compute_cap)"
    lib=reference/$sm/liblab$lab.a
    if [[ ! -f $lib ]]; then
        built=$(ls -d reference/sm_* 2>/dev/null | sed 's|reference/||' | paste -sd ' ')
        die "this GPU is $sm, but the reference for the speed score was built for: ${built:-nothing}." \
            "Ask your instructor for a copy made with: make dist REF_ARCH=\"$sm ...\""
    fi
    local want have
    want=$(sed -n 's/^nvcc=//p' reference/BUILD-INFO 2>/dev/null)
    have=$(nvcc --version 2>/dev/null | sed -n 's/.*release \([0-9.]*\).*/\1/p')
    [[ -z $want || -z $have || ${want%%.*} == "${have%%.*}" ]] ||
        die "the reference was compiled with CUDA $want, your nvcc is CUDA $have: the major versions must match"
    echo "$lib"
}

# suite pass|fail|notrun for every suite of a Criterion report in tap, json or xml.
correctness() {
    local format=$1 report=$2
    case $format in
    tap | score) awk -v report=suites -f "$here/tap.awk" "$report" ;;
    json) awk '
        /^    {/ { s = "" }
        /^      "name": / { s = $2; gsub(/[",]/, "", s) }
        /^      "(passed|failed|errored)": / { k = $1; gsub(/[":]/, "", k); v[k] = $2 + 0 }
        /^      "tests": / && s != "" { print s, ((v["failed"] + v["errored"]) ? "fail" : v["passed"] ? "pass" : "notrun") }' \
        "$report" ;;
    xml) awk '
        /<testsuite / {
            s = $0; sub(/.* name="/, "", s); sub(/".*/, "", s)
            t = attr("tests"); f = attr("failures") + attr("errors"); k = attr("skipped") + attr("disabled")
            print s, (f ? "fail" : t > k ? "pass" : "notrun")
        }
        function attr(a,    x) { x = $0; if (!sub(".* " a "=\"", "", x)) return 0; sub(/".*/, "", x); return x + 0 }' \
        "$report" ;;
    esac
}

# run_one WHO BIN STEP RUN ROW FLAGS...: one driver run; appends "who step run status ms".
run_one() {
    local who=$1 bin=$2 step=$3 run=$4 row=$5
    shift 5
    local csv=$work/$who-$step-$run.csv
    timeout "${SPEED_TIMEOUT:-300}" "$bin" "$@" --csv "$csv" >"$work/$who-$step-$run.log" 2>&1
    local rc=$?
    if ((rc == 124)); then
        echo "$who $step $run TIMEOUT -"
        return
    fi
    # the row's status and median (summed when the row comes in several configurations);
    # no row: the variant is not in this driver (a usage error naming it), or the run
    # broke before it (a CUDA error, exit 2)
    local none=MISSING
    ((rc == 2)) && ! grep -q "unknown variant" "$work/$who-$step-$run.log" && none=ERROR
    awk -F, -v who="$who" -v step="$step" -v run="$run" -v row="$row" -v none="$none" '
        /^#/ { next }
        !head { for (i = 1; i <= NF; i++) col[$i] = i; head = 1; next }
        $col["variant"] == row {
            found = 1
            # "PASS (budget: K of N runs)": correct, timed fewer times; still a time
            if ($col["status"] !~ /^PASS/) status = status ? status : $col["status"]
            else ms += $col["median_ms"]
        }
        END {
            if (!found) print who, step, run, none, "-"
            else if (status) print who, step, run, status, "-"
            else printf "%s %s %s PASS %.6f\n", who, step, run, ms
        }' "$csv" 2>/dev/null || echo "$who $step $run $none -"
}

# The lab's speed table: SPEED_TABLE, else labN-*/speed.cfg (the reference's first).
speed_table() {
    echo "${SPEED_TABLE:-$(ls solutions/lab"$1"-*/speed.cfg labs/lab"$1"-*/speed.cfg 2>/dev/null | head -1)}"
}

steps() {
    local cfg
    cfg=$(speed_table "$1")
    [[ -z $cfg ]] || awk '!/^[[:space:]]*(#|$)/ { print $3 }' "$cfg"
}

grade() {
    local lab=$1 format=$2 student=$3 reference=$4 report=$5
    local cfg
    cfg=$(speed_table "$lab")
    pass_through() { [[ $format == score ]] || cat "$report"; }
    if [[ -z $cfg ]]; then
        [[ $format == score ]] && echo "speed: lab $lab has no speed table (labN-*/speed.cfg): speed not scored"
        pass_through
        return 0
    fi
    if [[ ! -x $reference ]]; then
        pass_through
        echo "speed: not scored: no reference driver ($reference)" >&2
        grep -v '^make' build/reference/why.txt 2>/dev/null >&2
        return 2
    fi
    [[ -x $student ]] || { pass_through; die "not scored: $student is not built"; }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' RETURN
    correctness "$format" "$report" >"$work/correct"
    local table=() runs=${SPEED_RUNS:-3}
    ((runs >= 1)) || die "SPEED_RUNS must be 1 or more"
    mapfile -t table < <(grep -v '^[[:space:]]*\(#\|$\)' "$cfg")
    local variants
    variants=" $("$reference" --list | awk '{ printf "%s ", $1 }')"
    echo "speed: timing ${#table[@]} steps of lab $lab, yours and the reference's alternately, $runs runs each" >&2
    for line in "${table[@]}"; do
        read -r step row suite full zero flags <<<"$line"
        local args=()
        read -ra args <<<"${flags:-}"
        [[ $variants == *" $row "* ]] && args=(--variant "$row" "${args[@]}")
        for ((r = 1; r <= runs; r++)); do
            echo "speed:   step $step ($row), run $r of $runs" >&2
            if ((r % 2)); then
                run_one you "$student" "$step" "$r" "$row" "${args[@]}"
                run_one ref "$reference" "$step" "$r" "$row" "${args[@]}"
            else
                run_one ref "$reference" "$step" "$r" "$row" "${args[@]}"
                run_one you "$student" "$step" "$r" "$row" "${args[@]}"
            fi
        done
    done >"$work/timings"
    if [[ $format == score ]]; then
        echo
        echo "speed on $(nvidia-smi --query-gpu=name --format=csv,noheader -i 0 2>/dev/null | head -1) (yours vs the reference, median of $runs alternating runs; table: $cfg):"
        awk -v gate=1 -f "$here/speed.awk" "$cfg" "$work/timings" "$work/correct"
        return
    fi
    awk -v gate=1 -v mode=tsv -f "$here/speed.awk" "$cfg" "$work/timings" "$work/correct" >"$work/scores" || return 2
    merge "$format" "$report" "lab${lab}_speed" "$work/scores"
}

# merge FORMAT REPORT SUITE SCORES: the report with one more suite, a test per step;
# a step passes when its speed score is above zero, and carries the score itself.
merge() {
    awk -F'\t' -v format="$1" -v suite="$3" '
    function jesc(s) { gsub(/\\/, "\\\\", s); gsub(/"/, "\\\"", s); return s }
    function esc(s) { gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/"/, "\\&quot;", s); return s }
    function msg(i) {
        if (score[i] == "n/a") return "speed not scored: " reason[i]
        return sprintf("speed %.1f%%: %s (full at %sx, zero at %sx)", 100 * score[i], reason[i], full[i], zero[i])
    }
    FILENAME == ARGV[1] {
        n++; step[n] = $1; full[n] = $4; zero[n] = $5; you[n] = $6; ref[n] = $7; ratio[n] = $8; score[n] = $9; reason[n] = $10
        ok[n] = score[n] != "n/a" && score[n] > 0
        if (score[n] == "n/a") skipped++; else if (ok[n]) passed++; else failed++
        next
    }
    { line[++lines] = $0 }
    END {
        if (format == "tap") {
            for (i = 1; i <= lines; i++) {
                if (line[i] ~ /^1\.\.[0-9]+$/) { split(line[i], p, /\.\./); line[i] = "1.." p[2] + n }
                print line[i]
            }
            print "#"
            print "# Running " n " tests from " suite
            for (i = 1; i <= n; i++) {
                printf "%s - %s::step_%s %s\n", ok[i] || score[i] == "n/a" ? "ok" : "not ok", suite, step[i],
                    score[i] == "n/a" ? "# SKIP " msg(i) : msg(i)
                printf "  ---\n  score: %s\n  ratio: %s\n  you_ms: %s\n  reference_ms: %s\n  full_at: %s\n  zero_at: %s\n  ...\n",
                    score[i] == "n/a" ? "~" : score[i], ratio[i] == "-" ? "~" : ratio[i], you[i] == "-" ? "~" : you[i],
                    ref[i] == "-" ? "~" : ref[i], full[i], zero[i]
            }
        } else if (format == "json") {
            for (i = 1; i <= lines; i++)
                if (line[i] ~ /^  "(passed|failed|skipped)": /) {
                    k = line[i]; sub(/^  "/, "", k); sub(/".*/, "", k)
                    v = line[i]; sub(/.*: */, "", v); sub(/,$/, "", v)
                    line[i] = sprintf("  \"%s\": %d,", k, v + (k == "passed" ? passed : k == "failed" ? failed : skipped))
                }
            end = lines - 1   # Criterion ends with the "  ]" of test_suites, then "}"
            if (line[end] != "  ]") { print "speed: unexpected layout of Criterion JSON" > "/dev/stderr"; exit 2 }
            if (line[end - 1] ~ /}$/) line[end - 1] = line[end - 1] ","
            for (i = 1; i < end; i++) print line[i]
            printf "    {\n      \"name\": \"%s\",\n      \"passed\": %d,\n      \"failed\": %d,\n      \"errored\": 0,\n      \"skipped\": %d,\n      \"tests\": [\n", suite, passed, failed, skipped
            for (t = 1; t <= n; t++) {
                printf "        {\n          \"name\": \"step_%s\",\n          \"assertions\": 0,\n          \"status\": \"%s\",\n", step[t],
                    score[t] == "n/a" ? "SKIPPED" : ok[t] ? "PASSED" : "FAILED"
                printf "          \"score\": %s,\n          \"ratio\": %s,\n          \"you_ms\": %s,\n          \"reference_ms\": %s,\n",
                    score[t] == "n/a" ? "null" : score[t], ratio[t] == "-" ? "null" : ratio[t], you[t] == "-" ? "null" : you[t],
                    ref[t] == "-" ? "null" : ref[t]
                printf "          \"full_at\": %s,\n          \"zero_at\": %s,\n          \"messages\": [\"%s\"]\n        }%s\n",
                    full[t], zero[t], jesc(msg(t)), t < n ? "," : ""
            }
            printf "      ]\n    }\n"
            for (i = end; i <= lines; i++) print line[i]
        } else {
            for (i = 1; i <= lines; i++) {
                if (line[i] ~ /^<testsuites /) {
                    line[i] = bump(line[i], "tests", n); line[i] = bump(line[i], "failures", failed)
                }
                if (line[i] == "</testsuites>") {
                    printf "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\" disabled=\"0\" skipped=\"%d\" time=\"0\">\n",
                        suite, n, failed, skipped
                    for (t = 1; t <= n; t++) {
                        printf "    <testcase name=\"step_%s\" assertions=\"0\" status=\"%s\" time=\"0\">\n", step[t],
                            score[t] == "n/a" ? "SKIPPED" : ok[t] ? "PASSED" : "FAILED"
                        printf "      <properties><property name=\"score\" value=\"%s\"/><property name=\"ratio\" value=\"%s\"/>", score[t], ratio[t]
                        printf "<property name=\"you_ms\" value=\"%s\"/><property name=\"reference_ms\" value=\"%s\"/>", you[t], ref[t]
                        printf "<property name=\"full_at\" value=\"%s\"/><property name=\"zero_at\" value=\"%s\"/></properties>\n", full[t], zero[t]
                        if (score[t] == "n/a") printf "      <skipped message=\"%s\"/>\n", esc(msg(t))
                        else if (!ok[t]) printf "      <failure type=\"speed\" message=\"%s\"/>\n", esc(msg(t))
                        printf "      <system-out>%s</system-out>\n    </testcase>\n", esc(msg(t))
                    }
                    printf "  </testsuite>\n"
                }
                print line[i]
            }
        }
    }
    function bump(s, a, by,    pre, v) {
        if (!match(s, " " a "=\"[0-9]+\"")) return s
        v = substr(s, RSTART + length(a) + 3, RLENGTH - length(a) - 4)
        return substr(s, 1, RSTART - 1) " " a "=\"" (v + by) "\"" substr(s, RSTART + RLENGTH)
    }' "$4" "$2"
}

case ${1:-} in
grade) shift; (($# == 5)) || die "usage: speed.sh grade LAB FORMAT STUDENT REFERENCE REPORT"; grade "$@" ;;
steps) shift; (($# == 1)) || die "usage: speed.sh steps LAB"; steps "$1" ;;
reference-lib) shift; (($# == 1)) || die "usage: speed.sh reference-lib LAB"; reference_lib "$1" ;;
*) die "usage: speed.sh grade LAB FORMAT STUDENT REFERENCE REPORT | steps LAB | reference-lib LAB" ;;
esac
