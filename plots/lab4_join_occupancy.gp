# data: lab4_join_occupancy.csv
# lab4's fused join at 2^24 keys as a share of the copy rate (inputs read + rows
# written, as a share of the driver's memcpy row in the same run) with 4 blocks an
# SM (build head, commit f984330: 64 registers, 9-wide chunks) and with 5
# (build final, as committed: 48 registers, the block scan's small storage,
# 8-wide chunks, one thread searching a chunk's end, no second look-back without
# kept B rows), and with the same changes but 4 blocks and 12-wide chunks (e12),
# every join type, on unique keys, about 4 and 16 rows per key, and one hot key of
# 4096 rows in each table. Each bar is the mean of the run's two rounds, its
# whiskers the two rounds; the dashes are the goal (0.30).
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v bars='join-fused:head join-fused:final join-fused:e12' -f plots/rounds.awk -f plots/lab4_join_cases.awk '%s'", csv)
set title sprintf("lab4: the fused join with 5 blocks an SM, 2^{24} keys (%s)", gpu)
set ylabel "share of the memcpy row's GB/s"
set yrange [0:0.6]
set style fill solid 0.8 border -1
set boxwidth 0.26
set xtics rotate by -35
set key inside left top
set rmargin 8
plot ratios using ($0 - 0.27):(($2 + $3) / 2):xtic(1) with boxes lt 8 title "4 blocks, 9-wide chunks (before)", \
     ratios using ($0 - 0.27):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0):(($4 + $5) / 2) with boxes lt 3 title "5 blocks, 8-wide chunks (committed)", \
     ratios using ($0):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.27):(($6 + $7) / 2) with boxes lt 1 title "4 blocks, 12-wide chunks (e12)", \
     ratios using ($0 + 0.27):(($6 + $7) / 2):6:7 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):8:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
