# common.sh: what tools/grade.sh, tools/grade-submission.sh and tools/dist.sh share
# (sourced, from the kit's root).

# The kit's version: the first release heading of CHANGELOG.md ("## 1.0.0 ...").
grade_version() { sed -n 's/^## \([0-9][0-9.]*\).*/\1/p' CHANGELOG.md 2>/dev/null | head -1; }

# The lab numbers of this tree, and lab N's folder (solutions/ in the instructor's
# tree, labs/ in a student copy).
grade_tree() { [[ -d solutions ]] && echo solutions || echo labs; }
grade_labs() { ls -d "$(grade_tree)"/lab*-*/ 2>/dev/null | sed 's|.*/lab\([0-9]*\)-.*|\1|' | sort -n | paste -sd ' '; }
grade_lab_dir() { ls -d "$(grade_tree)/lab$1"-*/ 2>/dev/null | head -1 | sed 's|/$||'; }

# WHAT: "grade" or "grade-submission". A missing LAB or one that is not a lab: one
# line, exit 2.
grade_check_lab() {
    local what=$1 lab=$2
    if [[ -z $lab ]]; then
        echo "make $what: say which lab: make $what LAB=N (N = $(grade_labs))" >&2
        exit 2
    fi
    if [[ ! $lab =~ ^[0-9]+$ || -z $(grade_lab_dir "$lab") ]]; then
        echo "make $what: LAB=$lab is not a lab of this kit (labs: $(grade_labs))" >&2
        exit 2
    fi
}

# The seconds since the grade began, "12 s": GRADE_T0 (epoch seconds) is set by the
# first of the grade's scripts to source this file, and its progress lines say it.
export GRADE_T0=${GRADE_T0:-$(date +%s)}
grade_elapsed() { echo "$(($(date +%s) - GRADE_T0)) s"; }

# The GPUs, "NAME, NAME", or nothing without one; and why there is none.
grade_gpus() { grade_smi --query-gpu=name --format=csv,noheader | paste -sd ',' | sed 's/,/, /g'; }
# nvidia-smi over the GPUs a grade may use: those CUDA_VISIBLE_DEVICES names (indices
# or UUIDs; none when it is set but empty), else every GPU; every GPU too where
# nvidia-smi does not take the list (MIG names).
grade_smi() {
    if [[ -n ${CUDA_VISIBLE_DEVICES+set} ]]; then
        [[ -n $CUDA_VISIBLE_DEVICES ]] || return 0
        nvidia-smi -i "$CUDA_VISIBLE_DEVICES" "$@" 2>/dev/null && return
    fi
    nvidia-smi "$@" 2>/dev/null
}
grade_no_gpu() {
    local why="nvidia-smi not found"
    command -v nvidia-smi >/dev/null && why=$(nvidia-smi -L 2>&1 | head -1)
    echo "no GPU on this machine (${why:-nvidia-smi lists none})"
}

# The lab's steps and their suites: its speed table.
grade_table() { echo "$(grade_lab_dir "$1")/speed.cfg"; }
grade_suites() { awk '!/^[[:space:]]*(#|$)/ && $1 != "speed-weight" && !seen[$3]++ { print $3 }' "$1"; }

# The reports (tools/grade/report.awk) into DIR from TABLE RESULTS SPEED META.
grade_report() { awk -v out="$1" -f tools/grade/report.awk "$2" "$3" "$4" "$5"; }

# A grade started from inside a Criterion test (the kit's CPU tests) must not make
# the grading programs think they are that test's processes.
unset BXFI_MAP
