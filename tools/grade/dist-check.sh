#!/usr/bin/env bash
# dist-check.sh: what keeps the solutions out of the student copy (tools/dist.sh).
#
# dist-check.sh secret
#     The solution lines: every line of a BEGIN/END SOLUTION region of solutions/
#     (trimmed) of QUOTE_MIN (default 40) characters or more, that the student has
#     anyway: not in the starter (labs/), common/, tools/, nor in a solution file
#     outside its regions.
# dist-check.sh quoting FILE...
#     Those of the FILEs that quote a solution line (binaries through strings).
# dist-check.sh check COPY
#     Fails (exit 1) when a file of the student copy COPY quotes a solution line
#     (except the reviewed quotes of tools/grade/dist-quotes.txt, named there by the
#     file and the line's sha256, each of which must still be found), when a binary
#     of it holds PTX (cuobjdump --dump-ptx; where the toolkit has no cuobjdump,
#     tools/grade/fatbin.py reads the fat binaries), or when a binary names a path of
#     solutions/ or of this tree. Prints what it checked.
set -uo pipefail
here=$(dirname "$0")
cuobjdump=$(dirname "$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)")/cuobjdump
min=${QUOTE_MIN:-40}

regions() { # the region lines of the solution files, trimmed, at least $min long
    awk -v min="$min" '
        /^[ \t]*\/\/ BEGIN SOLUTION/ { inside = 1; next }
        /^[ \t]*\/\/ END SOLUTION/ { inside = 0; next }
        inside && !/^[ \t]*\/\/ STUB:/ { l = $0; gsub(/^[ \t]+|[ \t]+$/, "", l); if (length(l) >= min) print l }' "$@"
}

secret() {
    local marked candidates public
    mapfile -t marked < <(grep -l '// BEGIN SOLUTION' -r solutions)
    candidates=$(mktemp) public=$(mktemp)
    regions "${marked[@]}" | sort -u >"$candidates"
    {
        find labs common tools -type f -print0 | xargs -0 cat
        awk '/^[ \t]*\/\/ BEGIN SOLUTION/ { i = 1; next } /^[ \t]*\/\/ END SOLUTION/ { i = 0; next } !i' "${marked[@]}"
        grep -L '// BEGIN SOLUTION' -r solutions | xargs cat
    } >"$public"
    # a candidate the public text holds anywhere, even inside a longer line, is public
    python3 -c 'import sys
public = open(sys.argv[2], errors="replace").read()
for line in open(sys.argv[1]):
    if line.rstrip("\n") not in public:
        print(line, end="")' "$candidates" "$public"
    rm -f "$candidates" "$public"
}

# FILE<TAB>the solution line it quotes, for each quote in the FILEs.
quotes() {
    local lines=$1 f
    shift
    for f in "$@"; do
        if grep -qI . "$f" 2>/dev/null || [[ ! -s $f ]]; then
            grep -F -o -f "$lines" "$f" 2>/dev/null
        else
            strings -n 8 "$f" | grep -F -o -f "$lines"
        fi | sort -u | sed "s|^|$f\t|"
    done
}

if [[ -x $cuobjdump ]]; then
    ptx_tool="cuobjdump --dump-ptx"
    holds_ptx() { "$cuobjdump" --dump-ptx "$1" 2>/dev/null | grep -q '^\.version\|^\.target'; }
else
    ptx_tool="tools/grade/fatbin.py: this toolkit has no cuobjdump"
    holds_ptx() { python3 "$here/fatbin.py" "$1" | grep -qv ': ptx 0,'; }
fi

check() {
    local copy=$1 lines found bad=0 binaries=() f
    lines=$(mktemp) found=$(mktemp)
    secret >"$lines"
    echo "dist-check: $(wc -l <"$lines") solution lines of $min characters or more; searching the copy for them"
    (cd "$copy" && mapfile -t files < <(find . -type f | sed 's|^\./||' | sort) && quotes "$lines" "${files[@]}") >"$found"
    local seen=""
    while IFS=$'\t' read -r file quote; do
        local key
        key="$file"$'\t'$(printf '%s' "$quote" | sha256sum | cut -c1-16)
        seen+="$key"$'\n'
        if grep -qF "$key"$'\t' "$here/dist-quotes.txt"; then
            echo "  reviewed: $file quotes \"$quote\""
        else
            echo "  FAIL  $file quotes a solution line: \"$quote\""
            bad=1
        fi
    done <"$found"
    while IFS=$'\t' read -r file hash why; do
        [[ -z $file || $file == \#* ]] && continue
        grep -qF "$file"$'\t'"$hash" <<<"$seen" ||
            { echo "  FAIL  tools/grade/dist-quotes.txt lists a quote that $file no longer has: drop it"; bad=1; }
    done <"$here/dist-quotes.txt"
    mapfile -t binaries < <(cd "$copy" && find . -type f -exec sh -c 'head -c 4 "$1" | grep -q "ELF"' _ {} \; -print | sed 's|^\./||')
    for f in "${binaries[@]}"; do
        if holds_ptx "$copy/$f"; then
            echo "  FAIL  $f holds PTX ($ptx_tool)"
            bad=1
        fi
        if strings "$copy/$f" | grep -qE "solutions/|$(pwd)"; then
            echo "  FAIL  $f names a path of solutions/ or of this tree: $(strings "$copy/$f" | grep -m1 -E "solutions/|$(pwd)")"
            bad=1
        fi
    done
    echo "dist-check: ${#binaries[@]} binaries searched for PTX ($ptx_tool) and paths (strings)"
    rm -f "$lines" "$found"
    ((bad == 0)) && echo "dist-check: the copy quotes no solution line and ships no PTX"
    return $bad
}

case ${1:-} in
secret) secret ;;
quoting)
    shift
    lines=$(mktemp)
    secret >"$lines"
    quotes "$lines" "$@" | cut -f1 | sort -u
    rm -f "$lines" ;;
check) check "$2" ;;
*) echo "usage: dist-check.sh secret | quoting FILE... | check COPY" >&2; exit 2 ;;
esac
