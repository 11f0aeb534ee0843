# data: lab3_status_reads_h200.csv
# What in the look-back costs Step 3.7 (ablations, wrong scans timed only): as
# shipped; no look-back; the look-back warp reads one window of 32 statuses and
# waits for nothing; the same window, polled until no predecessor is X; no
# look-back for the tiles of the rings' first fill only (no bar at 2^28: not run).
# Bars: the mean of the run's rounds, whiskers the lowest and highest round; the
# dashes are the goals.
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v groups='s0 nall w0 wx f5' -f plots/lab3_builds.awk '%s'", csv)
set title sprintf("lab3: reading the statuses is what costs tma-pipeline (%s; ablations give a wrong scan)", gpu)
set ylabel "x memcpy"
set yrange [0.75:1.0]
set style fill solid 0.8 border -1
set boxwidth 0.16
set key outside right top
array label[5] = ["shipped", "no look-back", "one window, no wait", "one window, wait for X", "no look-back in the first fill"]
step = 0.17
load 'plots/lab3_builds_bars.gpi'
