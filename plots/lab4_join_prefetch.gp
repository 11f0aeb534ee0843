# data: lab4_join_prefetch.csv
# lab4's fused join at 2^24 keys as a share of the copy rate (inputs read + rows
# written, as a share of the driver's memcpy row in the same run) before (build
# b11, commit c34b3f5) and after a tile asks L2 for a later tile's keys while it
# looks back (q4, as committed: tile t + the resident blocks), every join type,
# on unique keys, about 4 and 16 rows per key (16: a later call) and one hot
# key of 4096 rows in each table. Each bar is the mean of the run's two rounds,
# its whiskers the two rounds; the dashes are the goal (0.30).
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v bars='join-fused:b11 join-fused:q4' -v cases='dups=1 dups=4 dups=16 hot' -f plots/rounds.awk -f plots/lab4_join_cases.awk '%s'", csv)
set title sprintf("lab4: the fused join with the next keys prefetched into L2, 2^{24} keys (%s)", gpu)
set ylabel "share of the memcpy row's GB/s"
set yrange [0:0.6]
set style fill solid 0.8 border -1
set boxwidth 0.36
set xtics rotate by -35
set key inside left top
set rmargin 8
plot ratios using ($0 - 0.19):(($2 + $3) / 2):xtic(1) with boxes lt 8 title "no prefetch (before)", \
     ratios using ($0 - 0.19):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.19):(($4 + $5) / 2) with boxes lt 3 title "keys of tile t + resident blocks prefetched during the look-back (committed)", \
     ratios using ($0 + 0.19):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):6:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
