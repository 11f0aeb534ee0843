#!/usr/bin/env bash
# sanitize.sh BINARY [EXTRA ARGS]: run every variant of a lab at a small size under
# compute-sanitizer's four tools and print a variant x tool table. The size
# (SANITIZE_N, default 4099) gives a partial warp, a partial block and several
# blocks. The four tools run side by side. Logs go to $SANITIZE_LOGS (default
# build/sanitize). Exit 1 if any tool reported an error.
set -uo pipefail
bin=$1
shift
logs=${SANITIZE_LOGS:-build/sanitize}
n=${SANITIZE_N:-4099}
mkdir -p "$logs"
sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
[[ -x $sanitizer ]] || { echo "sanitize: compute-sanitizer not found" >&2; exit 2; }
tools=(memcheck racecheck synccheck initcheck)
variants=$("$bin" --list | awk '{print $1}')
name=$(basename "$bin")
echo "compute-sanitizer on $name, n = $n, extra args: ${*:-none}"
printf '%-24s' "variant"; printf ' %-10s' "${tools[@]}"; printf '\n'
failed=0
for v in $variants; do
    for t in "${tools[@]}"; do
        "$sanitizer" --tool "$t" --error-exitcode 99 --print-limit 20 \
            "$bin" --variant "$v" --n "$n" --reps 1 --warmup 0 "$@" >"$logs/$name-$v-$t.log" 2>&1 &
    done
    wait
    printf '%-24s' "$v"
    for t in "${tools[@]}"; do
        log=$logs/$name-$v-$t.log
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
done
echo "logs: $logs/$name-*.log"
exit $failed
