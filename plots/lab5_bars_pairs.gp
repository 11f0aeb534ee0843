# data: lab5_pairs.csv
# lab5: every variant and CUB at n = 2^24 and 2^28 (u32 keys with values), in billions of keys
# per second, with the memcpy rate of the same run as lines; the label over each
# bar is the speedup over the step before it.
call 'plots/style.gp' ARG1 ARG2
rows(n) = sprintf("< awk -F, '$3 == %d && $2 != \"memcpy\" && $14 == \"PASS\"' '%s'", n, csv)
limit(n) = sprintf("< awk -F, '$3 == %d && $2 == \"memcpy\"' '%s'", n, csv)
stats limit(16777216) using col_gitems nooutput
memcpy24 = STATS_max
stats limit(268435456) using col_gitems nooutput
memcpy28 = STATS_max
set title sprintf("lab5: sort variants, u32 key-value pairs (%s)", gpu)
set ylabel "billions of keys / s (log scale)"
set logscale y 10
top = memcpy24 > memcpy28 ? memcpy24 : memcpy28
set yrange [0.01:3 * top]
set style fill solid 0.8 border -1
set boxwidth 0.38
set xtics rotate by -30
set arrow 1 from graph 0, first memcpy24 to graph 1, first memcpy24 nohead lc rgb "#1f77b4" dt 2
set arrow 2 from graph 0, first memcpy28 to graph 1, first memcpy28 nohead lc rgb "#ff7f0e" dt 2
set label 1 sprintf("memcpy 2^{24}: %.1f G keys/s", memcpy24) at graph 0.01, first memcpy24 offset 0,0.7 tc rgb "#1f77b4"
set label 2 sprintf("memcpy 2^{28}: %.1f G keys/s", memcpy28) at graph 0.99, first memcpy28 right offset 0,0.7 tc rgb "#ff7f0e"
prev24 = 0; prev28 = 0
step(x, prev) = prev > 0 ? sprintf("%.1fx", x / prev) : ""
plot rows(16777216) using ($0 - 0.2):col_gitems:xtic(col_variant) with boxes lt 1 title "n = 2^{24}", \
     rows(268435456) using ($0 + 0.2):col_gitems with boxes lt 2 title "n = 2^{28}", \
     rows(16777216) using ($0 - 0.2):col_gitems:(s = strcol(2) eq "cub" ? "" : step($11, prev24), prev24 = $11, s) with labels offset 0,0.7 font ",10" notitle, \
     rows(268435456) using ($0 + 0.2):col_gitems:(s = strcol(2) eq "cub" ? "" : step($11, prev28), prev28 = $11, s) with labels offset 0,0.7 font ",10" notitle
