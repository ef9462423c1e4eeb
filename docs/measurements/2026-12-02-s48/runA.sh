#!/bin/bash
# alternated base / v4, message rows, heap fixed and pre-touched as ./spindle bench runs
cd /tmp/s48; mkdir -p abA
for rep in 1 2 3 4 5 6 7 8; do for j in base v4; do
  java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar $j.jar bench --workloads=spawn-many-local,ping-pong,yield-many,skynet,chained-spawn --progress none > abA/$j-$rep.txt 2>&1
done; done
echo DONE > abA/DONE
