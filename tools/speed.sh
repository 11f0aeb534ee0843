#!/usr/bin/env bash
# speed.sh: the speed part of a grade (tools/grade.sh, tools/grade-submission.sh).
#
# speed.sh run TABLE YOURS REFERENCE OUT [WRAP...]
#     For each row of the lab's speed table (labN-*/speed.cfg), race your driver
#     against the reference's (tools/grade/race.c: both set up, then alternate
#     rounds of timed runs) and score the row with tools/speed.awk. YOURS and
#     REFERENCE are speed drivers (a lab's driver with tools/grade/speed_probe.c);
#     WRAP, if given, is the command yours runs under (tools/grade/contain with its
#     options). Writes OUT/timings (speed.awk's input) and OUT/speed.tsv (its
#     output), and says on stderr which row it is timing.
#     A row whose flags ask for --gpus G is not run on a machine with fewer GPUs.
#     A row whose timing the grader's clock contradicts (speed.awk: "not trusted")
#     is raced once more, and the second race counts.
#     SPEED_ROUNDS (default 5) and SPEED_REPS (default 10) set the race.
# speed.sh reference LAB
#     The reference speed driver of lab LAB in this tree: the one the Makefile builds
#     in the instructor's tree, in a student copy the stripped executable make dist
#     shipped for this GPU (reference/sm_XY/labN), or a clear error.
# speed.sh rows TABLE DRIVER
#     One line per row of the table: KEY ROW and the arguments run gives DRIVER for
#     it (tests/emu/speed-rows.sh checks that each prints its row).
set -uo pipefail
here=$(dirname "$0")
die() { echo "speed: $*" >&2; exit 2; }

source "$here/grade/common.sh" # grade_smi (the visible GPUs), grade_elapsed
gpu_count() { grade_smi --query-gpu=name --format=csv,noheader | grep -c .; }

gpu_sm() { # the compute capability of the first visible GPU as sm_XY
    local cc
    cc=$(grade_smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d ' .')
    [[ $cc =~ ^[0-9]+$ ]] && echo "sm_$cc"
}

reference() {
    local lab=$1 sm exe built
    if [[ -d solutions ]]; then
        echo "build/grade/speed_lab$lab"
        return
    fi
    sm=$(gpu_sm) || die "cannot read the GPU's compute capability (nvidia-smi --query-gpu=compute_cap)"
    exe=reference/$sm/lab$lab
    if [[ ! -x $exe ]]; then
        built=$(ls -d reference/sm_* 2>/dev/null | sed 's|reference/||' | paste -sd ' ')
        die "this GPU is $sm, but the reference for the speed score was built for: ${built:-nothing}." \
            "Ask your instructor for a copy made with: make dist REF_ARCH=\"$sm ...\""
    fi
    echo "$exe"
}

# The table's rows: KEY ROW SUITE FULL ZERO FLAGS... (comments and speed-weight left out).
table_rows() { grep -v '^[[:space:]]*\(#\|$\)' "$1" | grep -v '^speed-weight'; }

# How DRIVER runs ROW: --variant ROW when ROW is one of its variants (--list), then
# the row's flags.
row_args() {
    local driver=$1 row=$2
    shift 2
    if "$driver" --list 2>/dev/null | awk '{ print $1 }' | grep -qx -- "$row"; then
        echo --variant "$row" "$@"
    else
        echo "$@"
    fi
}

rows() {
    local key row flags
    # shellcheck disable=SC2086 # the row's flags are words
    while read -r key row _ _ _ flags; do echo "$key $row $(row_args "$2" "$row" $flags)"; done < <(table_rows "$1")
}

# One race of a row (run's key, row, args, yours, ref and wrap): its timings lines.
race_row() {
    GRADE_SPEED_ROW=$row build/grade/race --rounds "${SPEED_ROUNDS:-5}" --reps "${SPEED_REPS:-10}" \
        -- "${wrap[@]}" "$yours" "${args[@]}" --reference "$ref" "${args[@]}" |
        awk -v step="$key" '{ printf "%s %s 1 %s %s %s\n", $1, step, $2, $2 == "PASS" ? $3 : "-", $4 }'
}

# Whether speed.awk refuses step KEY of TABLE for these TIMINGS on the grader's clock.
untrusted() {
    awk -v mode=tsv -f "$here/speed.awk" "$1" <(printf '%s\n' "$3") /dev/null |
        awk -F'\t' -v key="$2" '$1 == key && $10 ~ /not trusted/ { found = 1 } END { exit !found }'
}

run() {
    local table=$1 yours=$2 ref=$3 out=$4
    shift 4
    local wrap=("$@") gpus rows=() line timings="" race_timings
    gpus=$(gpu_count)
    mapfile -t rows < <(table_rows "$table")
    for line in "${rows[@]}"; do
        local key row suite full zero flags args=() need
        read -r key row suite full zero flags <<<"$line"
        need=$(sed -n 's/.*--gpus \([0-9]*\).*/\1/p' <<<"$flags")
        if [[ -n $need ]] && ((need > gpus)); then
            timings+="ref $key 1 NEEDS_${need}_GPUS -"$'\n'
            continue
        fi
        echo "speed: [$(grade_elapsed)] step $key ($row): your driver and the reference's, ${SPEED_ROUNDS:-5} alternating rounds" >&2
        # shellcheck disable=SC2086 # the row's flags are words
        read -ra args <<<"$(row_args "$ref" "$row" $flags)"
        race_timings=$(race_row)
        # A clock that contradicts your events once may be the host's noise (a few
        # microseconds a run on a tiny row); a forged timing contradicts it every time.
        if untrusted "$table" "$key" "$race_timings"; then
            echo "speed: [$(grade_elapsed)] step $key: the grader's clock contradicts your driver's events; racing once more" >&2
            race_timings=$(race_row)
        fi
        timings+=$race_timings$'\n'
    done
    # Written once every driver is gone: none of them could write to it.
    rm -rf "$out"
    mkdir -p "$out"
    printf '%s' "$timings" >"$out/timings"
    awk -v mode=tsv -f "$here/speed.awk" "$table" "$out/timings" /dev/null >"$out/speed.tsv"
}

case ${1:-} in
run) shift; (($# >= 4)) || die "usage: speed.sh run TABLE YOURS REFERENCE OUT [WRAP...]"; run "$@" ;;
reference) shift; (($# == 1)) || die "usage: speed.sh reference LAB"; reference "$1" ;;
rows) shift; (($# == 2)) || die "usage: speed.sh rows TABLE DRIVER"; rows "$@" ;;
*) die "usage: speed.sh run TABLE YOURS REFERENCE OUT [WRAP...] | reference LAB | rows TABLE DRIVER" ;;
esac
