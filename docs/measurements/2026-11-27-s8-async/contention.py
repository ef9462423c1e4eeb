#!/usr/bin/env python3
"""Contention workloads of `bench async --json` runs: per run, p99 wakes, p99 completion (ms) and
tasks/s (thousands) of WORK_STEALING and HYBRID, and HYBRID's gains (WS/HYBRID p99 wakes, WS/HYBRID
p99 completion, HYBRID/WS throughput).  usage: contention.py DIR SUITE BUILD [BUILD...]"""
import glob, json, statistics, sys
d, suite, builds = sys.argv[1], sys.argv[2], sys.argv[3:]
for b in builds:
    fs = sorted(glob.glob(f"{d}/{suite}-{b}-*.json"))
    acc = {}
    for f in fs:
        for x in json.load(open(f))["contention"]:
            row = []
            for rt in ["async-ws", "async-hybrid"]:
                r = x["runtimes"][rt]
                ck = [k for k in r if "ompletion" in k and "99" in k][0]
                row.append((r["wakesP99"]["median"], r[ck]["median"], r["tasksPerSecond"]["median"] / 1e3))
            acc.setdefault(x["workload"], []).append(row)
    print(f"{suite} {b} ({len(fs)} runs)")
    for w, runs in sorted(acc.items()):
        ws = " ".join(f"{r[0][0]:.0f}/{r[0][1]:.2f}/{r[0][2]:.0f}k" for r in runs)
        hy = " ".join(f"{r[1][0]:.0f}/{r[1][1]:.2f}/{r[1][2]:.0f}k" for r in runs)
        gains = [(r[0][0] / r[1][0], r[0][1] / r[1][1], r[1][2] / r[0][2]) for r in runs]
        med = [statistics.median(g[i] for g in gains) for i in range(3)]
        print(f"  {w:17s} WS {ws} | HYBRID {hy} | gains (median) wakes /{med[0]:.2f} completion /{med[1]:.2f} throughput x{med[2]:.2f}")
