# data: lab4_join_right.csv
# What the fused right join's kept B rows cost: its share of the copy rate (the
# full join's bytes, as a share of the driver's memcpy row in the same run) for
# the committed kernel and for three temporary builds of it that leave out, one
# after another, the kernel that writes the kept B rows after the rest, the
# tiles' stores into the b_rows list, and the second look-back chain. At 2^24
# keys (unique, about 4 rows per key; two rounds) and at 2^28 (unique keys, one
# round). The bars are the mean of the rounds, the whiskers the rounds; the
# dashes are the goal (0.30).
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v join=right -v builds='one nobw nob q4' -f plots/lab4_join_ablation.awk '%s'", csv)
set title sprintf("lab4: what the right join's kept B rows cost (%s)", gpu)
set ylabel "share of the memcpy row's GB/s"
set yrange [0:0.5]
set style fill solid 0.8 border -1
set boxwidth 0.2
set key inside right top
set rmargin 8
plot ratios using ($0 - 0.33):(($2 + $3) / 2):xtic(1) with boxes lt 10 title "none of them (like a left join)", \
     ratios using ($0 - 0.33):(($2 + $3) / 2):2:3 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.11):(($4 + $5) / 2) with boxes lt 5 title "+ the second look-back chain", \
     ratios using ($0 - 0.11):(($4 + $5) / 2):4:5 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.11):(($6 + $7) / 2) with boxes lt 8 title "+ the stores into the list of kept B rows", \
     ratios using ($0 + 0.11):(($6 + $7) / 2):6:7 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 + 0.33):(($8 + $9) / 2) with boxes lt 3 title "+ the kept-B-rows kernel: the whole join (committed)", \
     ratios using ($0 + 0.33):(($8 + $9) / 2):8:9 with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.45):10:(0.9):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
