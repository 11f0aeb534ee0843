# data: lab1_cas.csv
# lab1: the CAS loop under skew. Time per element of the scatter-add against n, for
# zipf keys (left) and a single key (right), 256 bins: cas-loop (every resident
# thread on the hot bin retries) against the native atomic and the variants that
# aggregate or privatize. Log-log.
call 'plots/style.gp' ARG1 ARG2
variants = "global-atomic cas-loop smem-private warp-ballot warp-match smem-warp"
# the same colour per variant as in lab1_kwarp.png
colour(v) = sum [j = 1:words(variants)] (word(variants, j) eq v ? j : 0)
rows(v, d) = sprintf("< awk -F, '$2 == \"%s\" && $4 == \"f64\" && $5 == \"%s\" && $14 == \"PASS\" { print $3 \",\" $7 * 1e6 / $3 }' '%s'", v, d, csv)
set multiplot layout 1,2 title sprintf("lab1: scatter-add time per element vs n on skewed keys, 256 bins (%s)", gpu)
set logscale x 2
set format x "2^{%L}"
set logscale y
set xlabel "n (keys)"
set ylabel "ns per element"
set key inside left top
do for [d in "zipf single"] {
    set title sprintf("--dist %s", d)
    plot for [i = 1:words(variants)] rows(word(variants, i), d) using 1:2 with linespoints \
         lt colour(word(variants, i)) title word(variants, i)
    unset ylabel
}
unset multiplot
