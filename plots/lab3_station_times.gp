# data: lab3_station_times_h200.csv
# Where a block's time per tile goes in Step 3.7, station by station (int32,
# n = 2^28; the means of one run's printed launches of a temporary timer build).
# Each bar is one station's time per tile: waiting for the station before it
# (grey), working (blue), and what its timers do not cover (light). Left: the
# tiles of 919ffd0 (12 KB, 3 blocks per SM, 2.53 us per tile); right: the
# shipped 20 KB tiles (2 blocks per SM, 2.69 us per tile). The look-back warp
# is the one station that hardly ever waits.
call 'plots/style.gp' ARG1 ARG2
rows = sprintf("< awk -F, -f plots/lab3_stations.awk '%s'", csv)
set title sprintf("lab3: tma-pipeline, a block's time per tile by station, int32, n = 2^{28} (%s)", gpu)
set ylabel "ns per tile"
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.7
set xtics rotate by -35 scale 0
set key outside right top
plot rows using 2:xtic(1) lc rgb "#aaaaaa" title "waiting", \
     '' using 3 lc rgb "#1f77b4" title "working", \
     '' using 4 lc rgb "#dbe9f6" title "not timed"
