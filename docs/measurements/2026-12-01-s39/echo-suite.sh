#!/bin/bash
# session 39: echo at 2 workers, 64 and 256 connections, 3 JVMs each, JDK 17 (io-workers, netty) and 25 (+ virtual threads)
cd /tmp/s39
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for c in 64 256; do
  echo "== JDK 17, $c connections, $(date +%T)"
  java -jar b256.jar bench echo --workers 2 --connections $c --servers=spindle-io-workers,netty --rounds 5 --warmup 2 --forks 3 --progress=none 2>&1
  echo "== JDK 25, $c connections, $(date +%T)"
  $J25 -jar b256.jar bench echo --workers 2 --connections $c --servers=spindle-io-workers,netty,virtual-threads --rounds 5 --warmup 2 --forks 3 --progress=none 2>&1
done
