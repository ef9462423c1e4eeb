#!/bin/bash
# Session 28: the session's first build (fe9f947) against its head, fork/join suite, JDK 17 then 25.
cd /work/main
O=docs/measurements/2026-11-29-s28/ab
mkdir -p $O
W=fib,fib-spawn,uts,nqueens,ping-pong,yield-many,chained-spawn,skynet,spawn-many-local
spindle-bench/scripts/ab.sh -r 4 -o $O/j17 .dev/s28-base.jar .dev/s28-head.jar --workers 2 --workloads=$W --progress=none > $O/j17-table.txt 2>&1
JAVA=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java spindle-bench/scripts/ab.sh -r 4 -o $O/j25 .dev/s28-base.jar .dev/s28-head.jar --workers 2 --workloads=$W --progress=none > $O/j25-table.txt 2>&1
