#!/usr/bin/env python3
"""Tabulates benchmark ratios of two builds run alternately.

    compare-runs.py [--key KEY] DIR SUITE BEFORE AFTER

reads DIR/SUITE-BEFORE-*.json and DIR/SUITE-AFTER-*.json (the --json output of
`./spindle bench`, `bench async` or `bench actors`, one file per run) and prints a Markdown
table: each workload's ratio in every run of each build, and the median over the runs.
KEY picks the ratio (default `ratio`; `vtRatio` for `bench async`'s virtual-thread column).
"""
import glob
import json
import statistics
import sys


def ratios(directory, suite, build, key="ratio"):
    rows = {}
    for path in sorted(glob.glob(f"{directory}/{suite}-{build}-*.json")):
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError):
            continue                    # an interrupted run leaves no usable JSON
        for r in report["results"]:
            if r.get(key) is not None:
                rows.setdefault(r["workload"], []).append(r[key])
    return rows


def main(argv):
    key = "ratio"
    if len(argv) > 2 and argv[1] == "--key":
        key = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) != 5:
        sys.exit(__doc__)
    directory, suite, before, after = argv[1:]
    b, a = ratios(directory, suite, before, key), ratios(directory, suite, after, key)
    runs = lambda xs: " ".join(f"{x:.2f}" for x in xs)
    median = lambda xs: f"{statistics.median(xs):.2f}" if xs else "-"
    print(f"| workload ({key}) | {before} (runs) | {after} (runs) | {before} median | {after} median |")
    print("| --- | --- | --- | --- | --- |")
    for w in dict.fromkeys(list(b) + list(a)):
        xb, xa = b.get(w, []), a.get(w, [])
        print(f"| {w} | {runs(xb)} | {runs(xa)} | {median(xb)} | {median(xa)} |")


if __name__ == "__main__":
    main(sys.argv)
