#!/usr/bin/env python3
"""Tabulates benchmark ratios of two builds run alternately.

    compare-runs.py [--key KEY] DIR SUITE BEFORE AFTER

reads DIR/SUITE-BEFORE-*.json and DIR/SUITE-AFTER-*.json (the --json output of
`./spindle bench`, `bench async` or `bench actors`, one file per run) and prints a Markdown
table: each workload's ratio in every JVM of each build, the median over them, and a two-sided
Mann-Whitney rank test of the two builds' JVMs. A run with `--forks N` counts as N JVMs (its
`summary` lists each JVM's own ratio), a run without as one.
KEY picks the ratio (default `ratio`; `vtRatio` for `bench async`'s virtual-thread column).

With under 4 JVMs a build the test cannot reach the 5 % level and says so. Pair order matters
on a 2-core machine (the second JVM of a back-to-back pair can run slower, whatever the build):
alternate A B B A, as `ab.sh` does, so that each build runs first as often as second.
"""
import glob
import json
import math
import statistics
import sys


def ratios(directory, suite, build, key="ratio"):
    rows = {}
    # escaped: a directory named like a pattern (results[1], as ab.sh -o allows) matched no file,
    # and the table came out empty as if the runs had reported nothing
    for path in sorted(glob.glob(f"{glob.escape(directory)}/{glob.escape(suite)}-{glob.escape(build)}-*.json")):
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError):
            continue                    # an interrupted run leaves no usable JSON
        if "summary" in report:         # --forks N: every JVM's own ratio
            for s in report["summary"]:
                if s.get("field") == key:
                    rows.setdefault(s["workload"], []).extend(
                        x for x in s["perJvm"] if x is not None and not math.isnan(x))
            continue
        for r in report.get("results", []):
            if r.get(key) is not None:
                rows.setdefault(r["workload"], []).append(r[key])
    return rows


def rank_test(xs, ys):
    """Two-sided Mann-Whitney U with the normal approximation (ties averaged): (U, p)."""
    n, m = len(xs), len(ys)
    if n < 4 or m < 4:
        return None
    pooled = sorted([(v, 0) for v in xs] + [(v, 1) for v in ys])
    ranks, i = [0.0] * len(pooled), 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        i = j + 1
    rx = sum(r for r, (_, g) in zip(ranks, pooled) if g == 0)
    u = rx - n * (n + 1) / 2
    u = min(u, n * m - u)
    sd = math.sqrt(n * m * (n + m + 1) / 12)
    z = (n * m / 2 - u) / sd if sd else 0.0
    p = math.erfc(z / math.sqrt(2))
    return u, p


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

    def test(xb, xa):
        t = rank_test(xb, xa)
        if t is None:
            return "too few JVMs"
        u, p = t
        return f"U = {u:g}, p = {p:.2f}"

    print(f"| workload ({key}) | {before} (JVMs) | {after} (JVMs) | {before} median | {after} median | rank test |")
    print("| --- | --- | --- | --- | --- | --- |")
    for w in dict.fromkeys(list(b) + list(a)):
        xb, xa = b.get(w, []), a.get(w, [])
        print(f"| {w} | {runs(xb)} | {runs(xa)} | {median(xb)} | {median(xa)} | {test(xb, xa)} |")


if __name__ == "__main__":
    main(sys.argv)
