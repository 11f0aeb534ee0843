# data: lab5_lowbits.csv
# lab5: time of every variant on keys whose high 16 bits are zero, relative to
# uniform keys of the same size (u32 keys, n = 2^28): below 1, the sort found
# passes it could skip or make cheaper (onesweep skips two of its four passes;
# CUB copies tiles of one digit without ranking them).
call 'plots/style.gp' ARG1 ARG2
pairs(kv) = sprintf("< awk -F, '$3 == 268435456 && $4 == \"u32-%s\" && $14 == \"PASS\" { t[$2 \",\" $5] = $7; if (!($2 in seen)) { seen[$2] = 1; order[++k] = $2 } } END { for (i = 1; i <= k; i++) { v = order[i]; if ((v \",lowbits\") in t && (v \",uniform\") in t) print v \",\" t[v \",lowbits\"] / t[v \",uniform\"] } }' '%s'", kv, csv)
set title sprintf("lab5: time on lowbits keys / time on uniform keys, n = 2^{28} (%s)", gpu)
set ylabel "time ratio (lower: passes skipped or cheaper)"
set yrange [0:1.3]
set style fill solid 0.8 border -1
set boxwidth 0.38
set xtics rotate by -30
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb "#000000" dt 2
plot pairs("keys") using ($0 - 0.2):2:xtic(1) with boxes lt 1 title "keys", \
     pairs("pairs") using ($0 + 0.2):2 with boxes lt 2 title "pairs"
