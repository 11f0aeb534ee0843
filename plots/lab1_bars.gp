# data: lab1_bars.csv
# lab1: the count histogram at 256 bins on four distributions, every variant and
# CUB, at n = 2^24 (left) and 2^28 (right). The dashed line: cudaMemcpy of the keys
# in keys/s (it reads and writes them; a histogram only reads).
call 'plots/style.gp' ARG1 ARG2
variants = "global-atomic smem-private warp-ballot warp-match smem-warp cub"
nv = words(variants)
# the same colour per variant as in lab1_kwarp.png (which also has cas-loop)
colours = "1 3 4 5 6 8"
dist_index = "d = $5 == \"uniform\" ? 0 : $5 == \"zipf\" ? 1 : $5 == \"kwarp:1\" ? 2 : $5 == \"single\" ? 3 : -1"
rows(v, n) = sprintf("< awk -F, '$2 == \"%s\" && $3 == %d && $4 == \"count\" && $14 == \"PASS\" { %s; if (d >= 0) print d \",\" $11 }' '%s'", v, n, dist_index, csv)
limit(n) = sprintf("< awk -F, '$2 == \"memcpy\" && $3 == %d && $4 == \"count\" { print $11 }' '%s'", n, csv)
width = 0.8 / nv
set style fill solid 0.85 border -1
set boxwidth width
set xtics ("uniform" 0, "zipf" 1, "kwarp:1" 2, "single" 3)
set xrange [-0.6:3.6]
set yrange [0:*]
set ylabel "Gkeys/s"
set key below horizontal
set multiplot layout 1,2 title sprintf("lab1: histogram at 256 bins against CUB (%s)", gpu)
do for [n in "16777216 268435456"] {
    stats limit(int(n)) using 1 nooutput
    set arrow 1 from graph 0, first STATS_max to graph 1, first STATS_max nohead lc rgb "#000000" dt 2
    set title sprintf("n = 2^{%d}   (dashed: memcpy of the keys, %.1f Gkeys/s)", n eq "16777216" ? 24 : 28, STATS_max)
    plot for [i = 1:nv] rows(word(variants, i), int(n)) using ($1 - 0.4 + (i - 0.5) * width):2 with boxes \
         lt (word(colours, i) + 0) title word(variants, i)
}
unset multiplot
