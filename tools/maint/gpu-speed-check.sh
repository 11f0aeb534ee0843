#!/usr/bin/env bash
# gpu-speed-check.sh COPY OUTDIR: on the GPU, grade lab 3 in the student copy that
# tools/maint/gpu-speed-prep.sh prepared (COPY, e.g. dist/gpu-check), and check the speed
# score: the reference's own code scores full speed at every step, and Step 3.1,
# slowed five times on purpose, scores zero.
#   OUTDIR/grade_lab3.txt    make grade LAB=3 (correctness and speed per step)
#   OUTDIR/grade_lab3.json   make grade LAB=3 GRADE_FORMAT=json (with the lab3_speed suite)
# Exit status 0 when both expectations hold.
set -uo pipefail
copy=$(realpath "$1")/cuda-kit-student
out=$(realpath -m "$2")
mkdir -p "$out"
cd "$copy" || exit 2
export LD_LIBRARY_PATH=$PWD/build/bin/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# The carried files' times mean nothing here: mark what prep built as up to date, so
# make only links the reference driver (objects from make dist for this GPU).
make -s -t ARCH=sm_90 lab3 build/tests/grade_lab3 build/labs/lab3-scan/main.c.o >/dev/null
make --no-print-directory ARCH=sm_90 grade LAB=3 2>&1 | tee "$out/grade_lab3.txt"
# The JSON report repeats the grade to show its format: the tests past 2^31 (minutes
# each, already run by the grade above) are left out of it (KIT_TEST_BIG=0, "not run").
KIT_TEST_BIG=0 make --no-print-directory ARCH=sm_90 grade LAB=3 GRADE_FORMAT=json >"$out/grade_lab3.json" 2>"$out/grade_lab3_json.log"

# Verdicts from the speed table: step 3.1 at 0%, every other step at 100%.
awk '
    /^speed on / { table = 1; next }
    table && $1 ~ /^3\.[0-9]$/ {
        speed = $8; sub(/%$/, "", speed)
        if ($1 == "3.1") { want = "0% (slowed five times)"; ok = speed + 0 == 0 }
        else { want = "100% (the reference itself)"; ok = speed + 0 == 100 }
        printf "%s step %s %-20s speed %6s%%  expected %s\n", ok ? "PASS" : "FAIL", $1, $2, speed, want
        bad += !ok; seen++
    }
    END {
        if (seen < 8) { print "FAIL: the speed table has " seen + 0 " of 8 steps"; exit 1 }
        exit bad > 0
    }' "$out/grade_lab3.txt" | tee "$out/verdict.txt"
