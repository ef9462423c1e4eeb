#!/bin/bash
# the fork/join rows, v4 (main's code), heap fixed and pre-touched; JDK 17 and 25 alternated
cd /tmp/s48; mkdir -p fjB
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for rep in 1 2 3 4 5 6; do
  java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar v4.jar bench --workloads=fib,fib-spawn,fib-cutoff,nqueens,uts --progress none > fjB/j17-$rep.txt 2>&1
  $J25 -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar v4.jar bench --workloads=fib,fib-spawn,fib-cutoff,nqueens,uts --progress none > fjB/j25-$rep.txt 2>&1
done
echo DONE > fjB/DONE
