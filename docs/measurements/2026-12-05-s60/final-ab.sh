#!/bin/bash
cd /work/main
W=fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,yield-many,ping-pong,chained-spawn,skynet
date
timeout 900 spindle-bench/scripts/ab.sh -r 4 -o /tmp/prof/fin-young /tmp/prof/base.jar /tmp/prof/head.jar --workers 2 --workloads=$W --progress=none 2>&1 | tail -13
date
JVM_OPTS="-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:MaxTenuringThreshold=0" timeout 900 spindle-bench/scripts/ab.sh -r 4 -o /tmp/prof/fin-tenured /tmp/prof/base.jar /tmp/prof/head.jar --workers 2 --workloads=$W --progress=none 2>&1 | tail -13
date
PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH JVM_OPTS="-Xms2g -Xmx2g -XX:+AlwaysPreTouch -XX:MaxTenuringThreshold=0" timeout 900 spindle-bench/scripts/ab.sh -r 3 -o /tmp/prof/fin-tenured25 /tmp/prof/base.jar /tmp/prof/head.jar --workers 2 --workloads=$W --progress=none 2>&1 | tail -13
date
