#!/bin/bash
# Echo on 2 workers, one server per JVM: CPU per request by thread group over the measured rounds,
# and (separately, perf trace attached for 5 s) syscalls per request.
JAR=${JAR:-/tmp/base-s54.jar}; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
OUT=${OUT:-/tmp/s54m}
for rep in 1 2 3; do
  for cfg in "spindle-io-workers -Dspindle.bench.echo.reactors=1" "spindle-io-workers -Dspindle.bench.echo.reactors=2" "netty" "virtual-threads"; do
    set -- $cfg
    echo "== rep $rep $cfg $(date +%T)"
    ROUNDS=5 python3 /tmp/echo-cpu.py $J25 $JAR $1 ${2:-} 2>&1 | tail -2
  done
done
