# data: lab4_join_ablation.csv
# What the fused join's parts cost: its inner join as a share of the copy rate
# (the full join's bytes, as a share of the driver's memcpy row in the same run),
# for the committed kernel and for two temporary builds of it that stop early and
# write no row: after the count and the tile's scan, and after the look-back as
# well. At 2^24 keys (unique, about 4 rows per key; two rounds) and at 2^28
# (unique keys; one round on the H100, the H200's ablation in a second run). The
# bars are the mean of the rounds (of the lower and higher one), the whiskers
# the rounds; the dashes are the goal (0.30).
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v join=inner -v builds='count nostore b11' -f plots/lab4_join_ablation.awk '%s'", csv)
set title sprintf("lab4: what the fused join's parts cost, inner join (%s)", gpu)
set ylabel "share of the memcpy row's GB/s"
set yrange [0:0.7]
set style fill solid 0.8 border -1
set boxwidth 0.26
set key inside right top
set rmargin 8
plot ratios using ($0 - 0.27):(($2 + $3) / 2):xtic(1) with boxes lt 10 title "count and scan only (no row written)", \
     ratios using ($0 - 0.27):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0):(($4 + $5) / 2) with boxes lt 5 title "+ the look-back (no row written)", \
     ratios using ($0):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.27):(($6 + $7) / 2) with boxes lt 3 title "the whole join (committed)", \
     ratios using ($0 + 0.27):(($6 + $7) / 2):6:7 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.42):8:(0.84):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
