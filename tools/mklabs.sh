#!/usr/bin/env bash
# mklabs.sh SRC DST      write the starter tree DST (labs/) from SRC (solutions/)
# mklabs.sh --file FILE  print the starter version of one file
#
# In .c, .cu, .cuh and .h files, every region
#     // BEGIN SOLUTION (Step N.K): hint
#     ...solution lines...
#     // STUB: line            (optional, any number, kept in order)
#     // END SOLUTION
# becomes, at the indentation of the BEGIN line,
#     // TODO(Step N.K): hint (about M lines)
#     line
# so the starter compiles and runs. Other files are copied unchanged.
# A malformed region (nested, unterminated, END without BEGIN, no step) is an error.
set -euo pipefail

strip_solutions() {
    awk '
    function fail(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; bad = 1; exit 1 }
    /^[ \t]*\/\/ BEGIN SOLUTION/ {
        if (inside) fail("BEGIN SOLUTION inside another region")
        if (!match($0, /\(Step [0-9]+\.[0-9]+\): /)) fail("BEGIN SOLUTION needs \"(Step N.K): hint\"")
        step = substr($0, RSTART + 1, RLENGTH - 4)
        hint = substr($0, RSTART + RLENGTH)
        indent = $0; sub(/[^ \t].*$/, "", indent)
        inside = 1; lines = 0; stubs = ""
        next
    }
    /^[ \t]*\/\/ STUB:/ {
        if (!inside) fail("STUB outside a solution region")
        line = $0; sub(/^[ \t]*\/\/ STUB: ?/, "", line)
        stubs = stubs indent line "\n"
        next
    }
    /^[ \t]*\/\/ END SOLUTION/ {
        if (!inside) fail("END SOLUTION without BEGIN")
        printf "%s// TODO(%s): %s (about %d line%s)\n", indent, step, hint, lines, lines == 1 ? "" : "s"
        printf "%s", stubs
        inside = 0
        next
    }
    inside { if ($0 ~ /[^ \t]/) lines++; next }
    { print }
    END { if (!bad && inside) { printf "%s: unterminated BEGIN SOLUTION\n", FILENAME > "/dev/stderr"; exit 1 } }
    ' "$1"
}

if [[ ${1:-} == --file ]]; then
    strip_solutions "$2"
    exit 0
fi
if [[ $# -ne 2 || ! -d $1 ]]; then
    echo "usage: $0 SRC DST | --file FILE" >&2
    exit 2
fi
src=$1 dst=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Only the lab folders: the rest of SRC (solutions/answers/, the answer keys) is
# for instructors and never reaches the starter copy.
(cd "$src" && find ./lab*-* -type f | sort) | while read -r f; do
    mkdir -p "$tmp/$(dirname "$f")"
    case $f in
    *.c | *.cu | *.cuh | *.h) strip_solutions "$src/$f" >"$tmp/$f" ;;
    *) cp "$src/$f" "$tmp/$f" ;;
    esac
done
# Touch only what changed, so make rebuilds only what changed.
mkdir -p "$dst"
(cd "$tmp" && find . -type f) | while read -r f; do
    if ! cmp -s "$tmp/$f" "$dst/$f"; then
        mkdir -p "$dst/$(dirname "$f")"
        cp "$tmp/$f" "$dst/$f"
        echo "updated $dst/${f#./}"
    fi
done
(cd "$dst" && find . -type f) | while read -r f; do
    [[ -e $tmp/$f ]] || { rm "$dst/$f"; echo "removed $dst/${f#./}"; }
done
find "$dst" -mindepth 1 -type d -empty -delete
echo "labs: $dst/ is generated from $src/"
