#!/usr/bin/env bash
# gpu-grade-check.sh PREP.tar.gz OUTDIR: on a GPU, grade the submissions that
# tools/maint/gpu-grade-prep.sh prepared, through make grade-submission's own phases
# (tools/grade/submission.sh: contained workers, the speed race, the judges, the
# reports), and check the verdicts:
#   correct   100 / 100                       (timed: the grading time of the lab, speed included)
#   starter   every step's correctness 0
#   bug       the planted bug's step not 100% correct, every other step 100%
#   old       the old submission's step 0, every other step 100%
# Time: the correct submissions first, one lab at a time (their times are the
# README's); then the others, correctness only (GRADE_SPEED=0), CHECK_JOBS at once,
# until DEADLINE seconds (default 520) have passed: what is not reached is reported
# as not run (LABS='4 5' and CASES='correct bug' choose; CORRECT_SPEED=0 leaves the
# correct submissions' speed out). STOP seconds (default DEADLINE + 60) after the
# start, the grades still running are abandoned and what finished is reported and
# packed (a lent machine's call limit must not lose the whole run). Also: PTX and solution paths in the reference executables make dist
# ships (cuobjdump when this toolkit has it). Prints a table; the reports go to
# OUTDIR/labN-CASE/ (packed into OUTDIR/reports.tgz).
set -uo pipefail
prep=$(realpath "$1") dest=$(realpath -m "$2") # (not "out": submission.sh publishes to $out)
deadline=$((SECONDS + ${DEADLINE:-520}))
stop=${STOP:-$((deadline + 60))}
mkdir -p "$dest"
work=$(mktemp -d /var/tmp/gpu-grade-XXXXXX)
chmod 711 "$work"
tar xzf "$prep" -C "$work"
tree=$(ls -d "$work"/*/)
tree=${tree%/}
chmod -R go+rX "$work"
export LD_LIBRARY_PATH=$tree/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} NCCL_NVLS_ENABLE=0
mkdir -p build/grade
cp "$tree"/build/grade/contain "$tree"/build/grade/race build/grade/
source tools/grade/common.sh
source tools/grade/submission.sh
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader >"$dest/gpu.txt" 2>&1

# Grade one prepared stage (in a subshell: publish exits); its time in seconds.
grade_stage() {
    local lab=$1 case=$2 speed=$3
    (
        stage=$tree/stages/lab$lab-$case
        labdir=$(grade_lab_dir "$lab") starter=labs/$(basename "$labdir") table=$(grade_table "$lab")
        judge=$tree/build/grade/judge_lab$lab reference=$tree/build/grade/speed_lab$lab
        worker=$stage/work/worker yours=$stage/work/speed out=$dest/lab$lab-$case
        mkdir -p "$stage/report" "$stage/logs" && chmod 700 "$stage/report"
        echo "gpu=$(grade_gpus)" >>"$stage/meta"
        [[ $speed == 1 ]] || export GRADE_SPEED=0
        start=$SECONDS GRADE_T0=$(date +%s)
        (grade_phases >"$dest/lab$lab-$case.summary" 2>"$dest/lab$lab-$case.log")
        echo $((SECONDS - start)) >"$dest/lab$lab-$case.seconds"
    )
}

# The verdict of a graded stage against what its case expects.
verdict() {
    local lab=$1 case=$2 s=$dest/lab$1-$2/summary.txt
    [[ -f $s ]] || { echo "not run or not finished"; return; }
    read -r _ _ bug_step old_step <"$tree/stages/lab$lab-$case/case"
    awk -v case="$case" -v bug="$bug_step" -v old="$old_step" '
        /^total/ { total = $2 }
        /^[0-9]+\.[0-9]+ +lab[0-9]/ { n++; step = $1; pct = $4; sub(/%/, "", pct)
            if (case == "starter" && pct + 0 != 0) bad = bad " " step " " pct "%"
            if (case == "correct" && pct + 0 != 100) bad = bad " " step " " pct "%"
            if (case == "bug" && (step == bug) == (pct + 0 == 100)) bad = bad " " step " " pct "%"
            if (case == "old" && (step == old) != (pct + 0 == 0)) bad = bad " " step " " pct "%" }
        /NOT GRADED/ { bad = " not graded" }
        END { printf "%s (%s / 100, %d steps)%s\n", bad ? "FAIL:" bad : "ok", total, n, "" }' "$s"
}

# The report: the verdicts, the reference executables, the prep's own checks, packed.
finish() {
    echo
    echo "| lab | correct (time, speed included) | starter | planted bug | old reference objects |"
    echo "| --- | --- | --- | --- | --- |"
    for lab in $labs; do
        t=$(cat "$dest/lab$lab-correct.seconds" 2>/dev/null || echo "-")
        printf '| %s | %s, %s s | %s | %s | %s |\n' "$lab" "$(verdict "$lab" correct)" "$t" "$(verdict "$lab" starter)" \
            "$(verdict "$lab" bug)" "$(verdict "$lab" old)"
    done | tee "$dest/table.md"
    echo
    cuobjdump=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/cuobjdump
    echo "the reference executables of make dist (sm_90): PTX by cuobjdump --dump-ptx (else fatbin.py), paths by strings"
    for f in "$tree"/build/reference/lab*; do
        if [[ -x $cuobjdump ]]; then ptx=$("$cuobjdump" --dump-ptx "$f" 2>&1 | grep -c '^\.version\|^\.target'); tool=cuobjdump
        else ptx=$(python3 tools/grade/fatbin.py "$f" | sed 's/.*: ptx \([0-9]*\),.*/\1/'); tool=fatbin.py; fi
        paths=$(strings "$f" | grep -cE "solutions/|/work/")
        echo "$(basename "$f"): $ptx PTX ($tool), $paths solution or build paths (strings)"
    done | tee "$dest/dist-check.txt"
    cat "$tree/prep.txt" | tee -a "$dest/table.md"
    # At most 8 files come back from a lent GPU machine: everything but the table in one archive.
    tar czf "$dest/reports.tgz" -C "$dest" $(cd "$dest" && ls | grep -v '^table.md$') &&
        (cd "$dest" && ls | grep -vE '^(table.md|reports.tgz)$' | xargs rm -rf)
    rm -rf "$work"
}
trap 'echo "[$SECONDS s] stopped after $stop s: grades still running are abandoned"; finish; exit 124' TERM
(sleep "$stop" && kill -TERM $$) 2>/dev/null &
watchdog=$!

