# data: lab0.csv
# lab0: useful bandwidth vs problem size for every variant, memcpy dashed.
call 'plots/style.gp' ARG1 ARG2
variant(v) = sprintf("< awk -F, '$2 == \"%s\" && $14 == \"PASS\"' '%s'", v, csv)
set title sprintf("lab0: bandwidth vs size (%s)", gpu)
set xlabel "n (float3 records, 12 bytes each)"
set ylabel "useful GB/s"
set logscale x 2
set format x "2^{%L}"
set yrange [0:*]
names = "copy float3-aos float3-smem float3-soa stride offset divergent warp-uniform"
plot for [i=1:words(names)] variant(word(names, i)) using col_n:col_gbs with linespoints lt i title word(names, i), \
     variant("memcpy") using col_n:col_gbs with lines @memcpy_style title "memcpy"
