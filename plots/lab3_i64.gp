# data: lab3_i64_tiles20_h200.csv
# lab3: the decoupled look-back paper's chart remade: billions of int64 items per
# second vs n for the copy limit, CUB and the multi-pass and single-pass scans.
call 'plots/style.gp' ARG1 ARG2
variant(v) = sprintf("< awk -F, '$2 == \"%s\" && $14 == \"PASS\"' '%s'", v, csv)
set title sprintf("lab3: exclusive prefix sum of int64 (%s)", gpu)
set xlabel "n (int64 values)"
set ylabel "billions of items / s"
set logscale x 2
set format x "2^{%L}"
set yrange [0:*]
set key inside left top
names = "reduce-then-scan chained decoupled-lookback lookback-tuned tma-pipeline"
plot for [i=1:words(names)] variant(word(names, i)) using col_n:col_gitems with linespoints lt (i + 2) title word(names, i), \
     variant("cub") using col_n:col_gitems with linespoints @cub_style title "cub", \
     variant("memcpy") using col_n:col_gitems with lines @memcpy_style title "memcpy"
