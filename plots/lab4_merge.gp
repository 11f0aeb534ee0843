# data: lab4_merge.csv
# lab4: merge throughput vs total size n = |A| + |B| (|A| = |B|), memcpy dashed, CUB grey.
call 'plots/style.gp' ARG1 ARG2
variant(v) = sprintf("< awk -F, '$2 == \"%s\" && $14 == \"PASS\"' '%s'", v, ARG1)
set title sprintf("lab4: merging two sorted int32 arrays (%s)", gpu)
set xlabel "n = |A| + |B| (int32 keys)"
set ylabel "GB/s (inputs read + output written)"
set logscale x 2
set format x "2^{%L}"
set yrange [0:*]
set key left top inside
plot variant("naive-merge") using col_n:col_gbs with linespoints lt 1 title "naive-merge (4.0)", \
     variant("merge-path") using col_n:col_gbs with linespoints lt 2 title "merge-path (4.1)", \
     variant("cub") using col_n:col_gbs with linespoints @cub_style title "cub::DeviceMerge", \
     variant("memcpy") using col_n:col_gbs with lines @memcpy_style title "memcpy"
