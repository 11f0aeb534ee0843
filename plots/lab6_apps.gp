# data: lab6_apps.csv
# lab6: each application on G GPUs next to the same work (same total n) on one GPU,
# in billions of keys per second, with the speedup over one GPU above each pair.
# The one-GPU rate is the G-GPU rate over the speedup column (same keys, same run).
call 'plots/style.gp' ARG1 ARG2
G = int(system(sprintf("awk -F, 'NR > 2 && $6 ~ /^G=/ {sub(/^G=/, \"\", $6); sub(/ .*/, \"\", $6); print $6; exit}' '%s'", csv)))
n = real(system(sprintf("awk -F, 'NR > 2 && $2 ~ /gpu$/ {print $3; exit}' '%s'", csv)))
gpus = system(sprintf("sed -n 's/^# gpus=[0-9]*: //p' '%s' | sed 's/;.*//' | head -1", csv))
# one line per application (sort: per distribution): label, one-GPU rate, G-GPU rate, speedup
pairs = sprintf("< awk -F, '$2 ~ /@[0-9]+gpu$/ && $14 == \"PASS\" && $13 > 0 {split($2, w, \"@\"); \
    label = w[1] == \"sort\" ? \"sort \" $5 : w[1]; print label \",\" $11 / $13 \",\" $11 \",\" $13}' '%s'", csv)
set title sprintf("lab6: applications on %d GPU(s) vs one, 2^{%.0f} keys in all (%s)", G, log(n) / log(2), gpus)
set ylabel "billions of keys / s"
set yrange [0:*]
set style fill solid 0.8 border -1
set boxwidth 0.38
set xtics rotate by -30
set key right top inside
plot pairs using ($0 - 0.2):2:xtic(1) with boxes lt 8 title "one GPU", \
     pairs using ($0 + 0.2):3 with boxes lt 1 title sprintf("%d GPU(s)", G), \
     pairs using ($0 + 0.2):3:(sprintf("%.2fx", $4)) with labels offset 0,0.8 notitle
