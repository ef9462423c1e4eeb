#!/bin/bash
# Session 27: fib(27) per-task cost, Spindle (ComputeTask) vs FJP (RecursiveTask), 1 and 2 workers,
# one JVM per line (FW.java: 12 s, per-second wall and process-CPU ns per task); then the spare
# workers' part (RH2.java: default pool, a pool without spares and FJP alternated in one JVM).
# javac -cp spindle-core/target/classes RH2.java FW.java (RH2 ran with a copy of FW.SF, since folded)
CP=/work/main/spindle-core/target/classes:$(dirname "$0")
for J in java /usr/lib/jvm/temurin-25-jdk-amd64/bin/java; do
  $J -version 2>&1 | head -1
  for m in "ws 1" "fjp 1" "ws 2" "fjp 2"; do
    nice -n -20 $J -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp $CP FW $m 27 12 | tail -4
  done
  nice -n -20 $J -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp $CP RH2 27 1 11 | tail -5
done
