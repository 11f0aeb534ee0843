#!/usr/bin/env bash
# dist.sh: pack a student copy (everything tracked except solutions/) into
# dist/cuda-kit-student.tar.gz, and prove it builds on its own.
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
echo "dist: checking that the student copy builds on its own"
make -s -C "dist/$name" all ARCH="${ARCH:-sm_75}" >/dev/null
echo "dist: dist/$name.tar.gz ($(du -h "dist/$name.tar.gz" | cut -f1)) builds: $(cd "dist/$name" && ls lab[0-9] | tr '\n' ' ')"
