#!/bin/bash
# End-of-session rerun: base = 359089e (session start), final = the merged main. Jars alternated,
# benchmark JVMs at nice -20 (other processes yield to them); JDK 17, 2 workers (the machine's
# 2 cores). usage: ROUNDS="1 2 3" run.sh
cd "$(dirname "$0")"
echo "start $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> progress.log
for i in ${ROUNDS:-1 2 3}; do
  for b in base final; do
    nice -n -20 java -jar /tmp/s5-$b.jar bench --workloads=fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,yield-many,ping-pong,chained-spawn,skynet --json --progress=none 2> fj-$b-$i.err | sed -n '/^{/,$p' > fj-$b-$i.json
    echo "fj $b $i done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> progress.log
    nice -n -20 java -jar /tmp/s5-$b.jar bench async --json --progress=none 2> async-$b-$i.err | sed -n '/^{/,$p' > async-$b-$i.json
    echo "async $b $i done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> progress.log
  done
done
