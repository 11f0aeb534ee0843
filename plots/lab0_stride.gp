# data: lab0_stride.csv
# lab0: useful bandwidth of a strided gather vs the stride, and of a copy vs its
# start offset, with the sector model 1/s (capped at one sector per float).
call 'plots/style.gp' ARG1 ARG2
pick(v) = sprintf("< awk -F, '$2 == \"%s\" && $14 == \"PASS\"' '%s'", v, ARG1)
stats pick("memcpy") using col_gbs nooutput
memcpy_gbs = STATS_mean
stats "< awk -F, '$2 == \"stride\" && $6 == \"s=1\"' '".ARG1."'" using col_gbs nooutput
s1 = STATS_max
set title sprintf("lab0: stride and offset, n = 2^{24} records (%s)", gpu)
set multiplot layout 1,2
set xlabel "stride s (floats)"
set ylabel "useful GB/s"
set yrange [0:*]
set xrange [0:33]
set key inside right top
plot pick("stride") using (real(substr(strcol(col_param), 3, 9))):col_gbs with linespoints lt 1 title "stride", \
     [1:32] (x < 8 ? s1 / x : s1 / 8) with lines lc rgb "#999999" dt 3 title "sectors: s1/s, floor s1/8", \
     memcpy_gbs with lines @memcpy_style title "memcpy"
set title "copy with a start offset"
set xlabel "offset k (floats)"
set xrange [-1:33]
plot pick("offset") using (real(substr(strcol(col_param), 8, 9))):col_gbs with linespoints lt 2 title "offset", \
     memcpy_gbs with lines @memcpy_style title "memcpy"
unset multiplot
