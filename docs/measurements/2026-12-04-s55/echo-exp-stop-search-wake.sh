#!/bin/bash
# Echo, 2 workers, 64 connections, JDK 25, Netty in each JVM (echo-cpu.py: CPU by thread group, requests, rps medians):
# the experiment jar under variants of the stop-searching wake-up, alternated
JAR=${JAR:-/tmp/exp55.jar}; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for rep in 1 2 3; do
  for v in "1 -Dx=1" "1 -Dspindle.exp.burstK=2" "1 -Dspindle.exp.noStopWake=true" "2 -Dx=1" "2 -Dspindle.exp.noStopWake=true"; do
    set -- $v
    echo "== rep $rep reactors=$1 $2 $(date +%T)"
    ROUNDS=5 python3 /tmp/echo-cpu.py $J25 $JAR spindle-io-workers,netty -Dspindle.bench.echo.reactors=$1 $2 2>&1 | tail -3
  done
done
