#!/bin/bash
# End-of-session, session 9: session start 758f5c9 (base, /tmp/s8-s9start.jar) against 5293bb0
# (new, /tmp/s8-s9final.jar), alternated; then echo on the final jar. Run from this directory.
set -u
out=$(pwd); ab=../2026-11-27-s8-async/ab-async.sh
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
BASE=s9start NEW=s9final bash $ab $out 1 3
BASE=s9start NEW=s9final TAG=async25 bash $ab $out 1 2 $J25
for j in java $J25; do for c in 64 256; do
  tag=$( [ $j = java ] && echo 17 || echo 25 )
  echo "$(date -u +%H:%M:%S) echo $tag $c $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/load.txt
  nice -n -20 $j -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar /tmp/s8-s9final.jar bench echo --connections=$c --rounds=5 --json --progress=none 2>/dev/null | sed -n '/^{/,$p' > $out/echo-jdk$tag-$c.json
done; done
echo "$(date -u +%H:%M:%S) done" >> $out/load.txt
