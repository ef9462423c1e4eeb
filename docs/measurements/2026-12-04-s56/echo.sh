#!/usr/bin/env bash
# Session 56: echo on 2 workers at 64 and 256 connections, JDK 25, 3 JVMs each (the suite's own
# method: servers interleaved round by round in each JVM), quiet machine.
set -euo pipefail
jar=${1:-spindle-cli/target/spindle.jar}
java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for c in 64 256; do
  echo "== $c connections"
  "$java" -jar "$jar" bench echo --forks 3 --connections "$c" --rounds 6 --warmup 2 \
    --servers spindle-io-workers,netty,virtual-threads --progress none
done
