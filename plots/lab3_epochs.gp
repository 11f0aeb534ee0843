# data: lab3_epochs.csv
# lab3's final steps before and after the epochs (no memset before a launch) and
# the 4-stage int64 compaction, from one run: tma-pipeline x memcpy and
# select-pipeline x cub-select at 2^24 and 2^28, int32 and int64. Each bar is the
# mean of the run's two rounds, its whiskers the two rounds; the dashes are the goals.
call 'plots/style.gp' ARG1 ARG2
# one line per case: label, old lo, old hi, new lo, new hi, goal
ratios = sprintf("< awk -F, -f plots/rounds.awk -f plots/lab3_epochs.awk '%s'", csv)
set title sprintf("lab3: Steps 3.7-3.8 before and after the epochs (%s)", gpu)
set ylabel "x memcpy (scan), x CUB (compaction)"
set yrange [0.7:1.4]
set style fill solid 0.8 border -1
set boxwidth 0.36
set xtics rotate by -30
set key inside left top
plot ratios using ($0 - 0.19):(($2 + $3) / 2):xtic(1) with boxes lt 8 title "before (memset)", \
     ratios using ($0 - 0.19):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.19):(($4 + $5) / 2) with boxes lt 1 title "now (epochs; int64 compaction in 4 stages)", \
     ratios using ($0 + 0.19):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):6:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
