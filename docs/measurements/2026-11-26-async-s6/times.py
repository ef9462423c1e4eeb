#!/usr/bin/env python3
"""Median over runs of each runtime's per-run median time (ms) for the four Tokio workloads,
and of the per-run ratio best async / best CompletableFuture.  usage: times.py DIR"""
import glob, json, statistics, sys
d = sys.argv[1]
W = ["spawn_many", "yield_many", "ping_pong", "chained_spawn"]
R = ["async-ws", "async-hybrid", "cf-fjp", "cf-fjp-async"]
first = json.load(open(sorted(glob.glob(f"{d}/async-*.json"))[0]))
R = [k for k in R if k in first["results"][0]["runtimes"]]   # the runtimes the runs had
print("| workload | build | runs | " + " | ".join(R) + " | ratio |")
print("| --- | --- | --- |" + " --- |" * (len(R) + 1))
for w in W:
    for b in ["base", "new"]:
        runs = [json.load(open(f)) for f in sorted(glob.glob(f"{d}/async-{b}-*.json"))]
        rs = [next(x for x in r["results"] if x["workload"] == w) for r in runs]
        med = {k: statistics.median(x["runtimes"][k]["median"] for x in rs) for k in R}
        ratio = statistics.median(x["ratio"] for x in rs)
        print(f"| {w} | {b} | {len(rs)} | " + " | ".join(f"{med[k]:.3g}" for k in R) + f" | {ratio:.2f} |")
