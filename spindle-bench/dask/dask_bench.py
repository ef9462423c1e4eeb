#!/usr/bin/python3
# Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
"""The Dask side of `spindle bench cluster`: the same four graph shapes on Dask distributed.

Runs each shape on Dask's LocalCluster, in process (processes=False, 4 workers x 2 threads by
default) and/or with worker processes (3 x 2 by default), checks every result, and prints one
JSON object in the shape `spindle bench cluster --json` prints, so that ratios.py can divide
one by the other. Needs Debian's python3-distributed (Dask 2022.12) and /usr/bin/python3.

Shapes (sizes as in ClusterWorkloads.java; keys are "<kind>-<round>-<i>", so both schedulers
learn durations per kind):
  tiny     N independent tasks inc(i), no inputs; time until every result is at the client
  tree     a binary tree summing L leaves (2L-1 tiny tasks); time until the root is at the client
  skewed   N tasks sleeping D ms, each on a 100-byte value scattered to worker 0 and restricted
           loosely to worker 0 (workers=[w0], allow_other_workers=True): stealing must spread them
  shuffle  P split tasks each making P buckets of B bytes, P*P getitem tasks, P combine tasks each
           summing the bytes of its P buckets (an all-to-all)

Bytes moved, as Dask counts them:
  dataBytes            the values workers fetched from other workers: the "total" bytes (as
                       dask.sizeof measures them) of every entry of each Worker.transfer_incoming_log,
                       summed with client.run before and after each run (values gathered by the
                       client are not in it, as they are not in Spindle's bytesTransferred)
  tcpBytesSent         worker processes only: the growth of the kernel's bytes_sent (tcp_info, as
                       `ss -tinp` shows it) summed over the TCP sockets of the worker processes:
                       every byte they sent (data, control messages, heartbeats); connections
                       opened and closed within one run are missed (Linux, needs ss; null
                       without it)
Steals: the "confirm" events in the scheduler's "stealing" event log (client.run_on_scheduler).
"""

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

import dask
import distributed
from distributed import Client, LocalCluster, wait

SIZES = {
    # shape: (quick size, tiny size for a smoke test)
    "tiny": ({"tasks": 5000}, {"tasks": 50}),
    "tree": ({"leaves": 4096}, {"leaves": 32}),
    "skewed": ({"tasks": 160, "millis": 40}, {"tasks": 8, "millis": 5}),
    "shuffle": ({"partitions": 32, "bucketBytes": 4096}, {"partitions": 4, "bucketBytes": 64}),
}
SHAPES = list(SIZES)
CONFIGS = {"inprocess": (False, 4), "processes": (True, 3)}


def inc(i):
    return i + 1


def add(a, b):
    return a + b


def slow(seed, i, millis):
    time.sleep(millis / 1000)
    return seed + i


def split(i, partitions, nbytes):
    return [bytes([(i * 31 + j) % 256]) * nbytes for j in range(partitions)]


def getitem(parts, j):
    return parts[j]


def combine(*buckets):
    return sum(sum(b) for b in buckets)


class WrongResult(Exception):
    pass


def expect(what, got, want):
    if got != want:
        raise WrongResult(f"{what}: got {got!r}, expected {want!r}")


