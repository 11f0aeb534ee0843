# data: lab4_join_keep_b.csv
# lab4's fused join at 2^24 keys as a share of the copy rate (inputs read + rows
# written, as a share of the driver's memcpy row in the same run) with the join's
# B flag as a run-time argument (q4, before) and as a template parameter (t,
# committed: an inner or left join then computes no B match flags, and tests no flag),
# every join type, unique keys, about 4 rows per key and one hot key of 4096 rows
# in each table. Each bar is the mean of the run's two rounds, its whiskers the
# two rounds; the dashes are the goal (0.30).
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v bars='join-fused:q4 join-fused:t' -v cases='dups=1 dups=4 hot' -f plots/rounds.awk -f plots/lab4_join_cases.awk '%s'", csv)
set title sprintf("lab4: the join type's B flag at compile time, fused join, 2^{24} keys (%s)", gpu)
set ylabel "share of the memcpy row's GB/s"
set yrange [0:0.5]
set style fill solid 0.8 border -1
set boxwidth 0.36
set xtics rotate by -35
set key inside left top
set rmargin 8
plot ratios using ($0 - 0.19):(($2 + $3) / 2):xtic(1) with boxes lt 8 title "keep\\_b an argument (before)", \
     ratios using ($0 - 0.19):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.19):(($4 + $5) / 2) with boxes lt 3 title "KEEP\\_B a template parameter (committed)", \
     ratios using ($0 + 0.19):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):6:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
