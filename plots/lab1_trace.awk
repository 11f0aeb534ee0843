# lab1_trace.awk: the output of `./solution1 --trace` (one warp of warp-ballot's
# scatter-add on Westphal's 8-lane example, recorded on the GPU and checked there
# against the host model of lab1_peers.h) as the CSV that plots/lab1_trace.gp draws:
#     ./solution1 --trace | awk -f plots/lab1_trace.awk > plots/data/lab1_trace.csv
# (plots/bench-lab1.sh, part `trace`, writes both the text and the CSV). Rows
# (kind,step,lane,key,value,from,total,unassigned,peers):
#   lane    one per lane with data: its key and its value
#   stage1  one per Stage 1 iteration (step = iteration): the leader lane and its
#           key, the lanes still unassigned, and the ballot: the leader's peers
#   stage2  one per Stage 2 addition (step = round): lane adds the value of lane
#           `from` and then holds `total`; key is the group's
#   live    after each Stage 2 round (step), one per lane still live (not yet read
#           by a peer): the value it holds (total), and `from` if it added this round
#   atomic  one per leader: lane adds `total` into sums[key]
# Lane sets are written as lists, "0 4 7". The date comes from -v date=YYYY-MM-DD. It exits 1 (and writes no CSV rows past
# the header) unless the trace ends with "the GPU matches the host model".
# the lane list of the n-th "lanes {0,4,7}" on the line, as "0 4 7"
function lanes(line, nth,    i, list) {
    for (i = 1; i <= nth; i++) {
        match(line, /lanes \{[0-9,]*\}/)
        list = substr(line, RSTART + 7, RLENGTH - 8)
        line = substr(line, RSTART + RLENGTH)
    }
    gsub(/,/, " ", list)
    return list
}
BEGIN { OFS = ","; n = 0 }
/^GPU [0-9]+: / {
    gpu = $0; sub(/^GPU [0-9]+: /, "", gpu); sub(/,.*/, "", gpu)
    cc = $0; sub(/.*compute capability /, "", cc); sub(/,.*/, "", cc)
}
/^CUDA runtime / { cuda = $3; sub(/,/, "", cuda) }
/^key / { for (i = 2; i <= NF; i++) key[i - 2] = $i; lanes_n = NF - 1 }
/^value / { for (i = 2; i <= NF; i++) value[i - 2] = $i }
/iteration [0-9]+: unassigned/ {
    it = $2; sub(/:/, "", it); unassigned = lanes($0, 1)
}
/leader lane [0-9]+ has key/ {
    k = $6; sub(/;/, "", k)
    rows[n++] = "stage1" OFS it OFS $3 OFS k OFS "" OFS "" OFS "" OFS unassigned OFS lanes($0, 1)
}
/^  round [0-9]+:/ {
    round = $2; sub(/:/, "", round)
    line = $0; sub(/^  round [0-9]+: */, "", line)
    count = split(line, adds, /; */)
    for (i = 1; i <= count; i++) {
        if (adds[i] !~ /lane/) continue
        split(adds[i], f, /[ ()]+/)  # lane L += lane S (V) -> T
        rows[n++] = "stage2" OFS round OFS f[2] OFS key[f[2]] OFS f[6] OFS f[5] OFS f[8] OFS "" OFS ""
        from[round, f[2]] = f[5]; total[round, f[2]] = f[8]; read[round, f[5]] = 1
    }
    rounds = round
}
/atomicAdd\(&sums\[/ {
    lane = $2; sub(/:/, "", lane)
    k = $3; sub(/.*\[/, "", k); sub(/\].*/, "", k)
    v = $4; sub(/\).*/, "", v)
    rows[n++] = "atomic" OFS "" OFS lane OFS k OFS "" OFS "" OFS v OFS "" OFS ""
}
/the GPU matches the host model/ { matched = 1 }
END {
    if (!matched) {
        print "lab1_trace.awk: the trace does not end with \"the GPU matches the host model\"" > "/dev/stderr"
        exit 1
    }
    printf "# gpu=%s; cc=%s; cuda=%s; date=%s; one warp of warp-ballot (./solution1 --trace | awk -f plots/lab1_trace.awk), recorded on the GPU and checked against the host model: a figure's data, not a measurement\n", gpu, cc, cuda, date
    print "kind,step,lane,key,value,from,total,unassigned,peers"
    for (lane = 0; lane < lanes_n; lane++)
        print "lane", "", lane, key[lane], value[lane], "", "", "", ""
    for (i = 0; i < n; i++) {
        if (rows[i] ~ /^atomic/ && !lived) {
            lived = 1
            print_live()
        }
        print rows[i]
    }
}

# The lanes still live after each round: a lane leaves once a peer has read it.
function print_live(    r, lane, held, gone) {
    for (lane = 0; lane < lanes_n; lane++) held[lane] = value[lane]
    for (r = 1; r <= rounds; r++)
        for (lane = 0; lane < lanes_n; lane++) {
            if (read[r, lane]) gone[lane] = 1
            if (gone[lane]) continue
            if ((r, lane) in total) held[lane] = total[r, lane]
            print "live", r, lane, key[lane], "", ((r, lane) in from) ? from[r, lane] : "", held[lane], "", ""
        }
}
