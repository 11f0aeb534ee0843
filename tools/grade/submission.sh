# submission.sh: the steps of tools/grade-submission.sh (sourced; its CPU tests run
# them on a stand-in lab). They share: stage (the private folder of this grade),
# labdir, starter (the lab's folder in solutions/ and labs/), table (its speed.cfg),
# judge, worker, reference, yours (the four programs), out (where the reports go).

# Progress on stderr, each line with the seconds since the grade began (common.sh's
# grade_elapsed, as tools/speed.sh's lines: where the time of a grade goes).
say() { echo "grade-submission: [$(grade_elapsed)] $*" >&2; }

# Copy or unpack SUB into DIR; only plain files and folders are kept.
unpack() {
    local sub=$1 dir=$2
    mkdir -p "$dir"
    case $sub in
    *.tar.gz | *.tgz | *.tar.xz | *.tar.bz2 | *.tar) tar xf "$sub" -C "$dir" --no-same-owner --no-same-permissions 2>"$stage/logs/unpack.log" ;;
    *.zip) unzip -q "$sub" -d "$dir" >"$stage/logs/unpack.log" 2>&1 ;;
    *) [[ -d $sub ]] && cp -rP "$sub/." "$dir/" ;;
    esac || return 1
    find "$dir" ! -type f ! -type d -delete
    chmod -R u+rwX,go+rX "$dir"
}

# Where in the submission file F of the lab is: under a folder named like the lab
# first, else the only file of that name; nothing when there is none or it is not
# clear which.
locate() {
    local f=$1 found
    found=$(find "$stage/sub" -type f -name "$f" -path "*/$(basename "$labdir")/*")
    [[ $(grep -c . <<<"$found") == 1 ]] || found=$(find "$stage/sub" -type f -name "$f")
    if [[ $(grep -c . <<<"$found") == 1 ]]; then echo "$found"; fi
}

# The lab folder to build: the instructor's, the files a student hands in replaced
# by the submission's (or the starter's); and a copy of common/.
take_handin() {
    local f src
    mkdir -p "$stage/work/lab" "$stage/work/obj"
    cp -p "$labdir"/* "$stage/work/lab/"
    cp -rp common "$stage/work/common"
    mapfile -t handin < <(grep -l '// BEGIN SOLUTION' "$labdir"/* | xargs -n1 basename)
    used=()
    for f in "${handin[@]}"; do
        src=$(locate "$f")
        if [[ -n $src ]]; then
            cp "$src" "$stage/work/lab/$f"
            used+=("$src")
            printf 'handed=%s\tfrom %s (sha256 %s)\n' "$f" "${src#"$stage/sub/"}" "$(sha256sum "$src" | cut -c1-12)" >>"$stage/meta"
        else
            cp "$starter/$f" "$stage/work/lab/$f"
            printf 'handed=%s\tnot in the submission (or more than one): the starter'"'"'s, its steps score 0\n' "$f" >>"$stage/meta"
        fi
    done
    chmod -R go+rX "$stage/work"
}

# The kit's path of a submitted file: the longest tail of its path that the student
# copy has (cuda-kit-student/labs/lab2-reduction/main.c -> labs/lab2-reduction/main.c),
# else the lab folder's file of that name.
kit_path() {
    local p=$1
    while [[ -n $p ]]; do
        [[ -f $p && $p != solutions/* ]] && { echo "$p"; return; }
        [[ $p == */* ]] || break
        p=${p#*/}
    done
    if [[ -f $starter/$(basename "$1") ]]; then echo "$starter/$(basename "$1")"; fi
}

