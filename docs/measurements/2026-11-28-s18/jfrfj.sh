#!/bin/bash
out=$1; n=$2; shift 2
for i in $(seq 1 $n); do for j in "$@"; do
  rm -f /tmp/slow/fj.jfr
  java -Xms2g -Xmx2g -XX:StartFlightRecording=filename=/tmp/slow/fj.jfr,settings=profile -jar /tmp/jars/$j.jar bench --progress=none > /tmp/slow/fj-$j-$i.txt 2>&1
  y=$(grep -E "^(fib |yield-many|ping-pong|skynet)" /tmp/slow/fj-$j-$i.txt | awk '{printf "%s %s %s | ", $1, $2, $(NF-4)}')
  echo "$j $i: $y $(python3 /tmp/interpfj.py /tmp/slow/fj.jfr)" >> $out
done; done
echo DONE >> $out
