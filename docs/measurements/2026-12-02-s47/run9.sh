#!/bin/bash
cd /tmp/s47; mkdir -p ab9
for rep in 5 6 7 8; do for j in v4 untimed notake base; do java -jar $j.jar bench --workloads=ping-pong,spawn-many-local,chained-spawn --progress none > ab9/$j-$rep.txt 2>&1; done; done
echo DONE > ab9/DONE
