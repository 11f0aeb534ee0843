# data: lab4_join_lbs32.csv
# lab4's fused join at 2^24 keys as a share of the copy rate (inputs read + rows
# written, as a share of the driver's memcpy row in the same run) before and after
# the load-balancing search of its chunks went from int64_t to int cursors (build
# final, commit 5d866ad; build lbs, as committed), every join type, on about 4
# and 16 rows per key, one hot key of 4096 rows in each table, and unique keys
# (which never search their chunks). Each bar is the mean of the run's two rounds,
# its whiskers the two rounds; the dashes are the goal (0.30).
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v bars='join-fused:final join-fused:lbs' -f plots/rounds.awk -f plots/lab4_join_cases.awk '%s'", csv)
set title sprintf("lab4: the fused join's chunk search with int cursors, 2^{24} keys (%s)", gpu)
set ylabel "share of the memcpy row's GB/s"
set yrange [0:0.5]
set style fill solid 0.8 border -1
set boxwidth 0.38
set xtics rotate by -35
set key inside left top
set rmargin 8
plot ratios using ($0 - 0.2):(($2 + $3) / 2):xtic(1) with boxes lt 8 title "Step 4.5, int64\\_t chunk search (before)", \
     ratios using ($0 - 0.2):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.2):(($4 + $5) / 2) with boxes lt 3 title "Step 4.5, int chunk search (committed)", \
     ratios using ($0 + 0.2):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):6:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
