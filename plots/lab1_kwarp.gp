# data: lab1_kwarp.csv
# lab1: throughput of every variant against K, the number of distinct keys in each
# warp of 32 keys (n = 2^24, 4096 bins): count histogram on the left, double
# scatter-add on the right. Log scale: the CAS loop is an order of magnitude below.
call 'plots/style.gp' ARG1 ARG2
variants = "global-atomic cas-loop smem-private warp-ballot warp-match smem-warp cub"
# Each variant keeps its colour (its place in `variants`) in both panels.
colour(v) = sum [j = 1:words(variants)] (word(variants, j) eq v ? j : 0)
count_rows = "global-atomic smem-private warp-ballot warp-match smem-warp cub"
f64_rows = "global-atomic cas-loop smem-private warp-ballot warp-match smem-warp"
rows(v, t) = sprintf("< awk -F, '$2 == \"%s\" && $4 == \"%s\" && $14 == \"PASS\" { sub(/^kwarp:/, \"\", $5); print $5 \",\" $11 }' '%s'", v, t, csv)
set multiplot layout 1,2 title sprintf("lab1: throughput vs distinct keys per warp, n = 2^{24}, 4096 bins (%s)", gpu)
set logscale y
set xrange [0.5:32.5]
set xtics (1, 2, 4, 8, 12, 16, 20, 24, 28, 32)
set xlabel "K = distinct keys in each warp (kwarp:K)"
set ylabel "Gkeys/s"
set key inside right top
set title "histogram (int32 counts)"
plot for [i = 1:words(count_rows)] rows(word(count_rows, i), "count") using 1:2 with linespoints \
     lt (word(count_rows, i) eq "cub" ? 8 : colour(word(count_rows, i))) title word(count_rows, i)
set title "scatter-add (double values)"
unset ylabel
plot for [i = 1:words(f64_rows)] rows(word(f64_rows, i), "f64") using 1:2 with linespoints \
     lt colour(word(f64_rows, i)) title word(f64_rows, i)
unset multiplot
