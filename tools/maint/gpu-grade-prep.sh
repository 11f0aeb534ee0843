#!/usr/bin/env bash
# gpu-grade-prep.sh [OUT]: prepare, on a machine without a GPU, what
# tools/maint/gpu-grade-check.sh grades on one (default OUT: build/gpu-grade). For every
# lab (LABS, default all that build here) and four submissions:
#   correct   the hand-in files of solutions/ (expected: 100)
#   starter   an empty submission: every file the starter's (expected: 0 for every step)
#   bug       one planted bug (tools/maint/make-broken.sh; expected: that step failed)
#   old       the file of a step that counted on the reference objects of an old
#             student copy (its function left out): it does not link, so the grader
#             takes the starter's instead (expected: that step 0)
# it runs make grade-submission's steps up to the build (tools/grade/submission.sh:
# the manifest, the ignored files, the build rounds), here for sm_90, and keeps the
# stage: the worker, the speed driver and what the report will say of the files.
# The submissions' objects that solutions/ or labs/ already have are reused. Then
# the lab's judge, reference speed driver, contain and race, the reference
# executables make dist ships (REF_SM=90), and Criterion's libraries, all packed
# into OUT.tar.gz (carry it; under 64 MiB). The (d) verdict, that the old
# submission's file is replaced, is checked here and written to OUT/prep.txt.
set -uo pipefail
prep=${1:-build/gpu-grade} # (not "out": tools/grade/submission.sh publishes to $out)
export ARCH=sm_90
source tools/grade/common.sh
source tools/grade/submission.sh
labs=${LABS:-$(grade_labs)}
rm -rf "$prep" && mkdir -p "$prep/stages" "$prep/build/grade" "$prep/build/reference" "$prep/lib"

# step file perl-expression: one planted bug per lab, caught at the edge sizes
declare -A bug=(
    [0]='0.1 v1_float3_aos.cu s/if \(i < n\) \{/if (i + 1 < n) {/'
    [1]='1.2 v2_smem_private.cu s/if \(v != 0\)\n/if (v > 1)\n/'
    [2]='2.3 v3_first_add.cu s/if \(i \+ NT < count\)/if (i + NT + 1 < count)/'
    [3]='3.4 v4_decoupled_lookback.cu s/if \(flag == LAB3_STATUS_P\)/if (flag == LAB3_STATUS_P || depth > 1)/'
    [4]='4.1 v1_merge_path.cu s/int tile_n = tile_a \+ tile_b;/int tile_n = tile_a + tile_b - (tile_b > 0);/'
    [5]='5.1 v1_digit_4bit.cu s/if \(lane >= \(unsigned\)d\)/if (lane > (unsigned)d)/'
    [6]='6.4 v4_scan.cu s/ws->offset\[l\], \(uint32_t \*\)io->out\[l\]/ws->totals[l], (uint32_t *)io->out[l]/'
)
# step file: the file whose function the old submission leaves out
declare -A old=([0]='0.2 v2_float3_smem.cu' [1]='1.3 v3_warp_ballot.cu' [2]='2.6 v6_single_pass.cu'
                [3]='3.5 v5_lookback_tuned.cu' [4]='4.2 v2_sorted_search.cu' [5]='5.3 v3_onesweep.cu'
                [6]='6.2 v2_ring.cu')

