#!/bin/bash
# Session 24: the actor cell hands its scheduler an Activation object instead of itself (one more
# dereference per activation). The actor suite against Pekko, old jar (7bcbc68) and new jar
# alternated, 3 fresh JVMs each, JDK 17, 2 workers.
cd /work/main
OLD=${OLD:-.dev/h24.jar}
NEW=${NEW:-.dev/s24.jar}
OUT=${OUT:-docs/measurements/2026-11-29-s24/actors-ab}
mkdir -p $OUT
for round in 1 2; do
  for side in old new; do
    JAR=$OLD; [ $side = new ] && JAR=$NEW
    nice -n -20 java -Xms2g -Xmx2g -jar $JAR bench actors --workers 2 --forks 3 --progress=none --json \
        > $OUT/actors-$side-$round.json 2> $OUT/actors-$side-$round.err
  done
done
echo done
