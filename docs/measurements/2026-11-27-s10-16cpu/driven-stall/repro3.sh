#!/bin/bash
# The same as repro2 without JFR: io-workers, 16 workers, 16 driven selectors, 2 cores.
for i in $(seq 1 ${N:-10}); do
  timeout 120 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -Dspindle.bench.echo.reactors=16 -jar ${JAR:-/work/main/.dev/spindle.jar} bench echo --workers 16 --progress none --rounds 1 --warmup 1 --seconds 0.5 --connections 64 --servers spindle-io-workers > /tmp/r3-$i.log 2>&1
  echo "$i rc=$? $(grep -o 'error: .*' /tmp/r3-$i.log)" >> /tmp/repro3.txt
done
echo fin >> /tmp/repro3.txt
