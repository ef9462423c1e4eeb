#!/bin/bash
cd /tmp/s36
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
echo "$(date +%T) ab async jdk17 head vs new load $(cut -d' ' -f1 /proc/loadavg)"
/work/main/spindle-bench/scripts/ab.sh -r 4 -s async -o /tmp/s36/ab-async17 /tmp/s36/head.jar /tmp/s36/new.jar --workers 2 --workloads=spawn_many,ping_pong,chained_spawn,yield_many --progress=none > ab-async17.log 2>&1
echo "$(date +%T) ab async jdk25 head vs new load $(cut -d' ' -f1 /proc/loadavg)"
JAVA=$J25 /work/main/spindle-bench/scripts/ab.sh -r 4 -s async -o /tmp/s36/ab-async25 /tmp/s36/head.jar /tmp/s36/new.jar --workers 2 --workloads=spawn_many,ping_pong,chained_spawn,yield_many --progress=none > ab-async25.log 2>&1
echo "$(date +%T) done"
