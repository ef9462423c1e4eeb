#!/bin/bash
# Quiet-machine rerun at the session's end: base = c4d7978 (session start), final = 69dacbe
# (fork stack, async one-allocation + LIFO slot, ...). Jars alternated; JDK 17.
cd "$(dirname "$0")"
for i in ${ROUNDS:-1 2}; do
  for b in base final; do
    java -jar /tmp/s4-$b.jar bench --workloads=fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,yield-many,ping-pong,chained-spawn,skynet --json --progress=none > fj-$b-$i.json 2> fj-$b-$i.err
    echo "fj $b $i done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> progress.log
    java -jar /tmp/s4-$b.jar bench async --json --progress=none > async-$b-$i.json 2> async-$b-$i.err
    echo "async $b $i done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> progress.log
  done
done
