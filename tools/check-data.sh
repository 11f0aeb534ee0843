#!/usr/bin/env bash
# check-data.sh: every file under plots/data/ must earn its place: something outside
# plots/data/ names it (a chart's "# data:" line, a bench script, a lecture, a
# notebook, a sheet, a test, a header). A chart's FILE_h100.csv counts as named when
# FILE.csv is (tools/plots.sh draws the H100 chart from it). Lists the files nothing
# names and exits 1 if there is one (make check-data, run in CI).
set -euo pipefail
names=$(mktemp)
trap 'rm -f "$names"' EXIT
# Every word of every tracked text file outside plots/data that could be a file name.
git ls-files -z -- . ':!plots/data' | xargs -0 grep -hoIE '[A-Za-z0-9_.+-]+\.(csv|txt|md|json|tsv|log)|[A-Za-z0-9_.+-]+/' 2>/dev/null |
    sort -u >"$names"
unreferenced=0
while IFS= read -r f; do
    base=${f##*/}
    dir=${f#plots/data/}; dir=${dir%%/*}
    if grep -qxF "$base" "$names" || grep -qxF "${base/_h100./.}" "$names" ||
       { [[ $f == plots/data/*/* ]] && grep -qxF "$dir/" "$names"; }; then
        continue
    fi
    echo "check-data: $f is referenced nowhere (delete it, or cite it where it is used)"
    unreferenced=$((unreferenced + 1))
done < <(git ls-files plots/data)
total=$(git ls-files plots/data | wc -l)
if ((unreferenced)); then
    echo "check-data: $unreferenced of $total files under plots/data are referenced nowhere"
    exit 1
fi
echo "check-data: all $total files under plots/data are referenced"
