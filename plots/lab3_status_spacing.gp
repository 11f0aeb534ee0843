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
plot ratios using 0:(NaN):xtic(1) notitle, \
     for [g = 0:3] ratios using ($0 + (g - 1.5) * 0.21):(column(2 + 3 * g)) with boxes lt (g + 1) title label[g + 1], \
     for [g = 0:3] ratios using ($0 + (g - 1.5) * 0.21):(column(2 + 3 * g)):(column(3 + 3 * g)):(column(4 + 3 * g)) \
         with yerrorbars lc rgb "#000000" pt 0 notitle, \
     ratios using ($0 - 0.45):14:(0.9):(0) with vectors nohead lc rgb "#d62728" lw 3 title "goal"
