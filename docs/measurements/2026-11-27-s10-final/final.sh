#!/bin/bash
# End-of-session rerun, session 10: jars of 399a218 (base) and of the session's end (new), alternated, 2 workers.
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
for i in 1 2; do for v in base new; do
  nice -n -20 java $H -jar $v.jar bench async --workers 2 --workloads spawn_many,yield_many,ping_pong,chained_spawn --progress none --rounds 10 --warmup 3 > async17-$v-$i.txt 2>&1
done; done
for v in base new; do
  nice -n -20 $J25 $H -jar $v.jar bench async --workers 2 --workloads spawn_many,yield_many,ping_pong,chained_spawn --progress none --rounds 10 --warmup 3 > async25-$v.txt 2>&1
  nice -n -20 $J25 $H -jar $v.jar bench --workers 2 --progress none --rounds 10 --warmup 3 > fj25-$v.txt 2>&1
done
echo fin > fin
