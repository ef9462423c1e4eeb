#!/bin/bash
# Alternates two fat jars on the fork/join suite (files fj-NAME-i.json for compare-runs.py DIR fj A B):
# ./ab.sh OUTDIR NAME_A JAR_A NAME_B JAR_B ROUNDS [JAVA]
out=$1; a=$2; ja=$3; b=$4; jb=$5; n=$6; java=${7:-java}
mkdir -p "$out"
for i in $(seq 1 "$n"); do
  for pair in "$a:$ja" "$b:$jb"; do
    name=${pair%%:*}; jar=${pair#*:}
    echo "$(date -u +%H:%M:%S) $name run $i $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/load.txt"
    nice -n -20 $java -jar "$jar" bench --workloads=fib,fib-spawn,nqueens,uts,spawn-many-local,spawn-many-remote,yield-many,ping-pong,chained-spawn,skynet --json --progress=none 2>/dev/null | sed -n '/^{/,$p' > "$out/fj-$name-$i.json"
  done
done
