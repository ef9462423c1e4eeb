#!/bin/bash
cd /tmp/s35
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
O="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
for jdk in 17 25; do
  j=java; [[ $jdk == 25 ]] && j=$J25
  echo "$(date +%T) async sink jdk$jdk load $(cut -d' ' -f1 /proc/loadavg)"
  nice -n -5 $j $O -jar c-sink.jar bench async --forks 3 --workers 2 --progress=none > after-async-jdk$jdk.txt 2> after-async-jdk$jdk.err
done
echo "$(date +%T) ab fj jdk25 s27 vs sink load $(cut -d' ' -f1 /proc/loadavg)"
JAVA=$J25 /work/main/spindle-bench/scripts/ab.sh -r 4 -o /tmp/s35/ab-fj25 /tmp/s35/s27.jar /tmp/s35/c-sink.jar --workers 2 --workloads=fib,fib-spawn,chained-spawn,skynet,yield-many --progress=none > ab-fj25.log 2>&1
echo "$(date +%T) done"
