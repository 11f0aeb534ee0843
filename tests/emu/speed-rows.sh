#!/usr/bin/env bash
# speed-rows.sh: every row of every lab's speed table (solutions/labN-*/speed.cfg) is
# a row that the lab's driver prints when run as tools/speed.sh runs it (its rows
# command gives the arguments). The grader's speed probe finds
# the row to time by that name: a row the driver never prints is never timed (lab
# 6's applications were not, on a GPU, until their rows carried the driver's names,
# histogram@2gpu). On the CPU emulator at its default sizes (KIT_EMU_GPUS=2 for
# the two-GPU rows), in a copy of the kit. Exit 0 when every row is found.
set -uo pipefail
cd "$(dirname "$0")/../.."
[[ -d solutions ]] || { echo "speed-rows: reads solutions/: the instructor's tree only" >&2; exit 2; }
source tests/emu/kit-copy.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy_kit "$work/kit"
cd "$work/kit" || exit 2
found=0 missing=0
for table in solutions/lab*-*/speed.cfg; do
    dir=$(basename "$(dirname "$table")")
    lab=${dir%%-*}
    lab=${lab#lab}
    if ! make -s EMU=1 "solution$lab" >"$work/build$lab.log" 2>&1; then
        tail -5 "$work/build$lab.log"
        echo "MISSING lab $lab: its emulated driver does not build"
        missing=$((missing + 1))
        continue
    fi
    while read -r key row args; do
        # shellcheck disable=SC2086 # the arguments are words
        out=$(KIT_EMU_GPUS=2 timeout 300 ./solution"$lab" $args 2>&1)
        if awk -v row="$row" '$1 == row { hit = 1 } END { exit !hit }' <<<"$out"; then
            found=$((found + 1))
        else
            missing=$((missing + 1))
            echo "MISSING $key: ./solution$lab $args prints no row named $row:"
            tail -5 <<<"$out" | sed 's/^/    /'
        fi
    done < <(bash tools/speed.sh rows "$table" ./solution"$lab")
done
echo "speed rows: $found found in their drivers' output, $missing missing"
((missing == 0))