labs=${LABS:-$(ls "$tree/stages" | sed -n 's/^lab\([0-9]*\)-correct$/\1/p' | sort -n | paste -sd ' ')}
cases=" ${CASES:-correct starter bug old} "
[[ $cases == *" correct "* ]] && for lab in $labs; do
    ((SECONDS < deadline - 90)) || break
    echo "[$SECONDS s] lab $lab, correct, $( ((${CORRECT_SPEED:-1})) && echo with speed || echo correctness only)"
    grade_stage "$lab" correct "${CORRECT_SPEED:-1}" &
    wait $! # (in the background: the stop's signal interrupts wait, not a foreground job)
done
pending=()
for lab in $labs; do for case in ${cases/ correct / }; do pending+=("$lab $case"); done; done
# (wait for the grades by their ids: a plain wait would wait for the watchdog too)
running=()
for item in "${pending[@]}"; do
    ((SECONDS < deadline - 60)) || break
    read -r lab case <<<"$item"
    echo "[$SECONDS s] lab $lab, $case, correctness only"
    grade_stage "$lab" "$case" 0 &
    running+=($!)
    if ((${#running[@]} == ${CHECK_JOBS:-3})); then wait "${running[@]}"; running=(); fi
done
((${#running[@]} == 0)) || wait "${running[@]}"

kill $watchdog 2>/dev/null
finish
