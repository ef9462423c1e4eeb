#!/bin/bash
cd /tmp/s47; mkdir -p ab7 lat7
for rep in 1 2 3 4 5; do for j in v4 base v3; do java -jar $j.jar bench --workloads=yield-many,ping-pong,chained-spawn,skynet,spawn-many-local --progress none > ab7/$j-$rep.txt 2>&1; done; done
for rep in 1 2 3 4 5; do for j in v4 base; do java -jar $j.jar bench --workloads=latency --progress none > lat7/$j-$rep.txt 2>&1; done; done
echo DONE > ab7/DONE
