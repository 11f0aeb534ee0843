# data: lab4_trace.csv
# The Merge Path of the lecture's example, drawn from ./solution4 --trace (the
# partition and the serial merge of lab4_search.h, run on the host): A's keys down
# the side, B's across the top. Each step of the path takes one item, down for A,
# right for B, coloured by the thread that merges it (tiles of 4 threads x 3
# items). Grey cells hold an A key greater than the B key (B's item goes first
# there), so the path runs along the edge of the grey. Dashed: the tile
# boundaries (diagonals 12 and 24), searched over the whole arrays; boxes: the A
# and B items each tile loads; dotted: each thread's diagonal, searched inside its
# tile; circles: where the threads start. The numbered cells are the partition's
# binary search on diagonal 12, probe by probe (green: A's item goes first, so the
# split lies further down; red: B's item goes first, so it lies further up); it
# ends at A[5], B[7], where tile 1 starts.
call 'plots/style.gp' ARG1 ARG2
set terminal pngcairo size 1280,880 enhanced font "DejaVu Sans,21" linewidth 2
set output ARG2
rows(kind) = sprintf("< awk -F, '$1 == \"%s\"' '%s'", kind, csv)
field(test, col) = real(system(sprintf("awk -F, '%s { print $%d; exit }' '%s'", test, col, csv)))
na = field("$1 == \"end\"", 5); nb = field("$1 == \"end\"", 6)
probe_diag = field("$1 == \"probe\"", 4)
# Where tile t starts (the far corner for the tile after the last).
tile_a(t) = field(sprintf("($1 == \"tile\" && $2 == %d) || $1 == \"end\"", t), 5)
tile_b(t) = field(sprintf("($1 == \"tile\" && $2 == %d) || $1 == \"end\"", t), 6)
# A cross diagonal a + b = d (x = b, y = a) inside the box of A items [a0, a1) and B items [b0, b1).
x_lo(d, a1, b0) = d - a1 > b0 ? d - a1 : b0
x_hi(d, a0, b1) = d - a0 < b1 ? d - a0 : b1
set title "lab 4: the Merge Path of the lecture's example (./solution4 --trace)"
set size ratio -1
set xrange [-2.4:27.5]
set yrange [na + 0.4:-2.3]
unset border; unset xtics; unset ytics; unset grid
set key at 27.4, -2.0 top right Left reverse samplen 1.5 spacing 1.05 font ",20"
set style fill solid 1.0 noborder
grid_lines = sprintf("< awk 'BEGIN { OFS = \",\"; for (i = 0; i <= %d; i++) print 0, i, %d, 0; for (j = 0; j <= %d; j++) print j, 0, 0, %d }'", na, nb, nb, na)
probe_text(p, a, b, first) = sprintf("%d: A[%d] vs B[%d]: %s", p, a, b, first > 0 ? "lo = %d" : "hi = %d")
top = 9.6
set label 1 sprintf("search on diagonal %d:", probe_diag) at nb + 1.2, top left
set label 2 sprintf("lo = %d, hi = %d", probe_diag > nb ? probe_diag - nb : 0, probe_diag < na ? probe_diag : na) at nb + 1.2, top + 1.15 left
set label 3 sprintf("tile 1 starts at A[%d], B[%d]", tile_a(1), tile_b(1)) at nb + 1.2, top + 6.9 left
plot rows("cell") using ($6 + 0.5):($5 + 0.5):(0.5):(0.5) with boxxyerror lc rgb "#dcdcdc" title "A key > B key", \
     grid_lines using 1:2:3:4 with vectors nohead lc rgb "#c4c4c4" lw 0.5 notitle, \
     rows("key") using ($6 + 0.5):(-0.45):8 with labels font ",17" notitle, \
     rows("key") using ($6 + 0.5):(-1.3):(sprintf("%d", $6)) with labels font ",13" tc rgb "#777777" notitle, \
     rows("key") using (-0.6):($5 + 0.5):8 with labels font ",19" notitle, \
     rows("key") using (-1.75):($5 + 0.5):(sprintf("%d", $5)) with labels font ",13" tc rgb "#777777" notitle, \
     rows("tile") using 6:5:(tile_b($2 + 1) - $6):(0) with vectors nohead lc rgb "#555555" lw 1.2 notitle, \
     rows("tile") using 6:5:(0):(tile_a($2 + 1) - $5) with vectors nohead lc rgb "#555555" lw 1.2 title "a tile's items", \
     rows("tile") using (tile_b($2 + 1)):(tile_a($2 + 1)):($6 - tile_b($2 + 1)):(0) with vectors nohead lc rgb "#555555" lw 1.2 notitle, \
     rows("tile") using (tile_b($2 + 1)):(tile_a($2 + 1)):(0):($5 - tile_a($2 + 1)) with vectors nohead lc rgb "#555555" lw 1.2 notitle, \
     rows("thread") using (x0 = x_lo($4, tile_a($2 + 1), tile_b($2)), x0):($4 - x0):(x1 = x_hi($4, tile_a($2), tile_b($2 + 1)), x1 - x0):(x0 - x1) \
         with vectors nohead dt 3 lc rgb "#555555" lw 2 title "a thread's diagonal", \
     rows("tile") using (x0 = x_lo($4, na, 0), x0):($4 - x0):(x1 = x_hi($4, 0, nb), x1 - x0):(x0 - x1) \
         with vectors nohead dt 2 lc rgb "#000000" lw 2.5 title "a tile boundary", \
     for [t = 0:3] rows("step") using ($3 == t ? $6 : NaN):5:(strcol(7) eq "b" ? 1 : 0):(strcol(7) eq "a" ? 1 : 0) \
         with vectors nohead lt (t + 1) lw 6 title sprintf("path, thread %d", t), \
     rows("thread") using 6:5 with points pt 7 ps 1.7 lc rgb "#ffffff" notitle, \
     rows("thread") using 6:5 with points pt 6 ps 1.7 lw 2 lc rgb "#000000" title "a thread's start", \
     rows("tile") using ($6 + 0.15):(tile_a($2 + 1) - 0.45):(sprintf("tile %d", $2)) with labels left font ",18:Bold" notitle, \
     rows("probe") using ($6 + 0.5):($5 + 0.5):($7 > 0 ? 0x2ca02c : 0xd62728) with points pt 6 ps 3.6 lw 3 lc rgb variable notitle, \
     rows("probe") using ($6 + 0.5):($5 + 0.5):(sprintf("%d", $3)) with labels font ",18:Bold" notitle, \
     rows("probe") using (nb + 1.2):(top + 1.15 + 1.15 * $3):(sprintf(probe_text($3, $5, $6, $7), $7 > 0 ? $5 + 1 : $5)):($7 > 0 ? 0x2ca02c : 0xd62728) \
         with labels left tc rgb variable notitle
