# data: lab0_stride.csv
# lab0: a strided gather (time, and useful bandwidth, vs the stride) and a copy
# from a shifted start (bandwidth vs the offset), n = 2^24 float3 records.
call 'plots/style.gp' ARG1 ARG2
pick(v) = sprintf("< awk -F, '$2 == \"%s\" && $14 == \"PASS\"' '%s'", v, csv)
stats pick("memcpy") using col_gbs nooutput
memcpy_gbs = STATS_mean
set multiplot layout 1,3 title sprintf("lab0: stride and offset, n = 2^{24} float3 records (%s)", gpu)
set key inside right top
set xrange [0:33]
set xlabel "stride s (floats)"
set title "gather in[j*s]: kernel time"
set ylabel "median time (µs)"
set yrange [0:*]
plot pick("stride") using (real(substr(strcol(col_param), 3, 9))):(1000*column(col_median)) \
     with linespoints lt 1 notitle
set title "gather in[j*s]: useful bandwidth"
set ylabel "useful GB/s"
set yrange [0:memcpy_gbs * 1.1]
plot pick("stride") using (real(substr(strcol(col_param), 3, 9))):col_gbs with linespoints lt 1 notitle, \
     memcpy_gbs with lines @memcpy_style title "memcpy"
set title "copy in[j+k]: useful bandwidth"
set xlabel "offset k (floats)"
set xrange [-1:33]
plot pick("offset") using (real(substr(strcol(col_param), 8, 9))):col_gbs with linespoints lt 2 notitle, \
     memcpy_gbs with lines @memcpy_style title "memcpy"
unset multiplot
