#!/bin/bash
# head figures: fork/join and async suites, 2 workers, 3 JVMs each, JDK 17 and JDK 25
cd /tmp/s35
J17=java; J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
O="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
for jdk in 17 25; do
  j=J$jdk; j=${!j}
  echo "$(date +%T) forkjoin jdk$jdk load $(cut -d' ' -f1 /proc/loadavg)"
  nice -n -5 $j $O -jar head.jar bench --forks 3 --workers 2 --progress=none > fj-jdk$jdk.txt 2> fj-jdk$jdk.err
  echo "$(date +%T) async jdk$jdk load $(cut -d' ' -f1 /proc/loadavg)"
  nice -n -5 $j $O -jar head.jar bench async --forks 3 --workers 2 --progress=none > async-jdk$jdk.txt 2> async-jdk$jdk.err
done
echo "$(date +%T) done"
