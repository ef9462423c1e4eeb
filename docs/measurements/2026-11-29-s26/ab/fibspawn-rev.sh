#!/bin/bash
# Session 26: fib and fib-spawn alone, the jars in the reverse order (s26 first, then s25), 3 JVMs
# per run, four times: whether the second jar of each pair is the one that looks slower.
cd /work/main
OUT=docs/measurements/2026-11-29-s26/ab
for round in 1 2 3 4; do
  for jar in s26 s25; do
    nice -n -20 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar .dev/$jar.jar bench --workers 2 --forks 3 \
      --workloads=fib,fib-spawn --progress=none > $OUT/fibspawnrev-$jar-round$round.txt 2> $OUT/fibspawnrev-$jar-round$round.err
  done
done
echo done
