#!/bin/bash
out=$1; n=$2; shift 2
for i in $(seq 1 $n); do for j in "$@"; do
  rm -f /tmp/slow/ab.jfr
  y=$(java -Xms2g -Xmx2g -XX:StartFlightRecording=filename=/tmp/slow/ab.jfr,settings=profile -jar /tmp/jars/$j.jar bench async --progress=none --workloads=spawn_many,yield_many,ping_pong,chained_spawn 2>&1 | grep -E "^yield_many" | awk '{print "yield ws=" $2 " hy=" $5}')
  echo "$j $i: $y $(python3 /tmp/interp.py /tmp/slow/ab.jfr)" >> $out
done; done
echo DONE >> $out
