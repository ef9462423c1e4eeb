#!/usr/bin/python3
# Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
"""Pairs `spindle bench cluster --json` with `dask_bench.py` output by configuration and shape and
prints the ratios Spindle / Dask, with the issue's targets.

  ratios.py SPINDLE.json DASK.json

A pair must be of the same run: the same number of tasks (--size), workers and threads per
worker, and the same balance interval; else the ratios would compare different work, and the
script refuses (exit 1, naming what differs). A row that one side has and the other has not is
left out, with a note on stderr; if no row pairs, the script refuses too.

tasks/s ratio = Spindle tasks per second / Dask's (> 1: Spindle faster). /bound = each system's
median makespan over max(total work / total threads, critical path). Bytes as each side counts
them (see dask_bench.py's docstring and docs/BENCHMARKS.md).
"""

import json
import sys

TARGETS = {("inprocess", "tiny"): ("tasks/s ratio >= 20", lambda r: r["ratio"] >= 20),
           ("processes", "tiny"): ("tasks/s ratio >= 10", lambda r: r["ratio"] >= 10)}
BOUND_TARGET = 1.15


def fmt(v, spec):
    return "-" if v is None else format(v, spec)


def size(v):
    if v is None:
        return "-"
    if v >= 1e6:
        return f"{v / 1e6:.1f} MB"
    if v >= 1e3:
        return f"{v / 1e3:.1f} kB"
    return f"{v:.0f} B"


def mismatch(ours, theirs):
    """What differs between a Spindle row and the Dask row of its configuration and shape; "" if nothing."""
    fields = ["tasks", "workers", "threads"] + (["size"] if "size" in ours and "size" in theirs else [])
    diffs = [f"{f} {ours.get(f)} vs {theirs.get(f)}" for f in fields if ours.get(f) != theirs.get(f)]
    return f"{ours['config']}/{ours['shape']}: {', '.join(diffs)}" if diffs else ""


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: ratios.py SPINDLE.json DASK.json")
    with open(sys.argv[1]) as f:
        spindle = json.load(f)
    with open(sys.argv[2]) as f:
        dask = json.load(f)
    if spindle.get("system") != "spindle" or dask.get("system") != "dask":
        sys.exit("ratios.py: the first file must be spindle bench cluster --json output, the second dask_bench.py's")
    theirs = {}
    for r in dask["results"]:
        if (r["config"], r["shape"]) in theirs:
            sys.exit(f"ratios.py: {sys.argv[2]} holds {r['config']}/{r['shape']} twice")
        theirs[(r["config"], r["shape"])] = r
    if spindle.get("balanceMillis") != dask.get("balanceMillis"):
        sys.exit(f"ratios.py: the runs balanced at different intervals: Spindle every {spindle.get('balanceMillis')}"
                 f" ms, Dask every {dask.get('balanceMillis')} ms")
    mismatched = [mismatch(r, theirs[(r["config"], r["shape"])]) for r in spindle["results"]
                  if (r["config"], r["shape"]) in theirs]
    mismatched = [m for m in mismatched if m]
    if mismatched:
        sys.exit("ratios.py: the two runs are not of the same sizes, so their ratios would compare different"
                 " work (run both with the same --size, --threads and workers); Spindle vs Dask:\n  "
                 + "\n  ".join(mismatched))
    ours = {(r["config"], r["shape"]) for r in spindle["results"]}
    unpaired = [f"{c}/{s} (Spindle only)" for c, s in ours - theirs.keys()] \
        + [f"{c}/{s} (Dask only)" for c, s in theirs.keys() - ours]
    if unpaired:
        print("ratios.py: left out, not in both runs: " + ", ".join(sorted(unpaired)), file=sys.stderr)
    if not ours & theirs.keys():
        sys.exit("ratios.py: no configuration and shape is in both runs")
    head = ["config", "shape", "tasks", "Spindle s", "Dask s", "Spindle tasks/s", "Dask tasks/s", "ratio",
            "Spindle /bound", "Dask /bound", "Spindle data", "Dask data", "Spindle tcp", "Dask tcp", "target"]
    rows = [head]
    for r in spindle["results"]:
        d = theirs.get((r["config"], r["shape"]))
        if d is None:
            continue
        ratio = r["tasksPerSecond"] / d["tasksPerSecond"]
        target = ""
        key = (r["config"], r["shape"])
        if key in TARGETS:
            text, met = TARGETS[key]
            target = f"{text}: {'met' if met({'ratio': ratio}) else 'NOT met'}"
        elif r["shape"] == "skewed" and r["overBound"] is not None:
            target = f"/bound <= {BOUND_TARGET}: {'met' if r['overBound'] <= BOUND_TARGET else 'NOT met'}"
        rows.append([r["config"], r["shape"], str(r["tasks"]), fmt(r["seconds"]["median"], ".3f"),
                     fmt(d["seconds"]["median"], ".3f"), fmt(r["tasksPerSecond"], ".0f"),
                     fmt(d["tasksPerSecond"], ".0f"), fmt(ratio, ".2f"), fmt(r["overBound"], ".2f"),
                     fmt(d["overBound"], ".2f"), size(r["dataBytes"]), size(d["dataBytes"]),
                     size(r["tcpBytesSent"]), size(d["tcpBytesSent"]), target])
    print(f"Spindle (Java {spindle['java']}) / Dask {dask['version']} (Python {dask['python']}), "
          f"{spindle['cores']} cores; medians of {spindle['rounds']} and {dask['rounds']} rounds")
    width = [max(len(row[i]) for row in rows) for i in range(len(head))]
    for row in rows:
        print("  ".join(c.ljust(w) if i < 2 or i == len(head) - 1 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(row, width))).rstrip())


if __name__ == "__main__":
    main()
