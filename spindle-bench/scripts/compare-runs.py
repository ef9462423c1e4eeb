#!/usr/bin/env python3
"""Tabulates benchmark ratios of two builds run alternately.

    compare-runs.py [--key KEY] DIR SUITE BEFORE AFTER

reads DIR/SUITE-BEFORE-*.json and DIR/SUITE-AFTER-*.json (the --json output of
`./spindle bench`, `bench async` or `bench actors`, one file per run) and prints a Markdown
table: each workload's ratio in every JVM of each build, the median over them, and a two-sided
Mann-Whitney rank test of the two builds' JVMs. A run with `--forks N` counts as N JVMs (its
`summary` lists each JVM's own ratio), a run without as one. A file that holds no report (a run
cut short) is left out and named on stderr.
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
    """Each workload's figures over the build's JVMs, and how many JVMs had the workload but no figure."""
    rows, missing = {}, {}
    # escaped: a directory named like a pattern (results[1], as ab.sh -o allows) matched no file,
    # and the table came out empty as if the runs had reported nothing
    for path in sorted(glob.glob(f"{glob.escape(directory)}/{glob.escape(suite)}-{glob.escape(build)}-*.json")):
        try:
            with open(path) as f:
                report = json.load(f)
        except (OSError, ValueError) as e:
            # an interrupted run leaves no usable JSON; it was left out without a word, so a build's
            # median and rank test stood on fewer JVMs than the runs made, and nothing said so
            print(f"compare-runs.py: left out {path}: not a report ({e})", file=sys.stderr)
            continue
        # a JVM that has the workload but no figure for it (null) was dropped without a word, and a
        # build's list, median and rank test stood on fewer JVMs than were run; they are counted
        if "summary" in report:         # --forks N: every JVM's own ratio
            for s in report["summary"]:
                if s.get("field") == key:
                    for x in s["perJvm"]:
                        figure(rows, missing, s["workload"], x)
            continue
        for r in report.get("results", []):
            if key in r:
                figure(rows, missing, r["workload"], r[key])
    return rows, missing


def figure(rows, missing, workload, x):
    if x is None or math.isnan(x):
        missing[workload] = missing.get(workload, 0) + 1
    else:
        rows.setdefault(workload, []).append(x)


def rank_test(xs, ys):
    """Two-sided Mann-Whitney U test: (U, p), or None with under 4 values on a side.

    Without ties p is exact: the share of all splits of the pooled values into groups of these
    sizes whose U is at least as extreme. The normal approximation used before, with no continuity
    correction, understated p at the sizes ab.sh runs (4 JVMs a build, one overlap: p = 0.043
    against the exact 0.057), so a difference it called significant at the 5 % level was not.
    With ties (equal ratios, rare) the ranks are averaged and p comes from the normal
    approximation with the tie-corrected variance and a continuity correction.
    """
    n, m = len(xs), len(ys)
    if n < 4 or m < 4:
        return None
    pooled = sorted([(v, 0) for v in xs] + [(v, 1) for v in ys])
    ranks, ties, i = [0.0] * len(pooled), [], 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        for k in range(i, j + 1):
            ranks[k] = (i + j) / 2 + 1
        if j > i:
            ties.append(j - i + 1)
        i = j + 1
    rx = sum(r for r, (_, g) in zip(ranks, pooled) if g == 0)
    u = rx - n * (n + 1) / 2
    u = min(u, n * m - u)
    if not ties:
        return u, min(1.0, 2 * exact_lower_tail(n, m, int(u)))
    total = n + m
    var = n * m / 12 * ((total + 1) - sum(t ** 3 - t for t in ties) / (total * (total - 1)))
    if var <= 0:                        # every value equal: no evidence either way
        return u, 1.0
    z = max(0.0, n * m / 2 - u - 0.5) / math.sqrt(var)
    return u, min(1.0, math.erfc(z / math.sqrt(2)))


def exact_lower_tail(n, m, u):
    """P(U <= u) for groups of n and m distinct values under the null hypothesis."""
    # ways[a][b][k]: orderings of a values of the first group and b of the second with U = k,
    # built by placing the largest value last: from the first group it exceeds all b others
    ways = [[[0] * (n * m + 1) for _ in range(m + 1)] for _ in range(n + 1)]
    for a in range(n + 1):
        for b in range(m + 1):
            if a == 0 or b == 0:
                ways[a][b][0] = 1
                continue
            for k in range(a * b + 1):
                ways[a][b][k] = (ways[a - 1][b][k - b] if k >= b else 0) + ways[a][b - 1][k]
    return sum(ways[n][m][:u + 1]) / math.comb(n + m, n)


def main(argv):
    key = "ratio"
    if len(argv) > 2 and argv[1] == "--key":
        key = argv[2]
        argv = argv[:1] + argv[3:]
    if len(argv) != 5:
        sys.exit(__doc__)
    directory, suite, before, after = argv[1:]
    (b, b_missing), (a, a_missing) = ratios(directory, suite, before, key), ratios(directory, suite, after, key)

    def runs(xs, missing):
        text = " ".join(f"{x:.2f}" for x in xs)
        if missing:
            text += f"{', ' if xs else ''}{missing} JVM{'s' if missing > 1 else ''} without a figure"
        return text

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
        print(f"| {w} | {runs(xb, b_missing.get(w, 0))} | {runs(xa, a_missing.get(w, 0))} | {median(xb)} | {median(xa)}"
              f" | {test(xb, xa)} |")


if __name__ == "__main__":
    main(sys.argv)
