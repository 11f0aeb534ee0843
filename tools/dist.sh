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
(cd dist && tar czf "$name.tar.gz" "$name")
echo "dist: dist/$name.tar.gz ($(du -h "dist/$name.tar.gz" | cut -f1))"
bash tools/student-check.sh "dist/$name.tar.gz"
