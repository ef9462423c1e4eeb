#!/bin/bash
# Echo, 2 workers, 64 connections, JDK 25, Netty in each JVM (echo-cpu.py): the server's per-connection loop of
# combinators (whileTrue/then/map) against the same loop written by hand as one AsyncTask, alternated
JAR=${JAR:-/tmp/exp55b.jar}; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for rep in 1 2 3; do
  for v in "-Dx=1" "-Dspindle.exp.handLoop=true"; do
    echo "== rep $rep reactors=1 $v $(date +%T)"
    ROUNDS=5 python3 /tmp/echo-cpu.py $J25 $JAR spindle-io-workers,netty $v 2>&1 | tail -3
  done
done
