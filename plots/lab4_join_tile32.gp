# data: lab4_join_tile32.csv
# lab4's joins at 2^24 keys as a share of the copy rate (inputs read + rows
# written, as a share of the driver's memcpy row in the same run) before and after
# the count tile's searches went from int64_t to int indices: Step 4.4 after, Step
# 4.5 before (build head, commit 636602d) and after (build final, as committed),
# every join type, on unique keys, about 4 and 16 rows per key, and one hot key of
# 4096 rows in each table. Each bar is the mean of the run's two rounds, its
# whiskers the two rounds; the dashes are the goal (0.30).
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v bars='join:final join-fused:head join-fused:final' -f plots/rounds.awk -f plots/lab4_join_cases.awk '%s'", csv)
set title sprintf("lab4: the joins' count tile with int indices, 2^{24} keys (%s)", gpu)
set ylabel "share of the memcpy row's GB/s"
set yrange [0:0.45]
set style fill solid 0.8 border -1
set boxwidth 0.26
set xtics rotate by -35
set key inside left top
set rmargin 8
plot ratios using ($0 - 0.27):(($2 + $3) / 2):xtic(1) with boxes lt 1 title "Step 4.4, int searches", \
     ratios using ($0 - 0.27):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0):(($4 + $5) / 2) with boxes lt 8 title "Step 4.5, int64\\_t searches (before)", \
     ratios using ($0):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.27):(($6 + $7) / 2) with boxes lt 3 title "Step 4.5, int searches (committed)", \
     ratios using ($0 + 0.27):(($6 + $7) / 2):6:7 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):8:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
