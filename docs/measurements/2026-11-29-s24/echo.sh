#!/bin/bash
# Session 24: the echo servers on 2 workers, 64 and 256 connections, each in 5 fresh JVMs
# (--forks 5), on JDK 17 and Temurin 25 (virtual threads: JDK 25 only). Shorter rounds than the
# defaults (7 measured rounds of 1 s per server after 2 warm-up rounds) so that 5 JVMs fit.
cd /work/main
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
JAR=${JAR:-spindle-cli/target/spindle.jar}
OUT=${OUT:-docs/measurements/2026-11-29-s24/echo}
mkdir -p $OUT
for jv in 17 25; do
  J=java; [ $jv = 25 ] && J=$J25
  for c in 64 256; do
    nice -n -20 $J -Xms1g -Xmx1g -jar $JAR bench echo --workers 2 --connections $c --rounds 7 --warmup 2 \
        --seconds 1 --forks 5 --progress=none --json > $OUT/echo-jdk$jv-c$c.json 2> $OUT/echo-jdk$jv-c$c.err
  done
done
echo done
