#!/usr/bin/env python3
# usage: summary.py DIR build...   ratio (Spindle / FJP best mode) per workload, runs and median
import json, glob, statistics, sys
d, builds = sys.argv[1], sys.argv[2:]
rows = {}
for b in builds:
    for f in sorted(glob.glob(f"{d}/fj-{b}-*.json")):
        try:
            j = json.load(open(f))
        except Exception:
            continue
        for r in j["results"]:
            rows.setdefault(r["workload"], {}).setdefault(b, []).append(r["ratio"])
for w, per in rows.items():
    cells = []
    for b in builds:
        v = per.get(b, [])
        cells.append(f"{b}: {' '.join(f'{x:.2f}' for x in v)} (median {statistics.median(v):.2f})" if v else f"{b}: -")
    print(f"{w:18s} " + " | ".join(cells))
