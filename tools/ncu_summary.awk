# ncu_summary.awk: the few Nsight Compute numbers that explain one step, next to
# the same numbers for the step before it (make profile, tools/profile.sh).
#
#   awk -f ncu_summary.awk -v labels="prev this" prev.csv this.csv
#
# Each file is one variant's report as `ncu --import R.ncu-rep --csv --page raw
# --print-units base` prints it: a header row ("ID","Process ID",...,"Kernel Name",
# ...,metric names), a row of units, then one row per kernel launch. The default
# page (`--csv` without --page: one row per metric with "Metric Name","Metric Unit",
# "Metric Value") is read as well. Fields are quoted; numbers may carry thousands
# separators ("1,234,567"); a value that is not a number ("n/a") counts as missing.
# Times are converted to nanoseconds and K/M/G-prefixed units to base units, so the
# summary is right whatever --print-units was.
#
# Per variant, over its kernel launches: total time; DRAM throughput and achieved
# occupancy as time-weighted means; the warp stall reason with the largest
# time-weighted mean (cycles per issued instruction); shared-memory bank conflicts
# (loads, stores) and warp-level instructions executed, summed.
# mode=totals prints those per variant as tab-separated fields for the tests:
#   label kernels time_ns dram_pct occupancy_pct stall_reason stall bank_ld bank_st inst
# (a missing number is "n/a").

BEGIN {
    TIME = "gpu__time_duration.sum"
    DRAM = "dram__throughput.avg.pct_of_peak_sustained_elapsed"
    OCC = "sm__warps_active.avg.pct_of_peak_sustained_active"
    BANK_LD = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"
    BANK_ST = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
    INST = "smsp__inst_executed.sum"
    STALL = "^smsp__average_warps_issue_stalled_.+_per_issue_active\\.ratio$"
    nlabels = split(labels, label, " ")
}

# Split one CSV line into f[1..n]; quoted fields may hold commas and doubled quotes.
function csv_split(line, f,    n, i, c, field, quoted, len) {
    n = 0; field = ""; quoted = 0; len = length(line)
    for (i = 1; i <= len; i++) {
        c = substr(line, i, 1)
        if (quoted) {
            if (c != "\"") field = field c
            else if (substr(line, i + 1, 1) == "\"") { field = field "\""; i++ }
            else quoted = 0
        } else if (c == "\"") quoted = 1
        else if (c == ",") { f[++n] = field; field = "" }
        else field = field c
    }
    f[++n] = field
    return n
}

# Multiplier from a unit to the base unit (nanoseconds for times).
function unit_scale(u) {
    if (u ~ /^(nsecond|ns)$/) return 1
    if (u ~ /^(usecond|us)$/) return 1e3
    if (u ~ /^(msecond|ms)$/) return 1e6
    if (u ~ /^(second|s)$/) return 1e9
    if (u ~ /^K[a-z]/) return 1e3
    if (u ~ /^M[a-z]/) return 1e6
    if (u ~ /^G[a-z]/) return 1e9
    if (u ~ /^T[a-z]/) return 1e12
    return 1
}

# Store metric m = text (in unit u) for kernel k of the current file.
function store(k, m, text, u) {
    gsub(/,/, "", text)
    if (text !~ /^[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$/) return
    value[file, k, m] = text * unit_scale(u)
    if (m ~ STALL) stall_seen[file, m] = 1
}

function new_kernel(k, name, grid, block) {
    if ((file, k) in kernel_name) return
    kernel_name[file, k] = name
    kernel_shape[file, k] = (grid != "" ? grid " x " block : "")
    kernel_at[file, ++kernels[file]] = k
}

FNR == 1 {
    file++
    header = 0
    files = file
}
{ sub(/\r$/, "") }
!header {
    if ($0 !~ /^"/) next                      # ==PROF== lines, program output
    n = csv_split($0, f)
    for (i = 1; i <= n; i++) col[file, f[i]] = i
    if (!((file, "Kernel Name") in col)) next
    header = 1
    long = (file, "Metric Name") in col
    for (i = 1; i <= n; i++) name_of[file, i] = f[i]
    columns[file] = n
    units_row = !long
    next
}
{
    n = csv_split($0, f)
    id = f[col[file, "ID"]]
    if (units_row) {                           # the row after the header: units, no ID
        units_row = 0
        if (id == "") {
            for (i = 1; i <= n; i++) unit[file, i] = f[i]
            next
        }
    }
    if (id == "") next
    grid = (file, "Grid Size") in col ? f[col[file, "Grid Size"]] : ""
    block = (file, "Block Size") in col ? f[col[file, "Block Size"]] : ""
    new_kernel(id, f[col[file, "Kernel Name"]], grid, block)
    if (long)
        store(id, f[col[file, "Metric Name"]], f[col[file, "Metric Value"]], f[col[file, "Metric Unit"]])
    else
        for (i = 1; i <= n && i <= columns[file]; i++)
            if (name_of[file, i] ~ /__/) store(id, name_of[file, i], f[i], unit[file, i])
}

# "void reduce<T, int>(const T *, unsigned long)" -> "reduce<T, int>"
function short_name(s,    i, c, depth) {
    sub(/^void /, "", s)
    for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == "<") depth++
        else if (c == ">") depth--
        else if (c == "(" && depth == 0) return substr(s, 1, i - 1)
    }
    return s
}

