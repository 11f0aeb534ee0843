#!/usr/bin/env bash
# site.sh [OUT]: render the course as a static web site into OUT (default site/).
#
# Pages, in reading order (the previous / next links follow it): the contents,
# README.md, lectures/README.md, then for each lab N: lectures/0N-*.md, the
# exercise sheet (solutions/labN-*/README.md, or labs/ in a student copy) and a
# results page with every plots/data/labN*.csv as a sortable table beside the
# charts drawn from it. Pandoc converts (GitHub Markdown), tools/site/ holds the
# template, the stylesheet, the sort script and the link filter (links.lua).
# Sheets are published under labs/ whatever the source tree: the site never holds
# a file of solutions/.
set -euo pipefail
out=${1:-site}
kit=tools/site
command -v pandoc >/dev/null ||
    { echo "site: pandoc not found: run 'make deps' (or apt-get install pandoc)" >&2; exit 2; }
tree=labs
compgen -G "solutions/lab*-*/README.md" >/dev/null && tree=solutions
work=build/site # generated Markdown and the lists links.lua reads
rm -rf "$out" "$work"
mkdir -p "$out" "$work"

src=() dst=() label=() origin=() # one entry per page, in reading order
add_page() { src+=("$1"); dst+=("$2"); label+=("$3"); origin+=("$4"); }
title_of() { sed -n '/^# /{s/^# *//;s/[`*]//g;p;q}' "$1"; }

# The contents page is written last (it lists every page), but comes first.
add_page "$work/index.md" index.html Contents ""
add_page README.md README.html Introduction README.md
[[ -f lectures/README.md ]] && add_page lectures/README.md lectures/README.html "Reading order" lectures/README.md

