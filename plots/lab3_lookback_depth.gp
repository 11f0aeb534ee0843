# data: lab3_stats_tiles20_h200.txt
# How far back a tile looks (./lab3 --stats): predecessors inspected per tile,
# the mean as a bar and the most any tile inspected as a tick, at n = 2^24 and
# 2^28. Sixteen times the tiles, no deeper: the depth depends on how many tiles
# are in flight, not on n. Steps 3.5 and 3.7 look further back than Step 3.4 but
# read a window of 32 statuses per load (the dashed line is one window).
call 'plots/style.gp' ARG1 ARG2
rows = sprintf("< awk -f plots/lab3_lookback_depth.awk '%s'", csv)
set title sprintf("lab3: look-back depth per tile, from --stats (%s)", gpu)
set ylabel "predecessors inspected per tile"
set yrange [0:460]
set style fill solid 0.8 border -1
set boxwidth 0.36
set xtics rotate by -25 scale 0
set key inside right top
plot 32 with lines lc rgb "#9a9a9a" dt 2 lw 1 title "one window (32 tiles)", \
     rows using ($0 - 0.19):2:xtic(1) with boxes lt 1 title "mean, n = 2^{24}", \
     rows using ($0 + 0.19):4 with boxes lt 2 title "mean, n = 2^{28}", \
     rows using ($0 - 0.19):2:(sprintf("%.0f", $2)) with labels offset 0,0.7 notitle, \
     rows using ($0 + 0.19):4:(sprintf("%.0f", $4)) with labels offset 0,0.7 notitle, \
     rows using ($0 - 0.19):3 with points pt 7 ps 0.9 lc rgb "#000000" title "max (one tile)", \
     rows using ($0 + 0.19):5 with points pt 7 ps 0.9 lc rgb "#000000" notitle
