# csv2html.awk: one CSV of plots/data/ as an HTML table for the site.
# Lines starting with '#' (the GPU, CUDA version and date) become the caption;
# the first other line is the header; numeric cells are marked so the stylesheet
# aligns them and sort.js sorts them as numbers. Fields hold no quoted commas
# (the kit writes none). Usage: awk -f csv2html.awk -v name=FILE.csv FILE.csv
BEGIN { FS = "," }
function esc(s) {
    gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
    return s
}
function numeric(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
/^#/ { sub(/^# */, ""); caption = caption (caption == "" ? "" : "; ") $0; next }
!header_done {
    printf "<table class=\"data sortable\">\n<caption>%s%s</caption>\n<thead><tr>", esc(name),
        caption == "" ? "" : ": " esc(caption)
    for (i = 1; i <= NF; i++) printf "<th scope=\"col\">%s</th>", esc($i)
    printf "</tr></thead>\n<tbody>\n"
    header_done = 1; columns = NF
    next
}
NF == 0 { next }
{
    printf "<tr>"
    for (i = 1; i <= columns; i++)
        printf (numeric($i) ? "<td class=\"num\">%s</td>" : "<td>%s</td>"), esc($i)
    printf "</tr>\n"
    rows++
}
END {
    if (!header_done) { printf "csv2html: %s has no header line\n", name > "/dev/stderr"; exit 1 }
    printf "</tbody>\n</table>\n"
}
