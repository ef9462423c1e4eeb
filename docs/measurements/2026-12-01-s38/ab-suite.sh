#!/bin/bash
# session 38: the suite (`bench async`, 2 workers) in separate JVMs, the session's base
# (7d56e0ee, head.jar) against its end (new.jar), alternated (ab.sh), 4 rounds (ROUNDS), JDK 17 then 25;
# ratios are × the best CompletableFuture in each JVM
cd /tmp/s38
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for v in 17 25; do
  rm -rf /tmp/s38/ab-async$v
  echo "$(date +%T) ab async jdk$v load $(cut -d' ' -f1 /proc/loadavg)"
  if [ $v = 25 ]; then export JAVA=$J25; fi
  /work/main/spindle-bench/scripts/ab.sh -r ${ROUNDS:-4} -s async -o /tmp/s38/ab-async$v /tmp/s38/head.jar /tmp/s38/new.jar \
      --workers 2 --workloads=spawn_many,ping_pong,chained_spawn,yield_many --progress=none > ab-async$v.log 2>&1
done
echo "$(date +%T) done"
