# data: lab3_i32_tiles20_h200.csv
# lab3: every scan variant and CUB at n = 2^24 and 2^28 (exclusive int32), in
# billions of items per second, with the memcpy rate of the same run as lines.
call 'plots/style.gp' ARG1 ARG2
rows(n) = sprintf("< awk -F, '$3 == %d && $2 != \"memcpy\" && $14 == \"PASS\"' '%s'", n, csv)
limit(n) = sprintf("< awk -F, '$3 == %d && $2 == \"memcpy\"' '%s'", n, csv)
stats limit(16777216) using col_gitems nooutput
memcpy24 = STATS_max
stats limit(268435456) using col_gitems nooutput
memcpy28 = STATS_max
set title sprintf("lab3: scan variants, exclusive int32 (%s)", gpu)
set ylabel "billions of items / s"
top = memcpy24 > memcpy28 ? memcpy24 : memcpy28
set yrange [0:1.12 * top]
set style fill solid 0.8 border -1
set boxwidth 0.38
set xtics rotate by -30
set arrow 1 from graph 0, first memcpy24 to graph 1, first memcpy24 nohead lc rgb "#1f77b4" dt 2
set arrow 2 from graph 0, first memcpy28 to graph 1, first memcpy28 nohead lc rgb "#ff7f0e" dt 2
set label 1 sprintf("memcpy 2^{24}: %.1f G items/s", memcpy24) at graph 0.01, first memcpy24 offset 0,0.7 tc rgb "#1f77b4"
set label 2 sprintf("memcpy 2^{28}: %.1f G items/s", memcpy28) at graph 0.99, first memcpy28 right offset 0,0.7 tc rgb "#ff7f0e"
plot rows(16777216) using ($0 - 0.2):col_gitems:xtic(col_variant) with boxes lt 1 title "n = 2^{24}", \
     rows(268435456) using ($0 + 0.2):col_gitems with boxes lt 2 title "n = 2^{28}"
