#!/bin/bash
cd "$(dirname "$0")"  # base.jar = build of 7bc1fa8, new.jar = build of f388bef
for i in 1 2 3 4; do
  for b in base new; do
    java -jar $b.jar bench --workloads=ping-pong,yield-many,chained-spawn --json --progress=none > fj-$b-$i.json 2> fj-$b-$i.err
    java -jar $b.jar bench async --workloads=spawn_many,ping_pong --json --progress=none > async-$b-$i.json 2> async-$b-$i.err
    echo "$b $i done $(date +%T)" >> progress.log
  done
done
