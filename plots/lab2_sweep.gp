# data: lab2_sweep.csv
# lab2: throughput vs input size (int32 summed into int64) for the main steps,
# cub (grey) and memcpy (black, dashed; it counts a read and a write per byte).
call 'plots/style.gp' ARG1 ARG2
variant(v) = sprintf("< awk -F, '$2 == \"%s\" && $4 == \"i64\" && $14 == \"PASS\"' '%s'", v, csv)
set title sprintf("lab2: reduction throughput vs size, i64 sum (%s)", gpu)
set xlabel "n (int32 values)"
set ylabel "GB/s (4n input bytes read)"
set logscale x 2
set format x "2^{%L}"
set yrange [0:*]
set key outside right top
names = "interleaved sequential warp-shuffle register-blocked single-pass"
plot for [i=1:words(names)] variant(word(names, i)) using col_n:col_gbs with linespoints lt i title word(names, i), \
     variant("cub") using col_n:col_gbs with linespoints @cub_style pt 6 title "cub", \
     variant("memcpy") using col_n:col_gbs with lines @memcpy_style title "memcpy"
