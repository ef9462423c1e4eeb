#!/bin/bash
# heap fixed and pre-touched: JDK 25 message rows (base / v4, 4 each), then the latency probe on JDK 17 (base / v4, 5 each)
cd /tmp/s48; mkdir -p abC25 latC
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
for rep in 1 2 3 4; do for j in base v4; do
  $J25 $H -jar $j.jar bench --workloads=spawn-many-local,ping-pong,yield-many,skynet,chained-spawn --progress none > abC25/$j-$rep.txt 2>&1
done; done
for rep in 1 2 3 4 5; do for j in base v4; do
  java $H -jar $j.jar bench --workloads=latency --progress none > latC/$j-$rep.txt 2>&1
done; done
echo DONE > latC/DONE
