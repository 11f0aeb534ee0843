#!/usr/bin/env bash
# planted-bugs.sh: each check the CPU emulator adds to a GPU run, proved on a lab's
# own code with one bug planted (issue 43). For every bug: copy the kit (with its
# emulation build, so only the changed file recompiles), replace one line of a
# solution, build that lab's emulated driver, run it, and require a failed run whose
# output says what the emulator must say. The unchanged solutions pass the same
# runs in the GPU suites under the emulator (make test).
# Usage: tests/emu/planted-bugs.sh [NAME...]   (default: every bug). Exit 0 when
# every bug was caught, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/../.."
[[ -d solutions ]] || { echo "planted-bugs: plants bugs in solutions/: the instructor's tree only" >&2; exit 2; }
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source tests/emu/kit-copy.sh

caught=0 missed=0
# plant NAME LAB FILE BEFORE AFTER ARGS EXPECT: in solutions/FILE, the text BEFORE
# (once) becomes AFTER; ./solutionLAB ARGS must fail and print a line matching the
# extended regex EXPECT.
plant() {
    local name=$1 lab=$2 file=$3 before=$4 after=$5 args=$6 expect=$7
    [[ ${#only[@]} -gt 0 && " ${only[*]} " != *" $name "* ]] && return
    local tree="$work/$name"
    copy_kit "$tree"
    if ! python3 - "$tree/solutions/$file" "$before" "$after" <<'PY'; then
import sys
path, before, after = sys.argv[1:4]
text = open(path).read()
if text.count(before) != 1:
    sys.exit(f"planted-bugs: the text to change is not in {path} exactly once: update this bug")
open(path, 'w').write(text.replace(before, after))
PY
        missed=$((missed + 1))
        return
    fi
    if ! (cd "$tree" && make -s EMU=1 solution"$lab" >build.log 2>&1); then
        tail -5 "$tree/build.log"
        echo "MISSED  $name: the lab does not build with the bug"
        missed=$((missed + 1))
        return
    fi
    local out status said
    out=$(cd "$tree" && KIT_EMU_GPUS=4 timeout 300 ./solution"$lab" $args 2>&1)
    status=$?
    said=$(grep -m1 -E "$expect" <<<"$out")
    if ((status != 0)) && [[ -n $said ]]; then
        caught=$((caught + 1))
        echo "caught  $name (exit $status): ${said:0:150}"
    else
        missed=$((missed + 1))
        echo "MISSED  $name (exit $status): the run did not say /$expect/:"
        tail -8 <<<"$out" | sed 's/^/    /'
    fi
}
only=("$@")

plant lab2-tree-without-barrier 2 lab2-reduction/v2_sequential.cu \
    $'        __syncthreads();\n    }\n    if (tid == 0)' $'    }\n    if (tid == 0)' \
    "--n 5000 --variant sequential" 'shared-memory race on partial\['
plant lab1-shuffle-mask 1 lab1-atomics/lab1_warp.cuh \
    'int leader_key = __shfl_sync(unassigned, key, leader);' 'int leader_key = __shfl_sync(active, key, leader);' \
    "--n 5000 --variant warp-ballot" 'a mask must name only lanes|lanes disagree|not in the mask|have exited'
plant lab4-tile-end 4 lab4-merge/v1_merge_path.cu \
    '        if (diag + i < tile_n) {' '        if (diag + i <= tile_n) {' \
    "--n 5000 --variant merge-path" 'out-of-bounds shared-memory access|shared-memory race'
plant lab6-ring-without-event-wait 6 lab6-multigpu/v2_ring.cu \
    $'                if (q > 0)\n                    r = KIT_CHECK(cudaStreamWaitEvent(lane, lab6_step_event(t, left, q - 1, chunks, k), 0));\n' '' \
    "--n 5000 --gpus 4 --op allreduce --type i32 --variant ring" '^FAIL ring'
plant lab6-sort-buffer-parity 6 lab6-multigpu/v5_sort.cu \
    'int even = merge_rounds(run_count[l]) % 2 == 0;' 'int even = merge_rounds(run_count[l]) % 2 != 0;' \
    "--n 5000 --gpus 4 --op sort --variant sort" '^FAIL sort'

echo "planted bugs: $caught caught, $missed missed"
((missed == 0))
