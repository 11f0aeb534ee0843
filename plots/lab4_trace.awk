# lab4_trace.awk: the output of `./solution4 --trace` (lab 4's Merge Path partition of
# the lecture's example, computed on the host with lab4_search.h) as the CSV that
# plots/lab4_merge_path_grid.gp draws:
#     ./solution4 --trace | awk -f plots/lab4_trace.awk > plots/data/lab4_trace.csv
# Rows (kind,tile,thread,diag,a,b,side,label; a and b are grid points: A items and B
# items before that point of the merged order):
#   key     one per input item: side A or B, its index in a or b, its label ("E2")
#   tile    a tile's first diagonal and the split the partition found there; "end" the
#           last corner
#   thread  a thread's first diagonal (global) and its start on it
#   step    one step of the merge path: the point it leaves, side a (take A's item,
#           down) or b (take B's item, right), the item's label
#   cell    a cell (a, b) where A's key a > B's key b: B's item goes first there
#   probe   the partition's binary search on diagonal probe_diag (default 12, the
#           first tile boundary): probe number (thread column), the cell it compares
#           (A item a, B item diag - 1 - a), side 1 when A's item goes first
#           (lo = mid + 1), 0 when not (hi = mid)
# It checks the trace as it reads it and exits 1 if anything disagrees: every step's
# item is the item at the path's cursor, every thread starts on its diagonal where
# the path is, the tiles tile the path, the path separates the cells where A's key is
# greater from the others (a stable merge, A first on ties), and the binary search on
# probe_diag ends where the partition split is.
BEGIN {
    OFS = ","
    if (probe_diag == "") probe_diag = 12
    print "# lab4 Merge Path trace of the lecture's example (./solution4 --trace | awk -f plots/lab4_trace.awk);" \
          " a figure's data, not a measurement"
    print "kind,tile,thread,diag,a,b,side,label"
    tile = -1; cur_a = 0; cur_b = 0
}
function fail(msg) { print "lab4_trace.awk: " msg > "/dev/stderr"; bad = 1; exit 1 }
function letter(label) { return substr(label, 1, 1) }
# "A[ 5, 12) = E2 E3 ..." -> lo in bracket_lo, labels in items[]
function interval(line, items,    s, n) {
    s = line
    sub(/^ *[AB]\[ */, "", s)
    bracket_lo = s + 0
    sub(/^[^=]*= */, "", s)
    n = split(s, items, " ")
    return n
}
# The whole arrays: "A[ 0, 16) = A0 A1 ..." at the start of a line.
/^A\[/ { na = interval($0, ka); for (i = 1; i <= na; i++) { akey[i - 1] = ka[i]; print "key", "", "", "", i - 1, "", "A", ka[i] } next }
/^B\[/ { nb = interval($0, kb); for (j = 1; j <= nb; j++) { bkey[j - 1] = kb[j]; print "key", "", "", "", "", j - 1, "B", kb[j] } next }
/^tile [0-9]+: diagonals/ {
    tile = $2 + 0
    split($4, d, /\.\./)
    tile_d0[tile] = d[1] + 0
    next
}
/^  A\[/ { interval($0, tmp); tile_a[tile] = bracket_lo; next }
/^  B\[/ {
    interval($0, tmp); tile_b[tile] = bracket_lo
    if (tile_a[tile] + tile_b[tile] != tile_d0[tile])
        fail(sprintf("tile %d starts at A[%d] B[%d], not on diagonal %d", tile, tile_a[tile], tile_b[tile], tile_d0[tile]))
    if (tile_a[tile] != cur_a || tile_b[tile] != cur_b)
        fail(sprintf("tile %d starts at A[%d] B[%d], the path is at A[%d] B[%d]", tile, tile_a[tile], tile_b[tile], cur_a, cur_b))
    print "tile", tile, "", tile_d0[tile], tile_a[tile], tile_b[tile], "", ""
    next
}
/^    thread [0-9]+: diagonal/ {
    thread = $2 + 0
    diag = tile_d0[tile] + $4
    s = $0
    sub(/.*starts at A\[ */, "", s); ta = s + 0
    sub(/^[^B]*B\[ */, "", s); tb = s + 0
    if (ta + tb != diag) fail(sprintf("tile %d thread %d starts at A[%d] B[%d], off its diagonal %d", tile, thread, ta, tb, diag))
    if (ta != cur_a || tb != cur_b)
        fail(sprintf("tile %d thread %d starts at A[%d] B[%d], the path is at A[%d] B[%d]", tile, thread, ta, tb, cur_a, cur_b))
    print "thread", tile, thread, diag, ta, tb, "", ""
    sub(/.*emits */, "", s)
    n = split(s, steps, " ")
    for (k = 1; k <= n; k++) {
        side = substr(steps[k], 1, 1); label = substr(steps[k], 3)
        want = side == "a" ? akey[cur_a] : bkey[cur_b]
        if (label != want) fail(sprintf("tile %d thread %d emits %s:%s where the path's next %s item is %s", tile, thread, side, label, side, want))
        print "step", tile, thread, cur_a + cur_b, cur_a, cur_b, side, label
        if (side == "a") { taken_at[cur_a] = cur_b; cur_a++ } else cur_b++
    }
    next
}
END {
    if (bad) exit 1
    if (na == 0 || nb == 0) fail("no A[...] and B[...] lines: is this the output of ./solution4 --trace?")
    if (cur_a != na || cur_b != nb) fail(sprintf("the path ends at A[%d] B[%d], not at the corner A[%d] B[%d]", cur_a, cur_b, na, nb))
    print "end", "", "", na + nb, na, nb, "", ""
    # The path separates the cells: A item i is taken with taken_at[i] B items before
    # it, so it is greater than exactly those (stable: A first on equal keys).
    for (i = 0; i < na; i++)
        for (j = 0; j < nb; j++) {
            greater = letter(akey[i]) > letter(bkey[j])
            if (greater != (j < taken_at[i]))
                fail(sprintf("the path takes A's %s after %d of B's items, but A's %s %s B's %s", akey[i], taken_at[i],
                             akey[i], greater ? ">" : "<=", bkey[j]))
            if (greater) print "cell", "", "", i + j, i, j, "", ""
        }
    # The partition's search on one diagonal (lab4_merge_path_bisect over the whole
    # diagonal, A first on ties), probe by probe; it must end at the tile's split.
    lo = probe_diag > nb ? probe_diag - nb : 0
    hi = probe_diag < na ? probe_diag : na
    for (p = 1; lo < hi; p++) {
        mid = lo + int((hi - lo) / 2)
        a_first = letter(akey[mid]) <= letter(bkey[probe_diag - 1 - mid])
        print "probe", "", p, probe_diag, mid, probe_diag - 1 - mid, a_first, akey[mid] " vs " bkey[probe_diag - 1 - mid]
        if (a_first) lo = mid + 1; else hi = mid
    }
    for (t = 0; t <= tile; t++)
        if (tile_d0[t] == probe_diag && tile_a[t] != lo)
            fail(sprintf("the search on diagonal %d ends at A[%d], the partition split is A[%d]", probe_diag, lo, tile_a[t]))
}
