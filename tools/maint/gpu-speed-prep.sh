#!/usr/bin/env bash
# gpu-speed-prep.sh [OUT]: prepare, on a machine without a GPU, the student copy that
# tools/maint/gpu-speed-check.sh grades on the GPU (default OUT: dist/gpu-check).
#
# A make dist copy (REF_ARCH=sm_90: the reference objects for H100/H200) in which
# lab 3 plays a student who solved every step: the solution files are copied into its
# labs/lab3-scan/, so the speed score must find the reference's own speed (full
# marks), except for Step 3.1, whose launcher is wrapped to run the same scan five
# times (a correct result, five times slower: zero speed). Lab 3's driver, grading
# binary and objects are built here for sm_90, Criterion's libraries bundled next to
# them (no Criterion on the GPU machine), the dependency files dropped so that make
# there relies on times alone. Carry OUT to the GPU machine (it is under dist/,
# which git ignores).
set -euo pipefail
out=${1:-dist/gpu-check}
REF_ARCH=sm_90 ARCH=sm_90 DIST_CHECK=0 bash tools/dist.sh
rm -rf "$out"
mkdir -p "$out"
tar xzf dist/cuda-kit-student.tar.gz -C "$out"
copy=$out/cuda-kit-student
for f in solutions/lab3-scan/*.c solutions/lab3-scan/*.cu solutions/lab3-scan/*.cuh solutions/lab3-scan/*.h; do
    cp "$f" "$copy/labs/lab3-scan/"
done
# Step 3.1, correct but five times slower.
slow=$copy/labs/lab3-scan/v1_warp_shuffle.cu
grep -q '^extern "C" int lab3_warp_shuffle(' "$slow" ||
    { echo "gpu-speed-prep: the launcher of $slow is not where expected" >&2; exit 2; }
sed -i 's/^extern "C" int lab3_warp_shuffle(/static int lab3_warp_shuffle_once(/' "$slow"
cat >>"$slow" <<'EOF'

/* gpu-speed-prep.sh: deliberately slow (the whole scan five times) for the speed check. */
extern "C" int lab3_warp_shuffle(const lab3_scan_io *io, cudaStream_t stream)
{
    int r = 0;
    for (int i = 0; i < 5 && !r; i++)
        r = lab3_warp_shuffle_once(io, stream);
    return r;
}
EOF
make -s -C "$copy" ARCH=sm_90 STARTER_FLAGS= lab3 build/tests/grade_lab3
bash tools/maint/bundle-libs.sh "$copy/build/tests/grade_lab3" "$copy/build/bin/lib"
find "$copy/build" -name '*.d' -delete
echo "gpu-speed-prep: $copy ready ($(du -sh "$out" | cut -f1)); on the GPU: bash tools/maint/gpu-speed-check.sh $out OUTDIR"
