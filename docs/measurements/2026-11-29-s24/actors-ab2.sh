#!/bin/bash
# Session 24: chameneos and fjthrput against Pekko, 3 jars alternated twice, 3 fresh JVMs each, JDK 17,
# 2 workers: old = 7bcbc68 (the cell is the Runnable), s24 = ca5e3ec (an Activation object calling the
# cell's runActivation), s24b = the Activation calling the activation loop directly.
cd /work/main
OUT=docs/measurements/2026-11-29-s24/actors-ab2
for round in 1 2; do
  for side in old s24b s24; do
    JAR=.dev/h24.jar; [ $side = s24 ] && JAR=.dev/s24.jar; [ $side = s24b ] && JAR=.dev/s24b.jar
    nice -n -20 java -Xms2g -Xmx2g -jar $JAR bench actors --workers 2 --forks 3 --progress=none --json \
        --workloads=chameneos,fjthrput > $OUT/$side-$round.json 2> $OUT/$side-$round.err
  done
done
echo done
