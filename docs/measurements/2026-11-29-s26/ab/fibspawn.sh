#!/bin/bash
# Session 26: fib-spawn (and fib) alone, s25 (33e7033) against s26 (the session's head), 3 JVMs
# per run, alternated four times: the A/B's one row that looked lower after.
cd /work/main
OUT=docs/measurements/2026-11-29-s26/ab
for round in 1 2 3 4; do
  for jar in s25 s26; do
    nice -n -20 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar .dev/$jar.jar bench --workers 2 --forks 3 \
      --workloads=fib,fib-spawn --progress=none > $OUT/fibspawn-$jar-round$round.txt 2> $OUT/fibspawn-$jar-round$round.err
  done
done
echo done