# Objects of the submission that an earlier build already made (same source).
seed_objects() {
    local from=$1 f
    for f in "${handin[@]}"; do
        [[ $f == *.c || $f == *.cu ]] || continue
        if [[ -f $from/$f.o ]] && cmp -s "$(dirname "$from/$f" | sed 's|^build/||')/$f" "$stage/work/lab/$f"; then
            cp "$from/$f.o" "$stage/work/obj/$f.o"
        fi
    done
    touch "$stage"/work/obj/*.o 2>/dev/null || true
}

for lab in $labs; do
    echo "== lab $lab: judge, reference, tools"
    make -s --no-print-directory grade-judge-build LAB="$lab" || { echo "gpu-grade-prep: lab $lab's judge does not build" >&2; exit 1; }
    labdir=$(grade_lab_dir "$lab") starter=labs/$(basename "$labdir") table=$(grade_table "$lab")
    read -r bug_step bug_file bug_expr <<<"${bug[$lab]}"
    read -r old_step old_file <<<"${old[$lab]}"
    for case in correct starter bug old; do
        sub=build/broken/lab$lab-$case
        case $case in
        correct) bash tools/maint/make-broken.sh "$case" "$lab" "" "" ;;
        starter) rm -rf "$sub" && mkdir -p "$sub" ;;
        bug) bash tools/maint/make-broken.sh "$case" "$lab" "$bug_file" "$bug_expr" ;;
        old) bash tools/maint/make-broken.sh "$case" "$lab" "" "" &&
             printf '/* %s: the reference objects of an old student copy define this step */\n' "$old_file" >"$sub/$old_file" ;;
        esac
        stage=$prep/stages/lab$lab-$case
        mkdir -p "$stage/logs"
        worker=$stage/work/worker yours=$stage/work/speed out=$stage/failed-build
        {
            echo "lab=lab$lab"
            echo "title=gpu-grade-check: lab $lab, the $case submission, graded for credit"
            echo "version=$(grade_version)"
            echo "reference=built from solutions/ at $(git rev-parse --short HEAD) with nvcc $(nvcc --version | sed -n 's/.*release \([0-9.]*\).*/\1/p'), ARCH sm_90"
        } >"$stage/meta"
        unpack "$sub" "$stage/sub"
        take_handin
        list_ignored
        if [[ $case == starter ]]; then seed_objects "build/labs/$(basename "$labdir")"; else seed_objects "build/solutions/$(basename "$labdir")"; fi
        echo "   $case: building the worker"
        (build_worker make -k -s --no-print-directory -j2 grade-worker-build LAB="$lab" GRADE_WORK="$(realpath "$stage")/work") ||
            { echo "gpu-grade-prep: lab $lab $case does not build" >&2; exit 1; }
        echo "$lab $case ${bug_step:-} ${old_step:-}" >"$stage/case"
        rm -rf "$stage/work/obj" "$stage/sub"
        strip "$worker" "$yours"
        [[ $case == correct ]] || : >"$yours" # only the correct submission is timed
    done
    grep -q "^handed=$old_file	does not define" "$prep/stages/lab$lab-old/meta" &&
        echo "lab $lab (d): $old_file without its function does not link; the grader takes the starter's (Step $old_step scores 0)" >>"$prep/prep.txt" ||
        echo "lab $lab (d): FAILED: the old submission's $old_file was not refused" >>"$prep/prep.txt"
    cp build/grade/judge_lab"$lab" build/grade/speed_lab"$lab" "$prep/build/grade/"
    strip "$prep/build/grade/judge_lab$lab" "$prep/build/grade/speed_lab$lab"
done
cp build/grade/contain build/grade/race "$prep/build/grade/"
bash tools/maint/bundle-libs.sh "$prep/build/grade/judge_lab0" "$prep/lib"
make -s --no-print-directory -j2 REF_SM=90 $(for n in $labs; do echo build/reference/sm_90/lab$n; done) ||
    { echo "gpu-grade-prep: the reference executables do not build" >&2; exit 1; }
cp build/reference/sm_90/lab* "$prep/build/reference/"
cat "$prep/prep.txt"
tar czf "$prep.tar.gz" -C "$(dirname "$prep")" "$(basename "$prep")"
echo "gpu-grade-prep: $prep.tar.gz ($(du -h "$prep.tar.gz" | cut -f1)); on the GPU: bash tools/maint/gpu-grade-check.sh $prep.tar.gz OUTDIR"
