#!/bin/bash
for i in $(seq 1 12); do
  s=$SECONDS
  java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -Dspindle.bench.echo.reactors=16 -jar /work/main/.dev/spindle.jar bench echo --workers 16 --progress none --rounds 1 --warmup 1 --seconds 0.5 --connections 64 --servers spindle-io-workers > /tmp/r5.log 2>&1 &
  pid=$!
  sleep 9
  if kill -0 $pid 2>/dev/null; then jcmd $pid Thread.print > /tmp/r5-dump-a.txt 2>/dev/null; sleep 3; jcmd $pid Thread.print > /tmp/r5-dump-b.txt 2>/dev/null; fi
  wait $pid; rc=$?
  echo "$i rc=$rc $((SECONDS - s))s $(grep -o 'error: .*' /tmp/r5.log)" >> /tmp/repro5.txt
  if [[ $rc != 0 ]]; then mkdir -p /tmp/r5-fail-$i; cp /tmp/r5-dump-*.txt /tmp/r5.log /tmp/r5-fail-$i/ 2>/dev/null; break; fi
  rm -f /tmp/r5-dump-*.txt
done
echo fin >> /tmp/repro5.txt
