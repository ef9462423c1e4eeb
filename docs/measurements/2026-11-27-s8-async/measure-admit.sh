#!/bin/bash
# after CI: harness and suites, base (42dfc29) / fifo (65cb6c6) / admit
cd /tmp/s8/ym
for i in 1 2; do for b in base fifo admit; do for w in 1 2; do echo -n "$b ${w}w: "; nice -n -20 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp /tmp/s8-$b.jar:. YM 200 $w | head -1 | cut -c1-90; done; done; done > /tmp/s8/ym-admit.txt 2>&1
cd /tmp/s8
BASE=fifo NEW=admit ./ab-async.sh /tmp/s8/ab3 1 3
BASE=fifo NEW=admit TAG=async25 ./ab-async.sh /tmp/s8/ab3 1 3 /usr/lib/jvm/temurin-25-jdk-amd64/bin/java
