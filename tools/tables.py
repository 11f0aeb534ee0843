#!/usr/bin/env python3
"""tables.py: results tables in Markdown, generated from the measured CSVs.

A lecture, notebook or sheet never types a measured number into a table: it
marks a block, and `make tables` fills it from plots/data/ (`make check-tables`,
run in CI, fails when a committed block differs from what the CSV gives).

    <!-- table csv=lab3_i32.csv rows=variant cols=n value=pct_of_memcpy scale=0.01 fmt=%.2f -->
    (generated: do not edit)
    <!-- end table -->

Options (key=value, values with spaces in double quotes):
  csv=FILE            a file of plots/data/ (lines starting with '#' are its header
                      comments: the first names the GPU, CUDA and date)
  where="c=v1|v2;d=x" keep rows whose column c is v1 or v2 and whose d is x
  A pivot table (one row per value of `rows`, one column per value of `cols`):
    rows=COL cols=COL value=COL
    agg=first|median|min|max|mean|range   how the cell combines several matching rows
                      (default: exactly one row must match, or the tool stops)
    per=ROW           divide each cell by the cell of row ROW in the same column
                      (throughput x ROW); with invert, ROW's cell over this one
                      (time: how many times faster than ROW)
  A list (the CSV's rows as they are): show="col1,col2,..."
  order-rows="a,b"    rows, in this order (default: as they first appear)
  order-cols="x,y"    columns of a pivot, in this order (default: as they appear)
  label-rows="a=Step 3.0 (block-hillis-steele);b=..."   row labels
  label-cols="16777216=2^24;268435456=2^28"             column labels
  corner=TEXT         the head of the first column of a pivot (default: rows)
  headers="col=Label;..."  column heads of a list
  fmt=%.2f            printf format of numeric cells (default: as in the CSV)
  scale=X             multiply numeric cells by X (0.01 turns % into a ratio)

Each table is followed by its source line: the GPU and CUDA version from the
CSV's first comment, and the file's path; in a notebook (lectures/notebooks/)
also the run's date (lectures and sheets carry no run dates).

Usage: tables.py [--check] FILE.md...   (rewrites the blocks, or with --check
says which are stale and exits 1)
"""
import csv
import difflib
import io
import os
import re
import shlex
import statistics
import sys

DATA = "plots/data"
BEGIN = re.compile(r"^<!-- table (.*?) -->\s*$")
END = "<!-- end table -->"


class SpecError(Exception):
    pass


def parse_spec(text):
    spec = {}
    for word in shlex.split(text):
        if "=" in word:
            key, value = word.split("=", 1)
        else:
            key, value = word, "1"
        spec[key] = value
    if "csv" not in spec:
        raise SpecError("no csv=FILE")
    known = {"csv", "where", "rows", "cols", "value", "agg", "per", "invert", "show", "order-rows",
             "order-cols", "label-rows", "label-cols", "corner", "headers", "fmt", "scale"}
    unknown = set(spec) - known
    if unknown:
        raise SpecError("unknown option(s): " + ", ".join(sorted(unknown)))
    return spec


def pairs(text, label=False):
    """'a=x;b=y' -> {'a': 'x', 'b': 'y'}. A label's key may itself hold '='
    (label-cols="G=2 chunks=4=4 chunks"): labels split at the last '='."""
    out = {}
    for item in filter(None, (s.strip() for s in (text or "").split(";"))):
        if "=" not in item:
            raise SpecError("'%s' is not key=value" % item)
        key, value = item.rsplit("=", 1) if label else item.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def items(text):
    return [s.strip() for s in text.split(",")] if text else None


def read_csv(name):
    path = os.path.join(DATA, name)
    if not os.path.isfile(path):
        raise SpecError("%s not found" % path)
    with open(path, newline="") as f:
        lines = f.read().splitlines()
    comments = [l for l in lines if l.startswith("#")]
    body = [l for l in lines if l and not l.startswith("#")]
    if not body:
        raise SpecError("%s has no header line" % path)
    rows = list(csv.DictReader(io.StringIO("\n".join(body))))
    return path, comments, rows


def source_line(path, comments, dated):
    facts = {}
    if comments:
        for part in comments[0].lstrip("# ").split(";"):
            if "=" in part:
                key, value = part.split("=", 1)
                facts[key.strip()] = value.strip()
    where = ", ".join(x for x in (facts.get("gpu"), facts.get("cuda") and "CUDA " + facts["cuda"],
                                  dated and facts.get("date")) if x)
    return "*Measured%s: `%s`.*" % (" on " + where if where else "", path)


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def cell_text(value, spec):
    x = number(value)
    if x is None:
        return value
    x *= float(spec.get("scale", 1))
    return spec["fmt"] % x if "fmt" in spec else (value if "scale" not in spec else "%g" % x)


def keep(rows, where):
    for col, allowed in pairs(where).items():
        ok = set(allowed.split("|"))
        if rows and col not in rows[0]:
            raise SpecError("where: no column '%s'" % col)
        rows = [r for r in rows if r[col] in ok]
    return rows


