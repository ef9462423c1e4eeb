#!/usr/bin/env python3
"""Prints the --forks summary of `bench echo --json` files: per server, median and min-max over
the JVMs of x netty, x vthreads and p99 / netty's p99, and the median requests/s."""
import json, statistics, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    first = d["jvms"][0]
    print(f"{path}: {d['forks']} JVMs, {first['workers']} workers, {first['connections']} connections, Java {first['java']}")
    rows = {}
    for s in d["summary"]:
        rows.setdefault(s["workload"], {})[s["field"]] = s
    rps = {}
    for j in d["jvms"]:
        for srv in j["servers"]:
            m = srv["requestsPerSecond"]["median"]
            if m is not None:
                rps.setdefault(srv["id"], []).append(m)
    print(f"  {'server':20s} {'req/s':>9s} {'x netty':>16s} {'x vthreads':>16s} {'p99/netty':>16s}")
    for name, f in rows.items():
        def cell(k):
            s = f.get(k)
            return f"{s['median']:.2f} ({s['min']:.2f}-{s['max']:.2f})" if s else "-"
        r = statistics.median(rps[name]) if name in rps else float('nan')
        print(f"  {name:20s} {r:9.0f} {cell('xNetty'):>16s} {cell('xVirtualThreads'):>16s} {cell('p99VsNetty'):>16s}")
    print()