def tiny(client, tag, size, workers):
    n = size["tasks"]
    dsk = {f"inc-{tag}-{i}": (inc, i) for i in range(n)}
    keys = list(dsk)

    def run():
        futures = client.get(dsk, keys, sync=False)
        results = client.gather(futures)
        expect("sum of inc(i)", sum(results), n * (n + 1) // 2)

    return run, n, None


def tree(client, tag, size, workers):
    leaves = size["leaves"]
    dsk = {}
    level = []
    for i in range(leaves):
        key = f"leaf-{tag}-{i}"
        dsk[key] = (inc, i - 1)          # leaf i holds the value i, computed by a task
        level.append(key)
    n = 0
    while len(level) > 1:
        nxt = []
        for i in range(0, len(level) - 1, 2):
            key = f"add-{tag}-{n}"
            n += 1
            dsk[key] = (add, level[i], level[i + 1])
            nxt.append(key)
        if len(level) % 2 == 1:
            nxt.append(level[-1])
        level = nxt
    root = level[0]

    def run():
        future = client.get(dsk, root, sync=False)
        expect("tree sum", future.result(), leaves * (leaves - 1) // 2)

    return run, len(dsk), None


def skewed(client, tag, size, workers):
    n, millis = size["tasks"], size["millis"]
    w0 = workers[0]
    seed = client.scatter(100, workers=[w0], hash=False)
    wait(seed)
    bound = max(n * millis / 1000 / sum(workers_threads(client).values()), millis / 1000)

    def run():
        futures = [client.submit(slow, seed, i, millis, key=f"slow-{tag}-{i}", workers=[w0],
                                 allow_other_workers=True) for i in range(n)]
        results = client.gather(futures)
        expect("sum of seed + i", sum(results), 100 * n + n * (n - 1) // 2)

    return run, n, bound


def shuffle(client, tag, size, workers):
    p, nbytes = size["partitions"], size["bucketBytes"]
    dsk = {}
    for i in range(p):
        dsk[f"split-{tag}-{i}"] = (split, i, p, nbytes)
    for i in range(p):
        for j in range(p):
            dsk[f"getitem-{tag}-{i}-{j}"] = (getitem, f"split-{tag}-{i}", j)
    keys = []
    for j in range(p):
        key = f"combine-{tag}-{j}"
        dsk[key] = (combine,) + tuple(f"getitem-{tag}-{i}-{j}" for i in range(p))
        keys.append(key)

    def run():
        futures = client.get(dsk, keys, sync=False)
        results = client.gather(futures)
        for j, got in enumerate(results):
            expect(f"combine {j}", got, nbytes * sum((i * 31 + j) % 256 for i in range(p)))

    return run, len(dsk), None


def workers_threads(client):
    return {w: info["nthreads"] for w, info in client.scheduler_info()["workers"].items()}


def transfer_bytes(client):
    def received(dask_worker):
        return sum(entry["total"] for entry in dask_worker.transfer_incoming_log)
    return sum(client.run(received).values())


def steals_confirmed(client):
    def count(dask_scheduler):
        return sum(1 for _, msg in dask_scheduler.get_events("stealing") if msg[0] == "confirm")
    return client.run_on_scheduler(count)


def tcp_bytes_sent(pids):
    """bytes_sent of every established TCP socket that one of pids holds, from `ss -tinpH`."""
    if not pids:
        return 0
    try:
        lines = subprocess.run(["ss", "-tinpH", "state", "established"], capture_output=True, text=True,
                               check=True).stdout.splitlines()
    except FileNotFoundError:
        return None                                     # no ss here: no figure rather than a failed run
    total, owned = 0, False
    for line in lines:
        if not line[:1].isspace():                      # a socket; its tcp_info follows
            owned = any(int(pid) in pids for pid in re.findall(r"pid=(\d+)", line))
        elif owned:
            m = re.search(r"\bbytes_sent:(\d+)", line)
            total += int(m.group(1)) if m else 0
    return total


def stats(values):
    v = sorted(values)
    q = statistics.quantiles(v, n=4, method="inclusive") if len(v) > 1 else [v[0]] * 3
    return {"n": len(v), "median": statistics.median(v), "q1": q[0], "q3": q[2], "min": v[0], "max": v[-1]}


def run_config(config, args, sizes, progress):
    processes, default_workers = CONFIGS[config]
    n_workers = args.inprocess_workers if config == "inprocess" else args.process_workers
    cluster = LocalCluster(n_workers=n_workers, threads_per_worker=args.threads, processes=processes,
                           dashboard_address=None)
    rows = []
    try:
        with Client(cluster) as client:
            client.wait_for_workers(n_workers)
            workers = sorted(workers_threads(client))
            pids = set(client.run(os.getpid).values()) if processes else set()
            samples = {s: [] for s in args.shapes}
            data, written, steals, tasks, bounds = {}, {}, {}, {}, {}
            for rnd in range(args.warmup + args.rounds):
                warm = rnd < args.warmup
                progress(f"{config}: {'warm-up round' if warm else 'round'} "
                         f"{rnd + 1 if warm else rnd - args.warmup + 1}/{args.warmup if warm else args.rounds}")
                for shape in args.shapes:
                    run, ntasks, bound = globals()[shape](client, f"r{rnd}", sizes[shape], workers)
                    b0, w0, s0 = transfer_bytes(client), tcp_bytes_sent(pids), steals_confirmed(client)
                    t0 = time.perf_counter()
                    run()
                    seconds = time.perf_counter() - t0
                    b1, w1, s1 = transfer_bytes(client), tcp_bytes_sent(pids), steals_confirmed(client)
                    if not warm:
                        samples[shape].append(seconds)
                        data.setdefault(shape, []).append(b1 - b0)
                        written.setdefault(shape, []).append(None if w0 is None or w1 is None else w1 - w0)
                        steals.setdefault(shape, []).append(s1 - s0)
                    tasks[shape], bounds[shape] = ntasks, bound
            for shape in args.shapes:
                st = stats(samples[shape])
                bound = bounds[shape]
                rows.append({
                    "config": config, "workers": n_workers, "threads": args.threads, "shape": shape,
                    "size": sizes[shape], "tasks": tasks[shape], "seconds": st,
                    "tasksPerSecond": tasks[shape] / st["median"],
                    "boundSeconds": bound, "overBound": None if bound is None else st["median"] / bound,
                    "dataBytes": statistics.median(data[shape]),
                    "tcpBytesSent": statistics.median(written[shape])
                    if processes and None not in written[shape] else None,
                    "steals": statistics.median(steals[shape]),
                })
    finally:
        cluster.close()
    return rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--configs", default="inprocess,processes", help="inprocess, processes or both")
    p.add_argument("--shapes", default=",".join(SHAPES), help="comma-separated: " + ", ".join(SHAPES))
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--warmup", type=int, default=1)
    p.add_argument("--threads", type=int, default=2, help="threads per worker")
    p.add_argument("--inprocess-workers", type=int, default=4)
    p.add_argument("--process-workers", type=int, default=3)
    p.add_argument("--balance-ms", type=int, default=20, help="work-stealing interval (Spindle's balance interval)")
    p.add_argument("--size", choices=["quick", "tiny"], default="quick")
    p.add_argument("--progress", action="store_true", help="one line per round on stderr")
    args = p.parse_args()
    args.configs = [c.strip() for c in args.configs.split(",")]
    args.shapes = [s.strip() for s in args.shapes.split(",")]
    for c in args.configs:
        if c not in CONFIGS:
            p.error(f"unknown config {c!r}; valid: {', '.join(CONFIGS)}")
    for s in args.shapes:
        if s not in SIZES:
            p.error(f"unknown shape {s!r}; valid: {', '.join(SHAPES)}")
    for name in ("rounds", "warmup", "threads", "inprocess_workers", "process_workers", "balance_ms"):
        if getattr(args, name) < (0 if name == "warmup" else 1):
            p.error(f"--{name.replace('_', '-')} is out of range: {getattr(args, name)}")
    sizes = {s: SIZES[s][0 if args.size == "quick" else 1] for s in SIZES}
    t0 = time.time()

    def progress(msg):
        if args.progress:
            print(f"[{time.time() - t0:5.0f}s] dask {msg}", file=sys.stderr, flush=True)

    dask.config.set({"distributed.scheduler.work-stealing-interval": f"{args.balance_ms}ms",
                     "distributed.logging.distributed": "error"})
    rows = []
    for config in args.configs:
        rows.extend(run_config(config, args, sizes, progress))
    json.dump({
        "suite": "cluster", "system": "dask", "version": distributed.__version__,
        "python": platform.python_version(), "cores": os.cpu_count(),
        "rounds": args.rounds, "warmupRounds": args.warmup, "balanceMillis": args.balance_ms,
        "elapsedMillis": round((time.time() - t0) * 1000), "results": rows,
    }, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