# Totals of file v into tot[v, ...]; missing numbers stay unset.
function totals(v,    j, k, t, m, best, sum_t) {
    for (j = 1; j <= kernels[v]; j++) {
        k = kernel_at[v, j]
        t = (v, k, TIME) in value ? value[v, k, TIME] : 0
        if ((v, k, TIME) in value) tot[v, "time"] += t
        if ((v, k, DRAM) in value) { weighted[v, "dram"] += t * value[v, k, DRAM]; weight[v, "dram"] += t }
        if ((v, k, OCC) in value) { weighted[v, "occ"] += t * value[v, k, OCC]; weight[v, "occ"] += t }
        if ((v, k, BANK_LD) in value) tot[v, "bank_ld"] += value[v, k, BANK_LD]
        if ((v, k, BANK_ST) in value) tot[v, "bank_st"] += value[v, k, BANK_ST]
        if ((v, k, INST) in value) tot[v, "inst"] += value[v, k, INST]
    }
    if (weight[v, "dram"] > 0) tot[v, "dram"] = weighted[v, "dram"] / weight[v, "dram"]
    if (weight[v, "occ"] > 0) tot[v, "occ"] = weighted[v, "occ"] / weight[v, "occ"]
    # the stall reason with the largest time-weighted mean
    best = -1
    for (key in stall_seen) {
        split(key, part, SUBSEP)
        if (part[1] != v) continue
        m = part[2]
        stall_w = 0; sum_t = 0
        for (j = 1; j <= kernels[v]; j++) {
            k = kernel_at[v, j]
            if (!((v, k, m) in value)) continue
            t = (v, k, TIME) in value ? value[v, k, TIME] : 1
            stall_w += t * value[v, k, m]; sum_t += t
        }
        reason = m
        sub(/^smsp__average_warps_issue_stalled_/, "", reason)
        sub(/_per_issue_active\.ratio$/, "", reason)
        if (reason == "selected" || sum_t == 0) continue   # "selected" is issuing, not a stall
        if (stall_w / sum_t > best) { best = stall_w / sum_t; tot[v, "stall_reason"] = reason }
    }
    if (best >= 0) tot[v, "stall"] = best
}

function num(v, what, fmt) { return (v, what) in tot ? sprintf(fmt, tot[v, what]) : "n/a" }

# 1234567 -> "1,234,567"
function grouped(x,    s, out) {
    s = sprintf("%.0f", x); out = ""
    while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
    return s out
}
function count(v, what) { return (v, what) in tot ? grouped(tot[v, what]) : "n/a" }

function row(title, cells,    v) {
    printf "%-36s", title
    for (v = 1; v <= files; v++) printf " %24s", cells[v]
    printf "\n"
}

END {
    if (!files) { print "ncu_summary: no input" > "/dev/stderr"; exit 2 }
    for (v = 1; v <= files; v++) {
        if (!header_seen(v)) { printf "ncu_summary: file %d has no ncu CSV header (\"Kernel Name\")\n", v > "/dev/stderr"; exit 2 }
        if (!kernels[v]) { printf "ncu_summary: %s: no kernel was profiled\n", name(v) > "/dev/stderr"; exit 2 }
        totals(v)
    }
    if (mode == "totals") {
        for (v = 1; v <= files; v++)
            printf "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name(v), kernels[v], num(v, "time", "%.1f"),
                num(v, "dram", "%.2f"), num(v, "occ", "%.2f"), (v, "stall_reason") in tot ? tot[v, "stall_reason"] : "n/a",
                num(v, "stall", "%.2f"), num(v, "bank_ld", "%.0f"), num(v, "bank_st", "%.0f"), num(v, "inst", "%.0f")
        exit 0
    }
    for (v = 1; v <= files; v++) c[v] = name(v)
    row("", c)
    for (v = 1; v <= files; v++) c[v] = kernels[v]
    row("kernel launches", c)
    for (v = 1; v <= files; v++) c[v] = (v, "time") in tot ? sprintf("%.2f", tot[v, "time"] / 1e3) : "n/a"
    row("time (us, sum of launches)", c)
    for (v = 1; v <= files; v++) c[v] = num(v, "dram", "%.1f")
    row("DRAM throughput (% of peak)", c)
    for (v = 1; v <= files; v++) c[v] = num(v, "occ", "%.1f")
    row("achieved occupancy (% of peak)", c)
    for (v = 1; v <= files; v++) c[v] = (v, "stall") in tot ? sprintf("%s %.2f", tot[v, "stall_reason"], tot[v, "stall"]) : "n/a"
    row("top warp stall (cycles per instr.)", c)
    for (v = 1; v <= files; v++) c[v] = count(v, "bank_ld") " / " count(v, "bank_st")
    row("shared bank conflicts (load / store)", c)
    for (v = 1; v <= files; v++) c[v] = count(v, "inst")
    row("warp instructions executed", c)
    for (v = 1; v <= files; v++)
        for (j = 1; j <= kernels[v]; j++) {
            k = kernel_at[v, j]
            printf "  %-22s %s%s  %s\n", j == 1 ? name(v) ":" : "", short_name(kernel_name[v, k]),
                kernel_shape[v, k] != "" ? "  " kernel_shape[v, k] : "",
                (v, k, TIME) in value ? sprintf("%.2f us", value[v, k, TIME] / 1e3) : ""
        }
}

function header_seen(v) { return (v, "Kernel Name") in col }
function name(v) { return v <= nlabels ? label[v] : "file " v }
