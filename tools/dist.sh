#!/usr/bin/env bash
# dist.sh: make dist. Packs the student copy into dist/cuda-kit-student-VERSION.tar.gz
# (VERSION: CHANGELOG.md's newest), then proves it: nothing in it quotes the
# solutions (tools/grade/dist-check.sh), and unpacked alone it builds and every
# command its pages give a student works (tools/student-check.sh).
#
# What ships: every tracked file but solutions/ (with the answer keys and the trial
# reports), .ci/, tests/emu/planted-bugs.sh and tools/maint/gpu-grade-prep.sh (they
# plant bugs in solutions/, quoting their lines) with speed-rows.sh and kit-copy.sh
# (they read solutions/), and the measurements that quote solution code (plots/data:
# profiler dumps of source lines), plus, for the speed self-check of make grade, one stripped reference
# executable per lab and architecture of REF_ARCH (reference/sm_XY/labN: SASS only,
# no PTX, no line table, no symbols; default: ARCH when it names one, else this
# machine's GPU, else sm_75) and reference/BUILD-INFO.
set -euo pipefail
source tools/grade/common.sh
version=$(grade_version)
[[ -n $version ]] || { echo "dist: CHANGELOG.md names no version (a heading '## X.Y.Z ...')" >&2; exit 2; }
name=cuda-kit-student
tarball=$name-$version.tar.gz
rm -rf dist && mkdir -p "dist/$name"

mapfile -t files < <(git ls-files | grep -v '^solutions/\|^\.ci/\|^tests/emu/\(planted-bugs\|speed-rows\|kit-copy\)\.sh$\|^tools/maint/gpu-grade-prep\.sh$')
mapfile -t quoting < <(bash tools/grade/dist-check.sh quoting $(printf '%s\n' "${files[@]}" | grep '^plots/data/'))
for f in "${files[@]}"; do
    if [[ " ${quoting[*]} " == *" $f "* ]]; then
        echo "dist: left out $f (it quotes solution code)"
        continue
    fi
    mkdir -p "dist/$name/$(dirname "$f")"
    cp -p "$f" "dist/$name/$f"
done
# Without solutions/ the labs are their own source: the Makefile reads lab folders
# from solutions/ when it exists and from labs/ otherwise.

ref_archs=${REF_ARCH:-}
if [[ -z $ref_archs ]]; then
    case ${ARCH:-} in
    sm_*) ref_archs=$ARCH ;;
    *) cc=$( (nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null || true) | head -1 | tr -d ' .')
       ref_archs=sm_${cc:-75} ;;
    esac
fi
labs=$(grade_labs)
for arch in $ref_archs; do
    [[ $arch =~ ^sm_[0-9]+a?$ ]] || { echo "dist: REF_ARCH entries look like sm_90 (got '$arch')" >&2; exit 2; }
    echo "dist: the reference executables for $arch (make REF_SM=${arch#sm_})"
    targets=$(for n in $labs; do # lab 6 only where NCCL is found (make -q: 2 = no rule)
        make -q -s --no-print-directory REF_SM="${arch#sm_}" "build/reference/$arch/lab$n" 2>/dev/null
        (($? != 2)) && echo "build/reference/$arch/lab$n"; done)
    make -s --no-print-directory -j"$(nproc)" REF_SM="${arch#sm_}" $targets
    mkdir -p "dist/$name/reference/$arch"
    for t in $targets; do cp "$t" "dist/$name/reference/$arch/"; done
done
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
{
    echo "# The reference executables of make dist, for the speed self-check of make grade."
    echo "archs=$ref_archs"
    echo "nvcc=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
    echo "commit=$(git rev-parse --short HEAD)"
    echo "date=$(date -u +%Y-%m-%d)"
    echo "version=$version"
} >"dist/$name/reference/BUILD-INFO"

bash tools/grade/dist-check.sh check "dist/$name"
(cd dist && tar czf "$tarball" "$name")
echo "dist: dist/$tarball ($(du -h "dist/$tarball" | cut -f1)), the student copy of kit $version"
# DIST_CHECK=0 packs without the build check (tools/maint/gpu-grade-prep.sh makes copies to carry).
[[ ${DIST_CHECK:-1} == 0 ]] || bash tools/student-check.sh "dist/$tarball"
