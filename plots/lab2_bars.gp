# data: lab2_bars.csv
# lab2: every reduction variant at n = 2^26, one bar per type it supports (i64,
# f32, max), with the memcpy and cub rates of the same run (i64) as lines.
# GB/s counts the 4n bytes read; memcpy counts its read and its write.
call 'plots/style.gp' ARG1 ARG2
names = "interleaved strided-index sequential first-add warp-shuffle register-blocked single-pass"
types = "i64 f32 max"
# position of a variant on the x axis (1-based; 0 if unknown)
idx(s, i) = i > words(names) ? 0 : word(names, i) eq s ? i : idx(s, i + 1)
rows(t) = sprintf("< awk -F, '$4 == \"%s\" && $14 == \"PASS\"' '%s'", t, csv)
line(v) = sprintf("< awk -F, '$2 == \"%s\" && $4 == \"i64\" && $14 == \"PASS\"' '%s'", v, csv)
stats line("memcpy") using col_gbs nooutput
memcpy_gbs = STATS_max
stats line("cub") using col_gbs nooutput
cub_gbs = STATS_max
stats line("cub") using col_n nooutput
size = STATS_max
stats sprintf("< awk -F, '$14 == \"PASS\"' '%s'", csv) using col_gbs nooutput
top = STATS_max
set title sprintf("lab2: reduction variants, n = 2^{%d} (%s)", int(log(size) / log(2) + 0.5), gpu)
set ylabel "GB/s (4n input bytes read)"
set yrange [0:1.12 * top]
set xrange [0.4:words(names) + 0.6]
set style fill solid 0.85 border -1
set boxwidth 0.26
set xtics rotate by -30 ()
set for [i=1:words(names)] xtics add (word(names, i) i)
set arrow 1 from graph 0, first memcpy_gbs to graph 1, first memcpy_gbs nohead @memcpy_style
set arrow 2 from graph 0, first cub_gbs to graph 1, first cub_gbs nohead @cub_style
set label 1 sprintf("memcpy: %.0f GB/s (read + write)", memcpy_gbs) at graph 0.01, first memcpy_gbs offset 0,0.7 front
set label 2 sprintf("cub i64: %.0f GB/s", cub_gbs) at graph 0.01, first cub_gbs offset 0,-0.9 tc rgb "#555555"
plot for [t=1:words(types)] rows(word(types, t)) \
     using (idx(strcol(col_variant), 1) > 0 ? idx(strcol(col_variant), 1) + (t - 2) * 0.27 : 1/0):col_gbs \
     with boxes lt t title word(types, t)
