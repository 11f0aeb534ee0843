# data: lab0.csv
# lab0: useful bandwidth of every variant at n = 2^24 and 2^28 float3 records,
# with the memcpy limit of the same run as dashed lines.
call 'plots/style.gp' ARG1 ARG2
rows(n) = sprintf("< awk -F, '$3 == %d && $2 != \"memcpy\" && $14 == \"PASS\"' '%s'", n, csv)
limit(n) = sprintf("< awk -F, '$3 == %d && $2 == \"memcpy\"' '%s'", n, csv)
stats limit(16777216) using col_gbs nooutput
memcpy24 = STATS_max
stats limit(268435456) using col_gbs nooutput
memcpy28 = STATS_max
set title sprintf("lab0: memory access patterns (%s)", gpu)
set ylabel "useful GB/s (bytes read + written that the operation needs)"
set yrange [0:*]
set style fill solid 0.8 border -1
set boxwidth 0.38
set xtics rotate by -30
set arrow 1 from graph 0, first memcpy24 to graph 1, first memcpy24 nohead lc rgb "#1f77b4" dt 2
set arrow 2 from graph 0, first memcpy28 to graph 1, first memcpy28 nohead lc rgb "#ff7f0e" dt 2
set label 1 sprintf("memcpy 2^{24}: %.0f GB/s", memcpy24) at graph 0.01, first memcpy24 offset 0,0.7 tc rgb "#1f77b4"
set label 2 sprintf("memcpy 2^{28}: %.0f GB/s", memcpy28) at graph 0.99, first memcpy28 right offset 0,0.7 tc rgb "#ff7f0e"
plot rows(16777216) using ($0 - 0.2):col_gbs:xtic(col_variant) with boxes lt 1 title "n = 2^{24}", \
     rows(268435456) using ($0 + 0.2):col_gbs with boxes lt 2 title "n = 2^{28}"
