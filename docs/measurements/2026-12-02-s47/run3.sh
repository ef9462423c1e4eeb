#!/bin/bash
cd /tmp/s47
mkdir -p lat3 ab3
for rep in 1 2 3 4 5 6; do for j in base v3 final; do java -jar $j.jar bench --workloads=latency --progress none > lat3/$j-$rep.txt 2>&1; done; done
for rep in 1 2 3 4 5 6; do for j in base v3; do java -jar $j.jar bench --workloads=yield-many,ping-pong,chained-spawn,skynet,spawn-many-local --progress none > ab3/$j-$rep.txt 2>&1; done; done
echo DONE > ab3/DONE
