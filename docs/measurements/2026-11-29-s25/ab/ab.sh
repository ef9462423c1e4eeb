#!/bin/bash
# Session 25: the fork/join suite's fork/join and message-passing rows on the build before this
# session's fixes (s24b, ~0ded6f7) and after (wip 4e69965), 2 workers, JDK 17, 3 JVMs per run,
# the two jars alternated twice. Checks that the fixes (Worker.helpJoinSlowly's new parameters,
# the deque's argument checks, WorkSharingPool's blocking check) cost fork/join nothing.
cd /work/main
OUT=docs/measurements/2026-11-29-s25/ab
W=fib,fib-spawn,nqueens,uts,ping-pong,chained-spawn,spawn-many-local
for round in ${ROUNDS:-1 2}; do
  for jar in s24b s25; do
    nice -n -20 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar .dev/$jar.jar bench --workers 2 --forks 3 \
      --workloads=$W --progress=none > $OUT/$jar-round$round.txt 2> $OUT/$jar-round$round.err
  done
done
echo done
