# data: lab3_lookback_ablation.csv
# What the look-back costs Step 3.7: tma-pipeline x memcpy as shipped, without its
# look-back (every prefix taken as 0: a wrong scan, timed only) and without the
# look-back and the L2 prefetch, from one run. Each bar is the mean of the run's two
# rounds, its whiskers the two rounds; the dashes are the goals.
call 'plots/style.gp' ARG1 ARG2
# one line per case: label, then lo, hi for s0, n0, np, then the goal
ratios = sprintf("< awk -F, -f plots/rounds.awk -f plots/lab3_lookback_ablation.awk '%s'", csv)
set title sprintf("lab3: what the look-back costs tma-pipeline (%s; ablations give a wrong scan)", gpu)
set ylabel "x memcpy"
set yrange [0.7:1.1]
set style fill solid 0.8 border -1
set boxwidth 0.26
set key inside left top
plot ratios using ($0 - 0.27):(($2 + $3) / 2) with boxes lt 1 title "shipped", \
     ratios using ($0 - 0.27):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0):(($4 + $5) / 2):xtic(1) with boxes lt 2 title "no look-back", \
     ratios using ($0):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.27):(($6 + $7) / 2) with boxes lt 3 title "no look-back, no L2 prefetch", \
     ratios using ($0 + 0.27):(($6 + $7) / 2):6:7 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):8:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