def ordered(values, order):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    if order is None:
        return seen
    missing = [v for v in order if v not in seen]
    if missing:
        raise SpecError("no rows for: " + ", ".join(missing))
    return order


def combine(values, agg, where):
    nums = [number(v) for v in values]
    if agg is None:
        if len(values) != 1:
            raise SpecError("%d rows match %s (give agg=)" % (len(values), where))
        return values[0]
    if agg == "first":
        return values[0]
    if None in nums:
        raise SpecError("agg=%s over a non-number at %s" % (agg, where))
    if agg == "range":
        return (min(nums), max(nums))
    fn = {"median": statistics.median, "min": min, "max": max, "mean": statistics.mean}.get(agg)
    if fn is None:
        raise SpecError("unknown agg '%s'" % agg)
    return fn(nums)


def markdown(head, body):
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return lines


def pivot(rows, spec):
    rkey, ckey, vkey = spec["rows"], spec.get("cols"), spec.get("value")
    if not ckey or not vkey:
        raise SpecError("a pivot needs rows=, cols= and value=")
    for key in (rkey, ckey, vkey):
        if rows and key not in rows[0]:
            raise SpecError("no column '%s'" % key)
    rnames = ordered([r[rkey] for r in rows], items(spec.get("order-rows")))
    cnames = ordered([r[ckey] for r in rows], items(spec.get("order-cols")))
    cells = {}
    per = spec.get("per")
    for rn in rnames + ([per] if per and per not in rnames else []):
        for cn in cnames:
            found = [r[vkey] for r in rows if r[rkey] == rn and r[ckey] == cn]
            cells[rn, cn] = combine(found, spec.get("agg"), "%s=%s, %s=%s" % (rkey, rn, ckey, cn)) if found else None

    def show(rn, cn):
        v = cells[rn, cn]
        if v is None:
            return "-"
        if per:
            base = cells.get((per, cn))
            if base is None or isinstance(base, tuple) or isinstance(v, tuple):
                raise SpecError("per=%s: no single value at %s" % (per, cn))
            a, b = number(v), number(base)
            v = repr(b / a if "invert" in spec else a / b)
        if isinstance(v, tuple):
            return cell_text(repr(v[0]), spec) + "-" + cell_text(repr(v[1]), spec)
        return cell_text(v if isinstance(v, str) else repr(v), spec)

    rlabels, clabels = pairs(spec.get("label-rows"), True), pairs(spec.get("label-cols"), True)
    head = [spec.get("corner", rkey)] + [clabels.get(c, c) for c in cnames]
    body = [[rlabels.get(rn, rn)] + [show(rn, cn) for cn in cnames] for rn in rnames]
    return markdown(head, body)


def listing(rows, spec):
    cols = items(spec["show"])
    for c in cols:
        if rows and c not in rows[0]:
            raise SpecError("no column '%s'" % c)
    order = items(spec.get("order-rows"))
    if order:
        key = cols[0]
        rows = [r for name in ordered([r[key] for r in rows], order) for r in rows if r[key] == name]
    heads = pairs(spec.get("headers"))
    rlabels = pairs(spec.get("label-rows"), True)
    body = []
    for r in rows:
        line = [cell_text(r[c], spec) for c in cols]
        line[0] = rlabels.get(r[cols[0]], line[0])
        body.append(line)
    return markdown([heads.get(c, c) for c in cols], body)


def render(spec_text, dated):
    spec = parse_spec(spec_text)
    path, comments, rows = read_csv(spec["csv"])
    rows = keep(rows, spec.get("where"))
    if not rows:
        raise SpecError("no row of %s matches where=%s" % (path, spec.get("where", "")))
    lines = listing(rows, spec) if "show" in spec else pivot(rows, spec)
    return lines + ["", source_line(path, comments, dated)]


def regenerate(text, name):
    out, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = BEGIN.match(lines[i])
        out.append(lines[i])
        i += 1
        if not m:
            continue
        end = i
        while end < len(lines) and lines[end].strip() != END:
            if BEGIN.match(lines[end]):
                raise SpecError("%s:%d: a table block without '%s'" % (name, i, END))
            end += 1
        if end == len(lines):
            raise SpecError("%s:%d: a table block without '%s'" % (name, i, END))
        try:
            out += render(m.group(1), "notebooks/" in name)
        except SpecError as e:
            raise SpecError("%s:%d: %s" % (name, i, e))
        out.append(END)
        i = end + 1
    return "\n".join(out)


def main(argv):
    check = "--check" in argv
    files = [a for a in argv if a != "--check"]
    stale = 0
    for name in files:
        with open(name) as f:
            old = f.read()
        try:
            new = regenerate(old, name)
        except SpecError as e:
            print("tables: %s" % e, file=sys.stderr)
            return 2
        if new == old:
            continue
        if check:
            stale += 1
            print("tables: %s is stale (make tables):" % name)
            sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                       name, name + " (from the CSVs)", n=1))
        else:
            with open(name, "w") as f:
                f.write(new)
            print("tables: %s" % name)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