lab_number() { local d=${1##*/}; d=${d%%-*}; echo "${d#lab}"; }
numbers=$({
    for f in lectures/[0-9][0-9]-*.md; do [[ -f $f ]] && n=${f#lectures/} && echo $((10#${n%%-*})); done
    for d in "$tree"/lab*-*/; do [[ -d $d ]] && lab_number "${d%/}"; done
} | sort -n -u)

# A chart's caption: the comment lines of its gnuplot script after "# data:".
chart_caption() { sed -n '2,/^[^#]/{/^#/{s/^# *//;p}}' "$1" | tr '\n' ' ' | sed 's/ *$//'; }

first_file() { [[ -f $1 ]] && echo "$1" || true; }

# A chart with its CSV: the chart full width (a click opens it at full size), then
# the table of the CSV it plots, open (`details` works without JavaScript).
chart_section() {
    local gp=$1 open=$2 csv png
    csv=plots/data/$(sed -n '1s/^# data: *//p' "$gp")
    png=${gp%.gp}.png
    [[ -f $png && -f $csv ]] || return 0
    echo
    echo "### $(basename "$png" .png)"
    echo
    printf '<figure class="chart">\n\n[![%s](../../%s)](../../%s)\n\n' "$(chart_caption "$gp")" "$png" "$png"
    printf '<figcaption>%s (click to enlarge; data: <code>%s</code>)</figcaption></figure>\n' \
        "$(chart_caption "$gp" | sed 's/&/\&amp;/g; s/</\&lt;/g')" "${csv##*/}"
    if [[ $csv != *.csv ]]; then # a chart drawn from a program's text output
        printf '\nThe numbers: [%s](../../%s)\n' "${csv##*/}" "$csv"
        return 0
    fi
    echo
    printf '<details%s><summary>the numbers: %s</summary>\n<div class="table-wrap">\n' "$open" "${csv##*/}"
    awk -f "$kit/csv2html.awk" -v name="${csv##*/}" "$csv"
    printf '</div>\n</details>\n'
}

# labs/labN-x/results.md: first the charts lecture N shows (in its order), each with
# its CSV; then the lab's other charts (ablations, tuning, other GPUs); then every
# other measurement of the lab (a CSV no chart draws: tables one click away; text
# files as links). The notebook (lectures/notebooks/) tells their story.
write_results() {
    local n=$1 md=$2 gp png csv lecture notebook
    lecture=$(first_file lectures/"$(printf %02d "$n")"-*.md)
    notebook=$(first_file lectures/notebooks/"$(printf %02d "$n")"-*.md)
    local shown=() others=() drawn=" "
    [[ -n $lecture ]] && mapfile -t shown < <(grep -o 'plots/lab'"$n"'[_.][A-Za-z0-9_]*\.png' "$lecture" |
                                              awk '!seen[$0]++' | sed 's/\.png$/.gp/' |
                                              while read -r g; do [[ -f $g ]] && echo "$g"; done)
    for gp in plots/lab"$n".gp plots/lab"$n"_*.gp; do
        [[ -f $gp ]] || continue
        drawn+="$(sed -n '1s/^# data: *//p' "$gp") "
        [[ " ${shown[*]} " == *" $gp "* ]] || others+=("$gp")
    done
    {
        echo "# Lab $n: measured results"
        echo
        echo "What lab $n measured, as committed in \`plots/data/\` (\`make bench\` on a GPU"
        echo "writes the CSVs, \`make plots\` draws the charts). Each table's caption names the"
        echo "GPU, the CUDA version and the date; click a column head to sort."
        [[ -n $notebook ]] && echo "The [lab's notebook](../../$notebook) tells how each measurement came about."
        if ((${#shown[@]})); then
            printf '\n## The charts of the lecture\n'
            for gp in "${shown[@]}"; do chart_section "$gp" " open"; done
        fi
        if ((${#others[@]})) || compgen -G "plots/lab${n}_*_h100.png" >/dev/null; then
            printf '\n## Other charts: ablations, tuning, other GPUs\n'
            for gp in "${others[@]}"; do chart_section "$gp" ""; done
            for gp in "${shown[@]}" "${others[@]}"; do
                png=${gp%.gp}_h100.png
                [[ -f $png ]] && printf '\n### %s\n\n<figure class="chart">\n\n[![%s](../../%s)](../../%s)\n\n<figcaption>The same chart from the H100 measurement (history: older code, on a GPU the kit no longer runs on).</figcaption></figure>\n' \
                    "$(basename "$png" .png)" "$(basename "$png" .png)" "$png" "$png"
            done
        fi
        local listed=0
        for csv in plots/data/lab"$n".csv plots/data/lab"$n"_*.csv; do
            [[ -f $csv && $drawn != *" ${csv##*/} "* ]] || continue
            ((listed++)) || printf '\n## Other measurements\n\nCSVs no chart draws: history, ablations and checks the notebook cites.\n'
            printf '\n<details><summary>%s</summary>\n<div class="table-wrap">\n' "${csv##*/}"
            awk -f "$kit/csv2html.awk" -v name="${csv##*/}" "$csv"
            printf '</div>\n</details>\n'
        done
        local txt
        for txt in plots/data/lab"$n"_*.txt plots/data/lab"$n".txt; do
            [[ -f $txt ]] || continue
            ((listed++)) || printf '\n## Other measurements\n'
            echo
            echo "- [${txt##*/}](../../$txt)"
        done
    } >"$md"
}

for n in $numbers; do
    for f in lectures/$(printf %02d "$n")-*.md; do
        [[ -f $f ]] && add_page "$f" "${f%.md}.html" "Lecture $n" "$f"
    done
    for d in "$tree"/lab"$n"-*/; do
        [[ -d $d ]] || continue
        name=$(basename "$d")
        [[ -f $d/README.md ]] && add_page "$d/README.md" "labs/$name/README.html" "Lab $n sheet" "${d}README.md"
        if compgen -G "plots/data/lab${n}[._]*" >/dev/null; then
            mkdir -p "$work/labs/$name"
            write_results "$n" "$work/labs/$name/results.md"
            add_page "$work/labs/$name/results.md" "labs/$name/results.html" "Lab $n results" "plots/data/lab$n*"
        fi
    done
done
# Appendix: the labs' notebooks (the measurement history behind each lecture), in lab order.
for f in lectures/notebooks/[0-9][0-9]-*.md; do
    [[ -f $f ]] || continue
    n=${f#lectures/notebooks/}
    add_page "$f" "${f%.md}.html" "Notebook $((10#${n%%-*}))" "$f"
done

# What links.lua needs: the repository path of every page (sheets under both
# trees and their folders), and every file a page may link to (solutions/ left out).
pages_file=$work/pages.tsv files_file=$work/files.txt assets_file=$work/assets.txt
: >"$assets_file"
for i in "${!src[@]}"; do
    case ${dst[$i]} in
    index.html) repo=index.md ;;
    labs/*/README.html) repo=${dst[$i]%.html}.md ;;
    labs/*/results.html) repo=${dst[$i]%.html}.md ;;
    *) repo=${src[$i]} ;;
    esac
    printf '%s\t%s\n' "$repo" "${dst[$i]}"
    if [[ ${dst[$i]} == labs/*/README.html ]]; then
        lab=${dst[$i]#labs/}
        lab=${lab%/README.html}
        printf 'solutions/%s/README.md\t%s\n' "$lab" "${dst[$i]}"
        printf 'labs/%s\t%s\nsolutions/%s\t%s\n' "$lab" "${dst[$i]}" "$lab" "${dst[$i]}"
    fi
    [[ ${dst[$i]} == lectures/README.html ]] && printf 'lectures\t%s\n' "${dst[$i]}"
done >"$pages_file"
find . \( -name .git -o -path ./build -o -path ./dist -o -path ./solutions -o -path "./$out" \) -prune \
    -o -type f -print | sed 's|^\./||' >"$files_file"

# The contents page: every page but itself, grouped as read.
{
    echo "# Contents"
    echo
    echo '<div class="contents">'
    echo
    group=""
    for i in "${!src[@]}"; do
        ((i == 0)) && continue
        case ${label[$i]} in
        Lecture*|Lab*) g=${label[$i]#* } g=${g%% *} ;;
        Notebook*) g=notebooks ;;
        *) g="" ;;
        esac
        if [[ $g != "$group" ]]; then
            group=$g
            if [[ $g == notebooks ]]; then
                printf '\n## Appendix: the labs'"'"' notebooks\n\n'
            else
                printf '\n## Lab %s\n\n' "$g"
            fi
        fi
        repo=$(awk -F'\t' -v d="${dst[$i]}" '$2 == d { print $1; exit }' "$pages_file")
        title=$(title_of "${src[$i]}")
        echo "- **${label[$i]}**: [${title:-${label[$i]}}]($repo)"
    done
    echo
    echo '</div>'
} >"${src[0]}"

status=0
for i in "${!src[@]}"; do
    page=${dst[$i]}
    depth=${page//[^\/]/}
    root=""
    for ((d = 0; d < ${#depth}; d++)); do root+=../; done
    args=(-M "root=$root" -M "pagetitle=$(title_of "${src[$i]}")" -M "site-name=GPU parallel patterns")
    [[ -n ${origin[$i]} ]] && args+=(-M "source=${origin[$i]}")
    [[ $page == */results.html ]] && args+=(-M sortable=true -M body-class=results)
    if ((i > 0)); then
        args+=(-M "prev-href=$root${dst[$((i - 1))]}" -M "prev-title=${label[$((i - 1))]}")
    fi
    if ((i + 1 < ${#src[@]})); then
        args+=(-M "next-href=$root${dst[$((i + 1))]}" -M "next-title=${label[$((i + 1))]}")
    fi
    repo=$(awk -F'\t' -v d="$page" '$2 == d { print $1; exit }' "$pages_file")
    mkdir -p "$out/$(dirname "$page")"
    SITE_SOURCE=$repo SITE_OUTPUT=$page SITE_PAGES=$pages_file SITE_FILES=$files_file SITE_ASSETS=$assets_file \
        pandoc -f gfm+implicit_figures+tex_math_dollars -t html5 --mathml --standalone --wrap=preserve --template "$kit/template.html" \
        --lua-filter "$kit/links.lua" --highlight-style=tango "${args[@]}" \
        -o "$out/$page" "${src[$i]}" || status=1
done
cp "$kit/style.css" "$kit/sort.js" "$out/"
sort -u "$assets_file" | while read -r f; do
    mkdir -p "$out/$(dirname "$f")"
    cp "$f" "$out/$f"
done
((status == 0)) || { echo "site: pandoc failed (above)" >&2; exit 1; }
echo "site: ${#src[@]} pages and $(sort -u "$assets_file" | wc -l) linked files in $out/ (open $out/index.html)"
