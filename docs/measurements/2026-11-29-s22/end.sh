#!/bin/bash
# End-of-session suites, 2 workers, one JVM each: JDK 17 and Temurin 25.
cd /work/main
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=${JAR:-spindle-cli/target/spindle.jar}
OUT=docs/measurements/2026-11-29-s22/end
mkdir -p $OUT
for jv in 17 25; do
  J=java; [ $jv = 25 ] && J=$J25
  nice -n -20 $J -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar $JAR bench --progress=none > $OUT/forkjoin-jdk$jv.txt 2>&1
  nice -n -20 $J -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar $JAR bench async --progress=none --workloads=spawn_many,yield_many,ping_pong,chained_spawn > $OUT/async-jdk$jv.txt 2>&1
done
echo done
