#!/bin/bash
# End-of-session: session start 42dfc29 (base) against e218dc6 (admit), alternated; then echo on the final jar.
cd /tmp/s8
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
BASE=base NEW=admit ./ab-async.sh /tmp/s8/final 1 3
BASE=base NEW=admit TAG=async25 ./ab-async.sh /tmp/s8/final 1 2 $J25
BASE=base NEW=admit ./ab-fj.sh /tmp/s8/final 1 3
for j in java $J25; do for c in 64 256; do
  echo "$(date -u +%H:%M:%S) echo $j $c $(cut -d' ' -f1-3 /proc/loadavg)" >> /tmp/s8/final/load.txt
  nice -n -20 $j -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar /tmp/s8-admit.jar bench echo --connections=$c --rounds=5 --json --progress=none 2>/dev/null | sed -n '/^{/,$p' > /tmp/s8/final/echo-$(basename $(dirname $(dirname $(readlink -f $(which $j 2>/dev/null || echo $j)))))-$c.json
done; done
echo "$(date -u +%H:%M:%S) done" >> /tmp/s8/final/load.txt
