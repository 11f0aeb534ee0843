# data: lab4_join_flags.csv
# lab4's fused join at 2^24 keys as a share of the copy rate (inputs read + rows
# written, as a share of the driver's memcpy row in the same run) before (build
# base, commit 5f8e564: a byte of match flags per item, 8-wide chunks) and after
# the match flags gave their bytes to the chunk (b11, as committed: B's flags in
# first's B slots, A's read where the gallop starts, 11-wide chunks), every join
# type, on unique keys, about 4 and 16 rows per key, and one hot key of 4096 rows
# in each table. Each bar is the mean of the run's two rounds, its whiskers the
# two rounds; the dashes are the goal (0.30).
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v bars='join-fused:base join-fused:b11' -f plots/rounds.awk -f plots/lab4_join_cases.awk '%s'", csv)
set title sprintf("lab4: the fused join with 11-wide chunks, 2^{24} keys (%s)", gpu)
set ylabel "share of the memcpy row's GB/s"
set yrange [0:0.7]
set style fill solid 0.8 border -1
set boxwidth 0.36
set xtics rotate by -35
set key inside left top
set rmargin 8
plot ratios using ($0 - 0.19):(($2 + $3) / 2):xtic(1) with boxes lt 8 title "8-wide chunks, a byte of flags an item (before)", \
     ratios using ($0 - 0.19):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.19):(($4 + $5) / 2) with boxes lt 3 title "11-wide chunks, flags in first's B slots (committed)", \
     ratios using ($0 + 0.19):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):6:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
