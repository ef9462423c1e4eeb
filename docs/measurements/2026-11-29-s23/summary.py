#!/usr/bin/env python3
"""Prints the summary of a `--forks --json` file as a table: workload, median, min-max, each JVM."""
import json, sys
for path in sys.argv[1:]:
    d = json.load(open(path))
    print(f"== {path} ({d['forks']} JVMs, Java {d['jvms'][0]['java']})")
    field = None
    for s in d['summary']:
        if s['field'] != field:
            field = s['field']
            print(f"  [{s['section']}.{field}]")
        per = ' '.join('   -' if v is None else f"{v:4.2f}" for v in s['perJvm'])
        print(f"  {s['workload']:<18} {s['median']:5.2f}  {s['min']:4.2f}-{s['max']:4.2f}   {per}")
