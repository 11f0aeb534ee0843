# data: lab3_compact_tiles20_h200.csv
# lab3: the compactions (Steps 3.6 and 3.8) and CUB's at n = 2^24, keep 50%, in
# billions of items per second (items read), int32 and int64.
call 'plots/style.gp' ARG1 ARG2
rows(t) = sprintf("< awk -F, '$4 == \"%s\" && $2 != \"memcpy\" && $14 == \"PASS\"' '%s'", t, csv)
set title sprintf("lab3: compaction, n = 2^{24}, keep 50%%; ours in place, CUB out of place (%s)", gpu)
set ylabel "billions of items / s"
set yrange [0:*]
set style fill solid 0.8 border -1
set boxwidth 0.38
plot rows("i32") using ($0 - 0.2):col_gitems:xtic(col_variant) with boxes lt 1 title "int32", \
     rows("i32") using ($0 - 0.2):col_gitems:(sprintf("%.0f", column(col_gitems))) with labels offset 0,0.8 notitle, \
     rows("i64") using ($0 + 0.2):col_gitems with boxes lt 2 title "int64", \
     rows("i64") using ($0 + 0.2):col_gitems:(sprintf("%.0f", column(col_gitems))) with labels offset 0,0.8 notitle
