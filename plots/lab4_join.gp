# data: lab4_join_u.csv
# lab4: join throughput vs n = |A| + |B| rows for each join type; solid: unique keys
# (ARG1, lab4_join_u.csv), dashed: ~4 rows per key (lab4_join_d4.csv next to it).
call 'plots/style.gp' ARG1 ARG2
u = strstrt(ARG1, "join_u") + 4  # the "_u" of lab4_join_u[_h100].csv becomes "_d4"
d4 = ARG1[1:u - 1] . "_d4" . ARG1[u + 2:]
rows(f, t) = sprintf("< awk -F, '$2 == \"join\" && $4 == \"%s\" && $14 == \"PASS\"' '%s'", t, f)
set title sprintf("lab4: sort-merge joins (%s)", gpu)
set xlabel "n = |A| + |B| (int32 keys, |A| = |B|)"
set ylabel "GB/s (keys read + (a, b) index pairs written)"
set logscale x 2
set format x "2^{%L}"
set yrange [0:*]
set key left top inside
types = "inner left right outer"
plot for [i=1:4] rows(ARG1, word(types, i)) using col_n:col_gbs with linespoints lt i title word(types, i)." (unique keys)", \
     for [i=1:4] rows(d4, word(types, i)) using col_n:col_gbs with linespoints lt i dt 2 title word(types, i)." (about 4 per key)"
