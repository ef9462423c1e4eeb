#!/bin/bash
cd /tmp/s47
mkdir -p ab5 ab5j25
for rep in 1 2 3 4 5 6; do for j in v3 base; do java -jar $j.jar bench --workloads=yield-many,ping-pong,chained-spawn,skynet,spawn-many-local --progress none > ab5/$j-$rep.txt 2>&1; done; done
for rep in 1 2 3 4; do for j in v3 base; do /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar $j.jar bench --workloads=yield-many,ping-pong,chained-spawn,skynet,spawn-many-local --progress none > ab5j25/$j-$rep.txt 2>&1; done; done
echo DONE > ab5/DONE
