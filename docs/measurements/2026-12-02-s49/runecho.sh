#!/bin/bash
# echo, JDK 25, driven selectors: 1 reactor (default on 2 workers) against 2, alternated JVMs
cd /tmp/s49; d=${1:-echo1}; mkdir -p $d
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for rep in 1 2 3; do for r in 1 2; do
  $J -Xms2g -Xmx2g -XX:+AlwaysPreTouch -Dspindle.bench.echo.reactors=$r -jar head.jar bench echo --rounds 6 --warmup 2 --servers spindle-io-workers,netty,virtual-threads --progress none > $d/r$r-$rep.txt 2>&1
done; done
echo DONE > $d/DONE
