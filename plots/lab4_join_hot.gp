# data: lab4_join_hot.csv
# lab4's joins at 2^24 keys as a share of the copy rate (inputs read + rows
# written, as a share of the driver's memcpy row in the same run): Step 4.4, Step
# 4.5 with its shared tiles turned off (each tile expands all of its own rows),
# and Step 4.5 with them (build new: commit 636602d, before the int tile searches
# of lab4_join_tile32.png), every join type, on unique keys, about 4 and 16 rows
# per key, and unique keys with one hot key of 4096 rows in each table. Each bar
# is the mean of the run's two rounds, its whiskers the two rounds; the dashes are
# the goal (0.30).
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v bars='join:new join-fused:noshare join-fused:new' -f plots/rounds.awk -f plots/lab4_join_cases.awk '%s'", csv)
set title sprintf("lab4: Step 4.5's shared tiles at 2^{24} keys (%s)", gpu)
set ylabel "share of the memcpy row's GB/s"
set yrange [0:0.45]
set style fill solid 0.8 border -1
set boxwidth 0.26
set xtics rotate by -35
set key inside left top
set label 1 "tiles not shared, hot key: 12.7 ms, below 0.01 of the copy" at 13.5, 0.425 center font ",11"
set rmargin 8
plot ratios using ($0 - 0.27):(($2 + $3) / 2):xtic(1) with boxes lt 1 title "Step 4.4 join", \
     ratios using ($0 - 0.27):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0):(($4 + $5) / 2) with boxes lt 8 title "Step 4.5, tiles not shared", \
     ratios using ($0):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.27):(($6 + $7) / 2) with boxes lt 3 title "Step 4.5, shared tiles", \
     ratios using ($0 + 0.27):(($6 + $7) / 2):6:7 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):8:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
