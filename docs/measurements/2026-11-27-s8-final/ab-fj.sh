#!/bin/bash
# usage: BASE=.. NEW=.. ab-fj.sh OUTDIR FIRST LAST [JAVA]  -- the fork/join suite, jars alternated
out=$1; first=$2; last=$3; java=${4:-java}; tag=${TAG:-fj}; mkdir -p "$out"
for i in $(seq $first $last); do for b in base new; do
  jar=/tmp/s8-$( [ $b = base ] && echo ${BASE:-base} || echo ${NEW:-new} ).jar
  echo "$(date -u +%H:%M:%S) $tag $b $i $jar $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/load.txt"
  nice -n -20 $java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar $jar bench --json --progress=none 2>/dev/null | sed -n '/^{/,$p' > "$out/$tag-$b-$i.json"
done; done
