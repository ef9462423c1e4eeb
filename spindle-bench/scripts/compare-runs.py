#!/usr/bin/env python3
"""Tabulates benchmark ratios of two builds run alternately.

    compare-runs.py DIR SUITE BEFORE AFTER

reads DIR/SUITE-BEFORE-*.json and DIR/SUITE-AFTER-*.json (the --json output of
`./spindle bench`, `bench async` or `bench actors`, one file per run) and prints a Markdown
table: each workload's ratio in every run of each build, and the median over the runs.
"""
import glob
import json
import statistics
import sys


def ratios(directory, suite, build):
    rows = {}
    for path in sorted(glob.glob(f"{directory}/{suite}-{build}-*.json")):
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError):
            continue                    # an interrupted run leaves no usable JSON
        for r in report["results"]:
            if r.get("ratio") is not None:
                rows.setdefault(r["workload"], []).append(r["ratio"])
    return rows


def main(argv):
    if len(argv) != 5:
        sys.exit(__doc__)
    directory, suite, before, after = argv[1:]
    b, a = ratios(directory, suite, before), ratios(directory, suite, after)
    runs = lambda xs: " ".join(f"{x:.2f}" for x in xs)
    median = lambda xs: f"{statistics.median(xs):.2f}" if xs else "-"
    print(f"| workload | {before} (runs) | {after} (runs) | {before} median | {after} median |")
    print("| --- | --- | --- | --- | --- |")
    for w in dict.fromkeys(list(b) + list(a)):
        xb, xa = b.get(w, []), a.get(w, [])
        print(f"| {w} | {runs(xb)} | {runs(xa)} | {median(xb)} | {median(xa)} |")


if __name__ == "__main__":
    main(sys.argv)
