#!/usr/bin/env bash
# sanitize.sh BINARY [EXTRA ARGS]: run every variant of a lab at a small size under
# compute-sanitizer's four tools and print a variant x tool table (./labN is the
# student's code, ./solutionN the reference). The size
# (SANITIZE_N, default 4099) gives a partial warp, a partial block and several
# blocks. The four tools run side by side. Without EXTRA ARGS, each line of the
# lab's sanitize.args (solutions/labN-*/sanitize.args, if any) is one more set of
# arguments to cover (other operations, types, distributions); a table each.
# SANITIZE_FLAGS (default: the lab's sanitize.flags, if any) adds compute-sanitizer
# options. A variant that has no row for a set of arguments (exit 2 at n = 1) shows
# no-row and does not fail the set.
# Logs go to $SANITIZE_LOGS (default build/sanitize). Exit 1 if any tool
# reported an error.
set -uo pipefail
bin=$1
shift
if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "sanitize: no GPU visible (nvidia-smi): compute-sanitizer needs a GPU to run $(basename "$bin")" >&2
    exit 2
fi
lab=$(basename "$bin" | sed 's/^[a-z]*\([0-9]*\)$/\1/')
tree=$([[ $(basename "$bin") == solution* ]] && echo solutions || echo labs)
flags_file=$(ls "$tree"/lab"$lab"-*/sanitize.flags 2>/dev/null | head -1)
if [[ -z ${SANITIZE_FLAGS+set} && -n $flags_file ]]; then
    export SANITIZE_FLAGS=$(grep -v '^#' "$flags_file" | tr '\n' ' ')
fi
if (($# == 0)) && [[ -z ${SANITIZE_ONE_SET:-} ]]; then
    args_file=$(ls "$tree"/lab"$lab"-*/sanitize.args 2>/dev/null | head -1)
    if [[ -n $args_file ]]; then
        status=0
        SANITIZE_ONE_SET=1 bash "$0" "$bin" || status=1
        while read -r line; do
            [[ -z $line || $line == \#* ]] && continue
            read -ra extra <<<"$line"
            SANITIZE_ONE_SET=1 bash "$0" "$bin" "${extra[@]}" || status=1
        done <"$args_file"
        exit $status
    fi
fi
logs=${SANITIZE_LOGS:-build/sanitize}
n=${SANITIZE_N:-4099}
mkdir -p "$logs"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[[ -x $sanitizer ]] || { echo "sanitize: compute-sanitizer not found (it comes with the CUDA toolkit)" >&2; exit 2; }
tools=(memcheck racecheck synccheck initcheck)
variants=$("$bin" --list | awk '{print $1}')
# refuses ARGS...: the binary answers these arguments with a usage error (exit 2)
refuses() {
    "$bin" "$@" --n 1 --reps 1 --warmup 0 >/dev/null 2>&1
    [[ $? == 2 ]]
}
# A set of arguments that refuses --variant (it picks its own rows, as lab3's --op
# compact does) runs once with all of its rows, as "(its rows)".
refuses --variant "$(head -1 <<<"$variants")" "$@" && variants="(its rows)"
name=$(basename "$bin")
tag=$(echo "$*" | tr -c 'A-Za-z0-9\n' '_' | sed 's/^/_/; s/_*$//')
echo "compute-sanitizer on $name, n = $n unless the extra args set --n; extra args: ${*:-none}"
printf '%-24s' "variant"; printf ' %-10s' "${tools[@]}"; printf '\n'
failed=0
while read -r v; do
    pick=(--variant "$v") file=$v
    [[ $v == "(its rows)" ]] && pick=() file=rows
    # A variant that has no row for these arguments (usage error, exit 2: lab1's
    # cas-loop is scatter-add only) is shown as such; another set covers it.
    if [[ $file != rows ]] && refuses "${pick[@]}" "$@"; then
        printf '%-24s' "$v"; printf ' %-10s' "${tools[@]/*/no-row}"; printf '\n'
        continue
    fi
    for t in "${tools[@]}"; do
        "$sanitizer" --tool "$t" --error-exitcode 99 --print-limit 20 ${SANITIZE_FLAGS:-} \
            "$bin" "${pick[@]}" --n "$n" --reps 1 --warmup 0 "$@" >"$logs/$name-$file-$t$tag.log" 2>&1 &
    done
    wait
    printf '%-24s' "$v"
    for t in "${tools[@]}"; do
        log=$logs/$name-$file-$t$tag.log
        # memcheck, synccheck, initcheck end with "ERROR SUMMARY: N errors",
        # racecheck with "RACECHECK SUMMARY: N hazards displayed (E errors, W warnings)".
        if grep -qE "ERROR SUMMARY: [1-9]|RACECHECK SUMMARY: .*\(([1-9][0-9]*) errors" "$log"; then
            result=ERRORS
        elif grep -qE "RACECHECK SUMMARY: .*, [1-9][0-9]* warnings" "$log"; then
            result=warnings
        elif ! grep -qE "ERROR SUMMARY: 0|RACECHECK SUMMARY: 0 hazards" "$log"; then
            result=no-summary
        elif grep -qE "^(FAIL|ERROR) " "$log"; then
            result=wrong
        else
            result=clean
        fi
        [[ $result == clean ]] || failed=1
        printf ' %-10s' "$result"
    done
    printf '\n'
done <<<"$variants"
echo "logs: $logs/$name-*$tag.log"
exit $failed
