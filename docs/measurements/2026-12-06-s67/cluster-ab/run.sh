#!/bin/bash
# alternate old/new jars on the in-process cluster bench, 3 JVMs each
cd /tmp/ab67
for i in 1 2 3 4 5; do
  for b in old new; do
    java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar $b.jar bench cluster --configs=inprocess --shapes=tiny,tree,shuffle --rounds=7 --warmup=3 --json --progress=none > $b-$i.json 2> $b-$i.err
    echo "$b $i rc=$?"
  done
done
