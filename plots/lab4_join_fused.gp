# data: lab4_join_fused.csv
# lab4's joins at 2^24 keys as a share of the copy rate (inputs read + rows
# written, as a share of the driver's memcpy row in the same run): Step 4.4 before
# this change, Step 4.4 now (its partitions from the merge's launcher) and the
# fused join of Step 4.5, every join type, unique keys and about 4 rows per key.
# Each bar is the mean of the run's two rounds, its whiskers the two rounds; the
# dashes are the goal (0.30).
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v bars='join:old join:new join-fused:new' -v cases='dups=1 dups=4' -f plots/rounds.awk -f plots/lab4_join_cases.awk '%s'", csv)
set title sprintf("lab4: the joins at 2^{24} keys, before and after Step 4.5 (%s)", gpu)
set ylabel "share of the memcpy row's GB/s"
set yrange [0:0.4]
set style fill solid 0.8 border -1
set boxwidth 0.26
set xtics rotate by -30
set key inside left top
plot ratios using ($0 - 0.27):(($2 + $3) / 2):xtic(1) with boxes lt 8 title "Step 4.4 before", \
     ratios using ($0 - 0.27):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0):(($4 + $5) / 2) with boxes lt 1 title "Step 4.4 now", \
     ratios using ($0):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.27):(($6 + $7) / 2) with boxes lt 3 title "Step 4.5 join-fused", \
     ratios using ($0 + 0.27):(($6 + $7) / 2):6:7 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):8:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
