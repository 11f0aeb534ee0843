#!/usr/bin/env bash
# dist.sh: pack a student copy (everything tracked except solutions/) into
# dist/cuda-kit-student.tar.gz, then prove that it builds on its own and that every
# command its pages give a student works in it (tools/student-check.sh).
set -euo pipefail
name=cuda-kit-student
rm -rf dist && mkdir -p "dist/$name"
git ls-files | grep -v '^solutions/' | grep -v '^\.ci/' | while read -r f; do
    mkdir -p "dist/$name/$(dirname "$f")"
    cp -p "$f" "dist/$name/$f"
done
# Without solutions/ the labs are their own source: the Makefile reads lab folders
# from solutions/ when it exists and from labs/ otherwise.

# The speed score times the student's variants against the reference on the
# student's GPU: ship the reference objects (every solution file but main.c), one
# archive per lab for each architecture in REF_ARCH (default: ARCH when it names one,
# else this machine's GPU, else sm_75). The student copy links them with its own
# main.c (make grade) and refuses clearly on a GPU of another architecture.
ref_archs=${REF_ARCH:-}
if [[ -z $ref_archs ]]; then
    case ${ARCH:-} in
    sm_*) ref_archs=$ARCH ;;
    *) cc=$( (nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null || true) | head -1 | tr -d ' .')
       ref_archs=sm_${cc:-75} ;;
    esac
fi
labs=$(ls -d solutions/lab*-*/ | sed 's|solutions/lab\([0-9]*\)-.*|\1|')
for arch in $ref_archs; do
    [[ $arch =~ ^sm_[0-9]+a?$ ]] || { echo "dist: REF_ARCH entries look like sm_90 (got '$arch')" >&2; exit 2; }
    echo "dist: reference objects for $arch"
    make -s --no-print-directory ARCH="$arch" $(for n in $labs; do echo "build/reference/$arch/liblab$n.a"; done)
    mkdir -p "dist/$name/reference/$arch"
    cp build/reference/"$arch"/liblab*.a "dist/$name/reference/$arch/"
done
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
{
    echo "# The reference objects of make dist, for the speed score of make grade."
    echo "archs=$ref_archs"
    echo "nvcc=$("$nvcc" --version | sed -n 's/.*release \([0-9.]*\).*/\1/p')"
    echo "commit=$(git rev-parse --short HEAD)"
    echo "date=$(date -u +%Y-%m-%d)"
} >"dist/$name/reference/BUILD-INFO"
(cd dist && tar czf "$name.tar.gz" "$name")
echo "dist: dist/$name.tar.gz ($(du -h "dist/$name.tar.gz" | cut -f1))"
# DIST_CHECK=0 packs without the check (tools/maint/gpu-speed-prep.sh builds a copy to carry).
[[ ${DIST_CHECK:-1} == 0 ]] || bash tools/student-check.sh "dist/$name.tar.gz"
