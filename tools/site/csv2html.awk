# csv2html.awk: one CSV of plots/data/ as an HTML table for the site.
# Lines starting with '#' (the GPU, CUDA version and date) become the caption;
# the first other line is the header, shown with readable column names (median_ms
# -> "median (ms)", gitems_s -> "G items/s"); sizes that are powers of two, or a
# few away from one, read as 2^24 or 2^20+7 (the number stays in data-value for
# sorting). Numeric cells are marked so the stylesheet aligns them and sort.js
# sorts them as numbers. Fields hold no quoted commas (the kit writes none).
# Usage: awk -f csv2html.awk -v name=FILE.csv FILE.csv
BEGIN {
    FS = ","
    split("lab:lab,variant:variant,n:n,type:type,dist:distribution,param:parameter," \
          "median_ms:median (ms),min_ms:min (ms),max_ms:max (ms),gbytes_s:GB/s,gitems_s:G items/s," \
          "pct_of_memcpy:% of memcpy,speedup:speed-up,status:check,runs:timed runs," \
          "baseline:speed-up over,build:build,round:round,gpus:GPUs,config:build", pairs, ",")
    for (i in pairs) { split(pairs[i], kv, ":"); label[kv[1]] = kv[2] }
}
function esc(s) {
    gsub(/&/, "\\&amp;", s); gsub(/</, "\\&lt;", s); gsub(/>/, "\\&gt;", s); gsub(/"/, "\\&quot;", s)
    return s
}
function numeric(s) { return s ~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/ }
# 16777216 -> 2^24, 1048583 -> 2^20+7, 1023 -> 2^10-1; other numbers as they are.
function power_of_two(s,    k, p, d) {
    if (s !~ /^[0-9]+$/ || s + 0 < 1000) return s
    for (k = 10; k <= 62; k++) {
        p = 2 ^ k; d = s - p
        if (d == 0) return "2^" k
        if (d > -32 && d < 32) return "2^" k (d > 0 ? "+" d : d)
    }
    return s
}
# "grid=2147483648" -> "grid=2^31"
function readable_param(s,    parts, i, kv, out) {
    if (s !~ /=/) return s
    out = ""
    for (i = 1; i <= split(s, parts, ";"); i++) {
        if (split(parts[i], kv, "=") == 2) parts[i] = kv[1] "=" power_of_two(kv[2])
        out = out (i > 1 ? ";" : "") parts[i]
    }
    return out
}
/^#/ { sub(/^# */, ""); caption = caption (caption == "" ? "" : "; ") $0; next }
!header_done {
    printf "<table class=\"data sortable\">\n<caption>%s%s</caption>\n<thead><tr>", esc(name),
        caption == "" ? "" : ": " esc(caption)
    for (i = 1; i <= NF; i++) {
        column[i] = $i
        printf "<th scope=\"col\" title=\"%s\">%s</th>", esc($i), esc($i in label ? label[$i] : $i)
    }
    printf "</tr></thead>\n<tbody>\n"
    header_done = 1; columns = NF
    next
}
NF == 0 { next }
{
    printf "<tr>"
    for (i = 1; i <= columns; i++) {
        shown = column[i] == "n" ? power_of_two($i) : column[i] == "param" ? readable_param($i) : $i
        if (numeric($i))
            printf (shown == $i ? "<td class=\"num\">%s</td>" : "<td class=\"num\" data-value=\"%s\">%s</td>"),
                esc($i), esc(shown)
        else
            printf "<td>%s</td>", esc(shown)
    }
    printf "</tr>\n"
}
END {
    if (!header_done) { printf "csv2html: %s has no header line\n", name > "/dev/stderr"; exit 1 }
    printf "</tbody>\n</table>\n"
}
