# data: lab5_keys.csv
# lab5: billions of u32 keys sorted per second vs n, every variant, CUB and the
# copy rate of the same keys (memcpy) measured in the same run.
call 'plots/style.gp' ARG1 ARG2
variant(v) = sprintf("< awk -F, '$2 == \"%s\" && $14 == \"PASS\"' '%s'", v, csv)
set title sprintf("lab5: sorting u32 keys (%s)", gpu)
set xlabel "n (keys)"
set ylabel "billions of keys / s"
set logscale x 2
set format x "2^{%L}"
set logscale y 10
set key inside left top
names = "split-1bit digit-4bit digit-8bit-warp-rank onesweep merge-sort"
plot for [i=1:words(names)] variant(word(names, i)) using col_n:col_gitems with linespoints lt i title word(names, i), \
     variant("cub") using col_n:col_gitems with linespoints @cub_style title "cub", \
     variant("memcpy") using col_n:col_gitems with lines @memcpy_style title "memcpy (copy the keys)"
