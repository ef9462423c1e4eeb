#!/bin/bash
# The dry-run sequence that failed once: io-workers with 4 selectors, then with 16, each under JFR, QUICK settings.
for i in $(seq 1 ${N:-15}); do
  for r in 4 16; do
    timeout 120 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:StartFlightRecording=filename=/tmp/r2-$i-$r.jfr,settings=profile -Dspindle.bench.echo.reactors=$r -jar ${JAR:-/work/main/.dev/spindle.jar} bench echo --workers 16 --progress none --rounds 1 --warmup 1 --seconds 0.5 --connections 64 --servers spindle-io-workers > /tmp/r2-$i-$r.log 2>&1
    rc=$?; echo "$i r$r rc=$rc $(grep -c 'did not close' /tmp/r2-$i-$r.log)" >> /tmp/repro2.txt
    [[ $rc == 0 ]] && rm -f /tmp/r2-$i-$r.jfr /tmp/r2-$i-$r.log
  done
done
echo fin >> /tmp/repro2.txt