# Every other file of the submission that differs from the student copy's, or that
# the kit does not have, is ignored and listed (build outputs are not).
list_ignored() {
    local f rel kit count=0 more=0
    while IFS= read -r -d '' f; do
        [[ " ${used[*]} " == *" $f "* ]] && continue
        rel=${f#"$stage/sub/"}
        [[ $rel == build/* || $rel == */build/* || $rel == *.o || $rel == */.git/* || $rel == .git/* ]] && continue
        kit=$(kit_path "$rel")
        if [[ -z $kit ]]; then
            why="not part of the kit"
        elif cmp -s "$f" "$kit"; then
            continue
        else
            why="changed, but students do not hand it in: the kit's $kit was used"
        fi
        if ((count++ < 40)); then printf 'ignored=%s\t%s\n' "$rel" "$why" >>"$stage/meta"; else more=$((more + 1)); fi
    done < <(find "$stage/sub" -type f -print0 | sort -z)
    if ((more)); then printf 'ignored=... and %d more files\tnot listed\n' "$more" >>"$stage/meta"; fi
}

# The worker and the speed driver of the submission, by the command given. A file of
# it that does not compile, includes a file outside the submission and the kit's
# student headers, carries a compiled program (an ELF or fatbin image: the reference
# objects of an old student copy), or breaks the link (does not define what the lab
# calls, defines what it must not), is replaced by its starter and the build tried
# again; the report says which and why.
build_worker() {
    local round f
    for round in 1 2 3 4; do
        "$@" >"$stage/logs/build-submission.log" 2>&1
        bad=()
        for f in "${handin[@]}"; do
            [[ $f == *.c || $f == *.cu ]] || continue
            if carries_binary "$stage/work/lab/$f"; then
                bad+=("$f"$'\t'"carries a compiled program (an ELF or fatbin image, or .incbin): the starter's instead")
            elif [[ ! -f $stage/work/obj/$f.o ]]; then
                bad+=("$f"$'\t'"did not compile (logs/build-submission.log): the starter's instead, its steps score 0")
            elif outside=$(reaches_outside "$stage/work/obj/${f}.d"); then
                bad+=("$f"$'\t'"includes $outside, outside the submission and the kit's student headers: the starter's instead")
            fi
        done
        ((${#bad[@]})) || link_culprits
        if ((${#bad[@]} == 0)) && [[ -x $worker && -x $yours ]]; then
            return
        fi
        for f in "${bad[@]}"; do
            cp "$starter/${f%%$'\t'*}" "$stage/work/lab/${f%%$'\t'*}"
            rm -f "$stage/work/obj/${f%%$'\t'*}.o"
            printf 'handed=%s\n' "$f" >>"$stage/meta"
        done
        if ((${#bad[@]} == 0)); then # none to blame: a header of the submission breaks the build
            for f in "${handin[@]}"; do
                [[ $f == *.h || $f == *.cuh ]] || continue
                cp "$starter/$f" "$stage/work/lab/$f"
                printf 'handed=%s\tthe lab does not build with it: the starter'"'"'s instead\n' "$f" >>"$stage/meta"
            done
            rm -f "$stage/work/obj/"*.o
        fi
    done
    echo "not_graded=the submission does not build even with the starter's files (logs/build-submission.log)" >>"$stage/meta"
    publish 2
}

# A source file that holds an ELF or fatbin image (as text or bytes) or pulls one in.
carries_binary() {
    grep -qiE '\\x7fELF|0x7f, *0x45, *0x4c, *0x46|127, *69, *76, *70|0xba55ed50|0x466243b1|\.incbin' "$1" ||
        grep -qaP '\x7fELF' "$1"
}

# After a link that failed with every file compiled: the files it names (a symbol
# defined twice), and the starter files that define what was left undefined.
link_culprits() {
    local log=$stage/logs/build-submission.log f name
    grep -q 'undefined reference\|multiple definition' "$log" || return
    for f in "${handin[@]}"; do
        [[ $f == *.c || $f == *.cu ]] || continue
        if grep -q "obj/$f\.o.*multiple definition" "$log"; then
            bad+=("$f"$'\t'"defines a symbol the rest of the lab defines too (a link error): the starter's instead")
        fi
    done
    for name in $(grep -o "undefined reference to \`[A-Za-z0-9_]*'" "$log" | sed "s/.*\`\(__real_\)\{0,1\}//; s/'$//" | sort -u); do
        f=$(grep -lE "^[a-z_ \"C]*[ *]$name\(" "$starter"/*.c "$starter"/*.cu 2>/dev/null | head -1)
        [[ -n $f ]] && bad+=("$(basename "$f")"$'\t'"does not define $name, which the lab calls (a link error): the starter's instead")
    done
}

# The first header an object's dependency file names outside the submission's lab
# folder, its copy of common/ and the system's folders; fails when there is none.
reaches_outside() {
    [[ -f $1 ]] || return 1 # an object made before (tools/maint/gpu-grade-prep.sh): no dependency file
    local cuda nccl=${NCCL_INC:-} work
    cuda=$(dirname "$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")")
    work=$(realpath -m "$stage/work")
    sed -e 's/^[^:]*://' -e 's/\\$//' "$1" | tr ' ' '\n' | sed '/^$/d; /:$/d' | while read -r dep; do
        dep=$(realpath -m "$dep")
        case $dep in
        "$work"/lab/* | "$work"/common/* | /usr/include/* | /usr/lib/* | /usr/local/include/*) ;;
        "$(realpath -m "$cuda")"/* | "$(realpath -m /usr/local/cuda)"/*) ;;
        *) [[ -n $nccl && $dep == "$(realpath -m "$nccl")"/* ]] || { echo "$dep"; return 0; } ;;
        esac
    done | head -1 | grep .
}

# What the judges and the report run: their fingerprint before and after the
# submission's processes (as the same user they could have written to them).
fingerprint() {
    local files=("$judge" "$reference" build/grade/contain build/grade/race
                 tools/grade/*.awk tools/grade/*.sh tools/speed.awk tools/speed.sh "$table")
    local libs
    libs=$(ldd "$judge" 2>/dev/null | awk '$3 ~ /^\// { print $3 }')
    sha256sum "${files[@]}" $libs 2>/dev/null
}

# The phases and the reports (see tools/grade-submission.sh): the speed race first,
# then for each step's suite its worker, then (once every process of the worker is
# gone, and the grader's own files are unchanged) its judge, which replays the
# records and deletes them; GRADE_JOBS (default 4) suites at once, the worker of each
# GRADE_CASE_JOBS (default 1) cases at once.
grade_phases() {
    grader_files=$(fingerprint)
    mapfile -t suites < <(grade_suites "$table" | tac) # the later steps' suites are the longest: first
    rm -rf "$stage/judged" "$stage/records" # nothing a submission's process left there counts
    mkdir -m 700 "$stage/judged"
    mkdir -p "$stage/records"
    # Without namespaces a worker could reach the others' processes: one at a time.
    local suite at_once=${GRADE_JOBS:-4}
    contained "$stage/logs/probe.log" "$stage/records" -- true
    grep -q "no namespace" "$stage/isolation" && at_once=1
    run_speed
    for suite in "${suites[@]}"; do
        while (($(jobs -rp | wc -l) >= at_once)); do wait -n; done # the next starts as soon as one ends
        grade_suite "$suite" &
    done
    wait
    echo "isolation=$(cat "$stage/isolation" 2>/dev/null)" >>"$stage/meta"
    if [[ $(fingerprint) != "$grader_files" || -e $stage/judged/CHANGED ]]; then
        echo "not_graded=the grader's own files changed while the submission ran: nothing of this run is trusted" >>"$stage/meta"
        publish 2
    fi
    cat "$stage/judged/"*.tsv >"$stage/results.tsv" 2>/dev/null
    publish 0
}

# As root, a submission's processes run as a user id of this grade's own
# (GRADE_USER to choose it): two grades side by side cannot reach each other's files.
grade_user=${GRADE_USER:-$((61000 + RANDOM % 4000))}

contained() { # LOG DIR -- COMMAND...: a submission's process (tools/grade/contain.c)
    local log=$1 dir=$2
    shift 3
    build/grade/contain ${GRADE_CONTAIN_FLAGS:-} --user "$grade_user" --limit "${GRADE_SUITE_LIMIT:-900}" \
        --log "$log" --dir "$dir" --isolation "$stage/isolation" -- "$@"
}

# One step's suite: the worker with the submission's code records every case; the
# judge, which holds none of it, replays the records and writes the verdicts.
grade_suite() {
    local suite=$1 records=$stage/records/$1
    mkdir -p "$records"
    say "$suite: the submission's code in a worker (each case at most ${GRADE_CASE_LIMIT:-120} s)"
    contained "$stage/logs/worker-$suite.log" "$records" -- \
        env KIT_GRADE_SELECTION=1 KIT_TEST_BIG=0 OMP_NUM_THREADS="${GRADE_THREADS:-8}" GRADE_RECORDS="$records" \
        GRADE_CASE_LIMIT="${GRADE_CASE_LIMIT:-120}" GRADE_CASE_JOBS="${GRADE_CASE_JOBS:-1}" "$worker" --suite "$suite"
    [[ $(fingerprint) == "$grader_files" ]] || { touch "$stage/judged/CHANGED"; return; }
    say "$suite: the judge checks the recorded outputs ($(du -sh "$records" | cut -f1) recorded)"
    KIT_GRADE_SELECTION=1 KIT_TEST_BIG=0 OMP_NUM_THREADS="${GRADE_THREADS:-8}" GRADE_RECORDS="$records" \
        GRADE_RESULTS="$stage/judged/$suite.tsv" GRADE_CASE_FILE="$stage/judged/$suite.case" \
        timeout 900 "$judge" -j1 --quiet --filter "$suite/*" >"$stage/logs/judge-$suite.log" 2>&1
    rm -rf "$records"
    say "$suite: judged"
}

run_speed() {
    touch "$stage/speed.tsv"
    if [[ ${GRADE_SPEED:-1} == 0 ]]; then
        echo "speed=left out (GRADE_SPEED=0)" >>"$stage/meta"
        return
    fi
    say "the speed of each step against the reference"
    mkdir -p "$stage/records/speed"
    bash tools/speed.sh run "$table" "$yours" "$reference" "$stage/speed" \
        build/grade/contain ${GRADE_CONTAIN_FLAGS:-} --user "$grade_user" --keep 3 --keep 4 --limit 600 --log "$stage/logs/speed-yours.log" \
        --dir "$stage/records/speed" --
    cp "$stage/speed/speed.tsv" "$stage/speed.tsv" 2>/dev/null
    say "speed: every row raced"
}

# The reports into OUT (replacing what was there), the summary on stdout; exit STATUS.
publish() {
    local status=$1
    touch "$stage/results.tsv" "$stage/speed.tsv"
    grade_report "$stage/report" "$table" "$stage/results.tsv" "$stage/speed.tsv" "$stage/meta" || status=2
    cp -r "$stage/logs" "$stage/report/logs"
    rm -rf "$out"
    mkdir -p "$(dirname "$out")"
    cp -r "$stage/report" "$out"
    cat "$out/summary.txt"
    echo "reports: $out/ (summary.txt, results.json, junit.xml, results.tap, logs/)"
    exit "$status"
}

