# data: lab3_status_spacing_h200.csv
# Step 3.7 with the pipelines' tile statuses packed (8 bytes apart for int32
# values, 16 for int64: the code before) and spaced 32, 64 (shipped) and 128 bytes
# apart (128: int32 only, the workspace then had no room for int64). Packed
# gathers s0 and pk, 64 bytes e64, p64 and c (the same kernel each). Bars: the
# mean of every round of the six runs that timed the build, whiskers the lowest
# and highest round; the dashes are the goals.
call 'plots/style.gp' ARG1 ARG2
ratios = sprintf("< awk -F, -v groups='s0+pk e32 e64+p64+c e128' -f plots/lab3_builds.awk '%s'", csv)
set title sprintf("lab3: tma-pipeline with its tile statuses spaced out (%s)", gpu)
set ylabel "x memcpy"
set yrange [0.75:1.0]
set style fill solid 0.8 border -1
set boxwidth 0.2
set key outside right top
array label[4] = ["packed (before)", "32 bytes apart", "64 bytes apart (shipped)", "128 bytes apart"]
step = 0.21
load 'plots/lab3_builds_bars.gpi'
