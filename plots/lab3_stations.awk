# lab3_stations.awk: from lab3_station_times_h200.csv, run E, int32 at 2^28, the
# four stations of builds c and t20 (columns: run 1, build 2, type 3, n 4, block
# time per tile 6, then the stations' waits and work; see the CSV's header).
# Prints per station: label, waiting, working, the rest of the block's time per
# tile (not timed), with an empty row between the builds.
/^#/ || $1 == "run" { next }
$1 == "E" && $3 == "i32" && $4 == 268435456 { row[$2] = $0 }
function station(label, wait, work, block) { print label "," wait "," work "," block - wait - work }
function build(b, title,   f) {
    split(row[b], f, ",")
    station("loader " title, f[14], f[15], f[6])
    station("aggregator " title, f[8], f[9], f[6])
    station("look-back " title, f[10], f[11], f[6])
    station("consumers " title, f[12], f[13], f[6])
}
END {
    build("c", "(12 KB)")
    print ",0,0,0"
    build("t20", "(20 KB)")
}
