#!/bin/bash
# End-of-session rerun: base = 3b78a74 (session start), final = the merged main. Jars alternated,
# benchmark JVMs at nice -20; 2 workers (the machine's 2 cores).
# usage: DIR=... ROUNDS="1 2" JAVA=java TAG=jdk17 run.sh
dir=${DIR:?}; mkdir -p "$dir"; cd "$dir"
java=${JAVA:-java}; tag=${TAG:-jdk17}
echo "start $tag $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> progress.log
for i in ${ROUNDS:-1 2}; do
  for b in base final; do
    nice -n -20 $java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar /tmp/s6-$b.jar bench --workloads=fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,yield-many,ping-pong,chained-spawn,skynet --json --progress=none 2> fj-$tag-$b-$i.err | sed -n '/^{/,$p' > fj$tag-$b-$i.json
    echo "fj $tag $b $i done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> progress.log
    nice -n -20 $java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar /tmp/s6-$b.jar bench async --json --progress=none 2> async-$tag-$b-$i.err | sed -n '/^{/,$p' > async$tag-$b-$i.json
    echo "async $tag $b $i done $(date +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >> progress.log
  done
done
