#!/bin/bash
cd /tmp/s47; mkdir -p ab6
for rep in 1 2 3 4 5; do for j in base v3 nochk; do java -jar $j.jar bench --workloads=yield-many,ping-pong,chained-spawn,skynet,spawn-many-local --progress none > ab6/$j-$rep.txt 2>&1; done; done
echo DONE > ab6/DONE
