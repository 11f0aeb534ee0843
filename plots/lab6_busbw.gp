# data: lab6_allreduce.csv
# lab6: all-reduce bandwidth vs message size for every variant and NCCL, with the
# peer-to-peer copy (one link, one direction) as the ceiling. With G GPUs the y axis
# is nccl-tests' bus bandwidth, busbw = algbw x 2(G-1)/G, which compares with a link's
# rate whatever G is; on a ring of one busbw is 0 by definition, so the chart shows
# algbw (message bytes / time) and says so.
call 'plots/style.gp' ARG1 ARG2
# G from the param column of the nccl rows ("G=2 chunks=4"); the GPUs from line 2
G = int(system(sprintf("awk -F, '$2 == \"nccl\" {sub(/^G=/, \"\", $6); sub(/ .*/, \"\", $6); print $6; exit}' '%s'", csv)))
gpus = system(sprintf("sed -n 's/^# gpus=[0-9]*: //p' '%s' | sed 's/;.*//' | head -1", csv))
factor = G > 1 ? 2.0 * (G - 1) / G : 1.0
rows(v) = sprintf("< awk -F, '$2 == \"%s\" && $14 == \"PASS\"' '%s'", v, csv)
set title sprintf("lab6: all-reduce of floats on %d GPU(s) (%s)", G, gpus)
set xlabel "message per GPU, in bytes (n floats x 4)"
set ylabel (G > 1 ? "bus bandwidth, GB/s (algbw x 2(G-1)/G)" : "algorithm bandwidth, GB/s (ring of one: busbw = 0)")
set logscale x 2
set format x "2^{%L}"
set yrange [0:*]
set key left top inside
names = "host-staged gather-reduce-broadcast ring nccl"
plot for [i=1:words(names)] rows(word(names, i)) using (column(col_n) * 4):(column(col_gbs) * factor) \
         with linespoints lt i title word(names, i), \
     rows("p2p-copy") using (column(col_n) * 4):col_gbs with lines @memcpy_style \
         title (G > 1 ? "peer-to-peer copy, GPU 1 to GPU 0" : "copy within the GPU")
