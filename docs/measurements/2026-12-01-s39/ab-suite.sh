#!/bin/bash
# session 39: the async suite (`bench async`, 2 workers) in separate JVMs, session 38's end
# (c4f74cdf's runtime, s38end.jar) against this session's head (10d1002e, head.jar), alternated
# by ab.sh, ROUNDS rounds, JDK 17 then 25; ratios are × the best CompletableFuture in each JVM
cd /tmp/s39
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for v in 17 25; do
  rm -rf /tmp/s39/ab-async$v
  echo "$(date +%T) ab async jdk$v load $(cut -d' ' -f1 /proc/loadavg)"
  if [ $v = 25 ]; then export JAVA=$J25; fi
  /work/main/spindle-bench/scripts/ab.sh -r ${ROUNDS:-6} -s async -o /tmp/s39/ab-async$v /tmp/s39/s38end.jar /tmp/s39/head.jar \
      --workers 2 --workloads=spawn_many,ping_pong,chained_spawn,yield_many --progress=none > ab-async$v.log 2>&1
done
echo "$(date +%T) done"
