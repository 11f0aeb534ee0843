# data: lab4_merge.csv
# lab4: the merge variants at n = 2^26 keys, with the memcpy limit of the same run dashed.
call 'plots/style.gp' ARG1 ARG2
n = 67108864
rows = sprintf("< awk -F, '$3 == %d && $2 != \"memcpy\" && $14 == \"PASS\"' '%s'", n, ARG1)
limit = sprintf("< awk -F, '$3 == %d && $2 == \"memcpy\"' '%s'", n, ARG1)
stats limit using col_gbs nooutput
memcpy_gbs = STATS_max
set title sprintf("lab4: merge at n = 2^{26} keys (%s)", gpu)
set ylabel "GB/s (inputs read + output written)"
set yrange [0:memcpy_gbs * 1.15]
set style fill solid 0.8 border -1
set boxwidth 0.6
set key off
set arrow 1 from graph 0, first memcpy_gbs to graph 1, first memcpy_gbs nohead @memcpy_style
set label 1 sprintf("memcpy: %.0f GB/s", memcpy_gbs) at graph 0.01, first memcpy_gbs offset 0,0.7
plot rows using 0:col_gbs:xtic(col_variant) with boxes lt 2, \
     rows using 0:col_gbs:(sprintf("%.0f (%.0f%%)", column(col_gbs), column(col_pct))) with labels offset 0,0.8 notitle
