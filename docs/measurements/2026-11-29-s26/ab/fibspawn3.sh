#!/bin/bash
# Session 26: fib and fib-spawn alone on s25 (33e7033), s26 (the session's head) and s26nosteal
# (the head with b3bd3b2, the batch steal's single size read, reverted), 3 JVMs per run, the
# three jars alternated four times.
cd /work/main
OUT=docs/measurements/2026-11-29-s26/ab
for round in 1 2 3 4; do
  for jar in s25 s26 s26nosteal; do
    nice -n -20 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar .dev/$jar.jar bench --workers 2 --forks 3 \
      --workloads=fib,fib-spawn --progress=none > $OUT/fibspawn3-$jar-round$round.txt 2> $OUT/fibspawn3-$jar-round$round.err
  done
done
echo done
