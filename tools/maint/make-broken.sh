#!/usr/bin/env bash
# make-broken.sh NAME LAB FILE PERL-EXPR: build the grading binary of a student who
# finished every step of lab LAB (the solutions as the student's labs/ code) except
# that FILE (a name inside the lab folder) carries one deliberate bug, made by the
# perl substitution PERL-EXPR. The binary lands in build/broken/grade_labLAB_NAME,
# for `tools/grade.sh` on a GPU: the grader must score the broken step as failed.
# With PERL-EXPR "" the copy is complete (the control: full marks expected).
set -euo pipefail
name=$1 lab=$2 file=$3 expr=$4
root=$(pwd)
dir=$(ls -d solutions/lab"$lab"-*/ | head -1)
dir=${dir%/}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git ls-files | grep -v '^labs/' | tar cf - -T - | tar xf - -C "$work"
mkdir -p "$work/labs"
cp -r "$dir" "$work/labs/"
target="$work/labs/$(basename "$dir")/$file"
[[ -f $target ]] || { echo "make-broken: $target not found" >&2; exit 2; }
if [[ -n $expr ]]; then
    cp "$target" "$target.orig"
    perl -0pi -e "$expr" "$target"
    if cmp -s "$target" "$target.orig"; then
        echo "make-broken: '$expr' changed nothing in $file" >&2
        exit 2
    fi
    { diff -u "$target.orig" "$target" || true; } | sed -n '3,$p' | grep '^[-+]' | head -6
    rm "$target.orig"
fi
mkdir -p "$root/build/broken"
make -s -C "$work" ARCH="${ARCH:-sm_90}" "build/tests/grade_lab$lab" >/dev/null
cp "$work/build/tests/grade_lab$lab" "$root/build/broken/grade_lab${lab}_$name"
echo "make-broken: build/broken/grade_lab${lab}_$name"
