#!/bin/bash
# io-workers, 16 workers, 16 and 4 driven selectors, 2 cores: the stall of session 10, and fewer drivers than workers.
for i in $(seq 1 ${N:-12}); do
  for r in 16 4; do
    timeout 120 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -Dspindle.bench.echo.reactors=$r -jar ${JAR} bench echo --workers 16 --progress none --rounds 1 --warmup 1 --seconds 0.5 --connections 64 --servers spindle-io-workers > /tmp/stall/r-$i-$r.log 2>&1
    echo "$i r$r rc=$? $(grep -o 'error: .*' /tmp/stall/r-$i-$r.log) $(grep '^spindle-io-workers  ' /tmp/stall/r-$i-$r.log | awk '{print $2}')" >> /tmp/stall/results.txt
  done
done
echo fin >> /tmp/stall/results.txt
