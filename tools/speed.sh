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
#     SPEED_ROUNDS (default 5) and SPEED_REPS (default 10) set the race.
# speed.sh reference LAB
#     The reference speed driver of lab LAB in this tree: the one the Makefile builds
#     in the instructor's tree, in a student copy the stripped executable make dist
#     shipped for this GPU (reference/sm_XY/labN), or a clear error.
set -uo pipefail
here=$(dirname "$0")
die() { echo "speed: $*" >&2; exit 2; }

source "$here/grade/common.sh" # grade_smi: the GPUs CUDA_VISIBLE_DEVICES leaves visible
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

run() {
    local start table=$1 yours=$2 ref=$3 out=$4
    shift 4
    local wrap=("$@") gpus rows=() line timings=""
    start=$(date +%s)
    gpus=$(gpu_count)
    mapfile -t rows < <(grep -v '^[[:space:]]*\(#\|$\)' "$table" | grep -v '^speed-weight')
    for line in "${rows[@]}"; do
        local key row suite full zero flags args=() need
        read -r key row suite full zero flags <<<"$line"
        read -ra args <<<"${flags:-}"
        need=$(sed -n 's/.*--gpus \([0-9]*\).*/\1/p' <<<"$flags")
        if [[ -n $need ]] && ((need > gpus)); then
            timings+="ref $key 1 NEEDS_${need}_GPUS -"$'\n'
            continue
        fi
        echo "speed: [$(($(date +%s) - ${GRADE_T0:-$start})) s] step $key ($row): your driver and the reference's, ${SPEED_ROUNDS:-5} alternating rounds" >&2
        local variant=()
        "$ref" --list 2>/dev/null | awk '{ print $1 }' | grep -qx -- "$row" && variant=(--variant "$row")
        timings+=$(GRADE_SPEED_ROW=$row build/grade/race --rounds "${SPEED_ROUNDS:-5}" --reps "${SPEED_REPS:-10}" \
            -- "${wrap[@]}" "$yours" "${variant[@]}" "${args[@]}" --reference "$ref" "${variant[@]}" "${args[@]}" |
            awk -v step="$key" '{ printf "%s %s 1 %s %s %s\n", $1, step, $2, $2 == "PASS" ? $3 : "-", $4 }')$'\n'
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
*) die "usage: speed.sh run TABLE YOURS REFERENCE OUT [WRAP...] | reference LAB" ;;
esac
