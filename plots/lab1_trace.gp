# data: lab1_trace.csv
# lab1: warp aggregation of Westphal's 8-lane example, as one warp of warp-ballot
# ran it on the GPU (./solution1 --trace). Stage 1: each iteration the lowest
# unassigned lane leads, the unassigned lanes vote on its key, the voters (coloured)
# leave with that vote as their peer mask. Stage 2: each round, a lane adds the value
# of the next live peer above it (arrows). Then one atomicAdd per key, by its leader.
call 'plots/style.gp' ARG1 ARG2
set terminal pngcairo size 1000,900 enhanced font "DejaVu Sans,19" linewidth 2
set output ARG2
rows(kind) = sprintf("< awk -F, '$1 == \"%s\"' '%s'", kind, csv) # the rows of one kind of the CSV
stats rows("live") using 2 nooutput
last_round = STATS_max # Stage 2's rounds
rounds = sprintf("< awk -F, '$1 == \"live\" && !seen[$2]++ { print $2 }' '%s'", csv)
unset key
unset border
unset tics
unset grid
set xrange [-3.9:7.55]
set yrange [-13.0:0.7]
set lmargin 0; set rmargin 0; set tmargin 2.5; set bmargin 0.5
set title "Warp aggregation: one warp of warp-ballot (./solution1 --trace)"

# One colour per key (fill light, border dark); lanes without a vote stay grey.
fill(k) = k == 1 ? 0xb7e4b0 : k == 2 ? 0xaecbe8 : k == 3 ? 0xffd0a1 : k == 4 ? 0xe2c6f0 : 0xe0e0e0
edge(k) = k == 1 ? 0x2ca02c : k == 2 ? 0x1f77b4 : k == 3 ? 0xff7f0e : k == 4 ? 0x9467bd : 0x808080
half = 0.42 # half the width of a lane's box

# The rows of the drawing, top to bottom.
y_lane = 0.1; y_key = -0.9; y_value = -1.9
y_iteration(i) = -3.6 - (i - 1) * 1.0
y_start = -7.4                  # Stage 2 starts from every lane's value
y_round(r) = y_start - r * 1.2
y_atomic = -11.7

# Stage 1, one line per lane still unassigned in an iteration: lane, iteration, its
# key (from the lane rows), 1 if it votes yes (it is one of the leader's peers)
stage1 = sprintf("< awk -F, '$1 == \"lane\" { key[$3] = $4 } $1 == \"stage1\" { n = split($8, u, \" \"); for (i = 1; i <= n; i++) print u[i] \",\" $2 \",\" key[u[i]] \",\" (index(\" \" $9 \" \", \" \" u[i] \" \") > 0) }' '%s'", csv)

# Row labels and section heads (text, not data).
set label "lane" at -3.8, y_lane left
set label "key" at -3.8, y_key left
set label "value" at -3.8, y_value left
set label "{/:Bold Stage 1}: find the peers" at -3.8, -2.85 left
set label "{/:Bold Stage 2}: add within each group" at -3.8, y_start + 0.75 left
set label "values" at -3.8, y_start left
set label "{/:Bold one atomic per key}" at -3.8, y_atomic + 0.75 left
set style fill solid 1.0 border lc rgb "#606060"
box = "with boxxyerror fc rgb variable"

plot rows("lane") using 3:(y_lane):(sprintf("%d", $3)) with labels, \
     rows("lane") using 3:(y_key):(half):(0.4):(fill($4)) @box, \
     rows("lane") using 3:(y_key):(sprintf("%d", $4)) with labels, \
     rows("lane") using 3:(y_value):(half):(0.4):(0xffffff) @box, \
     rows("lane") using 3:(y_value):(sprintf("%g", $5)) with labels, \
     rows("stage1") using (-3.8):(y_iteration($2)):(sprintf("%d: lane %d leads", $2, $3)) with labels left, \
     stage1 using 1:(y_iteration($2)):(half):(0.4):($4 > 0 ? fill($3) : 0xf2f2f2) @box, \
     stage1 using 1:(y_iteration($2)):(sprintf($4 > 0 ? "%d" : "{/*0.8 (%d)}", $3)) with labels, \
     rows("stage1") using 3:(y_iteration($2)):(half + 0.04):(0.44) with boxxyerror lc rgb "black" lw 3 fs empty border, \
     rows("lane") using 3:(y_start):(half):(0.4):(fill($4)) @box, \
     rows("lane") using 3:(y_start):(sprintf("%g", $5)) with labels, \
     rounds using (-3.8):(y_round($1)):(sprintf("round %d", $1)) with labels left, \
     rows("live") using (strcol(6) eq "" ? 1/0 : $6):(y_round($2 - 1) - 0.4):($3 - $6):(-0.4):(edge($4)) \
         with vectors lc rgb variable lw 3 filled head, \
     rows("live") using 3:(y_round($2)):(half):(0.4):(strcol(6) eq "" ? 0xf2f2f2 : fill($4)) @box, \
     rows("live") using 3:(y_round($2)):(sprintf("%g", $7)) with labels, \
     rows("atomic") using 3:(y_round(last_round) - 0.4):(0):(y_atomic - y_round(last_round) + 0.8):(edge($4)) \
         with vectors lc rgb variable lw 3 filled head, \
     rows("atomic") using 3:(y_atomic):(half):(0.4):(fill($4)) @box, \
     rows("atomic") using 3:(y_atomic):(sprintf("%g", $7)) with labels, \
     rows("atomic") using 3:(y_atomic - 0.75):(sprintf("bin %d", $4)) with labels font ",17"
