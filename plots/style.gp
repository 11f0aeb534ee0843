# style.gp: every chart starts with  call 'plots/style.gp' ARG1 ARG2
# (ARG1 the CSV, ARG2 the PNG to write; `load` would not pass them on).
csv = ARG1
set terminal pngcairo size 1280,720 enhanced font "DejaVu Sans,13" linewidth 2
set output ARG2
set datafile separator comma
set datafile commentschars "#"
set key outside right top
set grid ytics lc rgb "#dddddd"
set border 3
set tics nomirror
# The GPU the CSV was measured on: its first line is "# gpu=NAME; sms=...".
gpu = system("head -1 '".csv."' | sed 's/^# gpu=//; s/;.*//'")
# One colour per variant, the same in every chart of a lab.
set linetype 1 lc rgb "#1f77b4" pt 7
set linetype 2 lc rgb "#ff7f0e" pt 5
set linetype 3 lc rgb "#2ca02c" pt 9
set linetype 4 lc rgb "#d62728" pt 11
set linetype 5 lc rgb "#9467bd" pt 13
set linetype 6 lc rgb "#8c564b" pt 15
set linetype 7 lc rgb "#e377c2" pt 4
set linetype 8 lc rgb "#7f7f7f" pt 6
set linetype 9 lc rgb "#bcbd22" pt 8
set linetype 10 lc rgb "#17becf" pt 10
# memcpy (the copy limit) is always black and dashed, the library (cub) grey.
memcpy_style = "lc rgb '#000000' dt 2 lw 2"
cub_style = "lc rgb '#555555' dt 4 lw 2"
# Columns of every CSV.
col_variant = 2; col_n = 3; col_type = 4; col_dist = 5; col_param = 6
col_median = 7; col_gbs = 10; col_gitems = 11; col_pct = 12; col_status = 14
