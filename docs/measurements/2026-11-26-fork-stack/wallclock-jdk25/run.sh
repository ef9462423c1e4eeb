#!/bin/bash
# JDK 25: base (c4d7978, fork slot) vs stack (7dc8598, fork stack), alternated twice.
cd "$(dirname "$0")"
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for i in 1 2; do for b in base stack; do
  $J -jar /tmp/s4-$b.jar bench --workloads=fib,fib-spawn,fib-cutoff,ping-pong,chained-spawn,skynet,yield-many,spawn-many-local --json --progress=none > fj-$b-$i.json 2> fj-$b-$i.err
  echo "fj $b $i done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> progress.log
done; done
