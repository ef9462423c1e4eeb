#!/bin/bash
# Experiment (not landed): a driven worker's wake-up of a peer waiting in a selector skipped.
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for rep in 1 2 3; do
  for skip in false true; do
    echo "== rep $rep skipSelectWake=$skip $(date +%T)"
    ROUNDS=5 python3 /tmp/echo-cpu.py $J25 /tmp/exp54.jar spindle-io-workers,netty -Dspindle.exp.skipSelectWake=$skip 2>&1 | tail -3
  done
done
