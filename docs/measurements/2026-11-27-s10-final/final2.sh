#!/bin/bash
# Second set: the fork/join suite, JDK 17 and 25, jars alternated (2 workers).
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
for v in new base; do
  nice -n -20 $J25 $H -jar $v.jar bench --workers 2 --progress none --rounds 10 --warmup 3 > fj25-$v-2.txt 2>&1
  nice -n -20 java $H -jar $v.jar bench --workers 2 --progress none --rounds 10 --warmup 3 > fj17-$v-1.txt 2>&1
done
for v in base new; do
  nice -n -20 java $H -jar $v.jar bench --workers 2 --progress none --rounds 10 --warmup 3 > fj17-$v-2.txt 2>&1
done
echo fin > fin2
