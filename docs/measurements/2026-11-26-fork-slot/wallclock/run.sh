#!/bin/bash
# base.jar = build of f388bef (before the fork slot), slot.jar = build of 3c63491+ (fork slot, JFR events, stats counters)
cd "$(dirname "$0")"
for i in 1 2 3; do
  for b in base slot; do
    java -jar $b.jar bench --workloads=fib,fib-cutoff,nqueens,uts,spawn-many-local,yield-many,ping-pong,chained-spawn,skynet --json --progress=none > fj-$b-$i.json 2> fj-$b-$i.err
    echo "fj $b $i done $(date +%T)" >> progress.log
  done
done
for i in 1 2 3; do
  java -jar slot.jar bench --workloads=fib,fib-spawn --json --progress=none > fibspawn-$i.json 2> fibspawn-$i.err
  echo "fibspawn $i done $(date +%T)" >> progress.log
done
