#!/usr/bin/env bash
# make-broken.sh NAME LAB FILE PERL-EXPR [DIR]: a submission of lab LAB for the
# grader's checks: the files a student hands in, as solutions/ has them (a finished
# lab), except that FILE carries one deliberate bug, made by the perl substitution
# PERL-EXPR. In DIR (default build/broken/labLAB-NAME), ready for
# make grade-submission LAB=LAB SUB=DIR: the grader must score that step as failed.
# With PERL-EXPR "" the submission is complete (full marks expected).
set -euo pipefail
name=$1 lab=$2 file=$3 expr=$4
out=${5:-build/broken/lab$lab-$name}
dir=$(ls -d solutions/lab"$lab"-*/ | head -1)
rm -rf "$out" && mkdir -p "$out"
grep -l '// BEGIN SOLUTION' "$dir"* | xargs -I{} cp {} "$out/"
[[ -z $file ]] && exit 0
target=$out/$file
[[ -f $target ]] || { echo "make-broken: $file is not a file students hand in for lab $lab" >&2; exit 2; }
cp "$target" "$target.orig"
perl -0pi -e "$expr" "$target"
if cmp -s "$target" "$target.orig"; then
    echo "make-broken: '$expr' changed nothing in $file" >&2
    exit 2
fi
{ diff -u "$target.orig" "$target" || true; } | sed -n '3,$p' | grep '^[-+]' | head -6
rm "$target.orig"
