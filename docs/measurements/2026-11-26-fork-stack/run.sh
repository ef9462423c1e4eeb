#!/bin/bash
# Fork stack (7dc8598) against the fork slot before it (c4d7978).
# CPU per task: class directories built from spindle-core's sources of each commit
# (javac -d /tmp/exp/cls-<v> $(find src -name '*.java'), no module-info), ../2026-11-26-fork-slot/PerTask.java
# compiled into /tmp/pt against either; wall clock: the two CLI jars, alternated.
cd "$(dirname "$0")"
JDK25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
cpu() { # java label workers rounds
  for r in $(seq $4); do for v in base stack; do
    $1 -cp /tmp/exp/cls-$v:/tmp/pt PerTask $3 31 7 | awk -v v=$v -v l=$2 -v w=$3 '/compute|spawn|fjp/ && /median/ {print l, w, v, $1, $5}'
  done; done
}
{ cpu java jdk17 1 4; cpu java jdk17 2 4; cpu $JDK25 jdk25 1 2; cpu $JDK25 jdk25 2 2; } > cpu-per-task.txt
for i in 1 2 3; do
  for b in base stack; do
    java -jar /tmp/s4-$b.jar bench --workloads=fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,yield-many,ping-pong,chained-spawn,skynet --json --progress=none > wallclock/fj-$b-$i.json 2> wallclock/fj-$b-$i.err
    echo "fj $b $i done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> wallclock/progress.log
  done
done
