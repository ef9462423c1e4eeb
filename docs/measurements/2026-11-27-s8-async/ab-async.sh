#!/bin/bash
# usage: ab-async.sh OUTDIR FIRST LAST [JAVA]  -- alternates /tmp/s8-${BASE:-base}.jar and /tmp/s8-${NEW:-new}.jar
out=$1; first=$2; last=$3; java=${4:-java}; tag=${TAG:-async}; mkdir -p "$out"
for i in $(seq $first $last); do for b in base new; do
  echo "$(date -u +%H:%M:%S) $tag $b $i $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/load.txt"
  nice -n -20 $java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar /tmp/s8-$( [ $b = base ] && echo ${BASE:-base} || echo ${NEW:-new} ).jar bench async ${ARGS:-} --json --progress=none 2>/dev/null | sed -n '/^{/,$p' > "$out/$tag-$b-$i.json"
done; done
