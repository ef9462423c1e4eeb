#!/bin/bash
# Session 26: the build before this session (s25, 33e7033) against the session's head (s26),
# alternated, JDK 17, 2 workers. The session changed no fork/join path but a batch steal's count
# (read once), and made a driven reactor's select and close share a lock: so the fork/join rows
# (3 JVMs per run) and the echo server at 256 connections (3 JVMs per run, short rounds).
# Rounds 3 and 4 (fork/join rows only): ROUNDS="3 4" FJ_ONLY=1.
cd /work/main
OUT=docs/measurements/2026-11-29-s26/ab
W=fib,fib-spawn,nqueens,uts,ping-pong,chained-spawn,spawn-many-local
for round in ${ROUNDS:-1 2}; do
  for jar in s25 s26; do
    nice -n -20 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar .dev/$jar.jar bench --workers 2 --forks 3 \
      --workloads=$W --progress=none > $OUT/fj-$jar-round$round.txt 2> $OUT/fj-$jar-round$round.err
    [ -n "$FJ_ONLY" ] && continue
    nice -n -20 java -Xms1g -Xmx1g -jar .dev/$jar.jar bench echo --workers 2 --connections 256 --rounds 7 \
      --warmup 2 --seconds 1 --forks 3 --progress=none > $OUT/echo-$jar-round$round.txt 2> $OUT/echo-$jar-round$round.err
  done
done
echo done
