#!/bin/bash
# Session 23 baseline: the fork/join suite and the four Tokio async workloads, 2 workers,
# each in 5 fresh JVMs (--forks 5), on JDK 17 and Temurin 25.
cd /work/main
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=${JAR:-spindle-cli/target/spindle.jar}
OUT=${OUT:-docs/measurements/2026-11-29-s23/forks}
mkdir -p $OUT
for jv in 17 25; do
  J=java; [ $jv = 25 ] && J=$J25
  nice -n -20 $J -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar $JAR bench --workers 2 --forks 5 --progress=none --json > $OUT/forkjoin-jdk$jv.json 2> $OUT/forkjoin-jdk$jv.err
  nice -n -20 $J -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar $JAR bench async --workers 2 --forks 5 --progress=none --json --workloads=spawn_many,yield_many,ping_pong,chained_spawn > $OUT/async-jdk$jv.json 2> $OUT/async-jdk$jv.err
done
echo done
