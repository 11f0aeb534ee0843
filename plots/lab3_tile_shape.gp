# data: lab3_tile_shape_h200.csv
# Step 3.7's tile and ring: the 12 KB tiles of 919ffd0 (5 stages, 3 blocks per
# SM), the shipped 20 KB tiles (5 stages, 2 blocks per SM: t20 and its -D build
# v5s5b2), 12 KB tiles in 8 stages with 2 blocks per SM, and 20 KB tiles in 3
# stages with 3 blocks. Bars: the mean of every round of the two runs that timed
# the build, whiskers the lowest and highest round; the dashes are the goals.
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v groups='c v5s5b2+t20 v3s8b2 v5s3b3' -f plots/lab3_builds.awk '%s'", csv)
set title sprintf("lab3: tma-pipeline, tile size and ring (%s)", gpu)
set ylabel "x memcpy"
set yrange [0.70:1.0]
set style fill solid 0.8 border -1
set boxwidth 0.2
set key outside right top
array label[4] = ["12 KB x 5 stages x 3 blocks (before)", "20 KB x 5 x 2 (shipped)", "12 KB x 8 x 2", "20 KB x 3 x 3"]
step = 0.21
load 'plots/lab3_builds_bars.gpi'
