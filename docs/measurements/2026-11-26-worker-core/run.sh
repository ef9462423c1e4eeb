#!/bin/bash
cd /tmp/qb
for i in 1 2 3; do
  for b in base new; do
    java -jar $b.jar bench --json --progress=none > fj-$b-$i.json 2> fj-$b-$i.err
    echo "fj $b $i done $(date +%T)" >> progress.log
  done
done
for i in 1 2; do
  for b in base new; do
    java -jar $b.jar bench async --json --progress=none > async-$b-$i.json 2> async-$b-$i.err
    echo "async $b $i done $(date +%T)" >> progress.log
  done
done
for i in 1 2; do
  for b in base new; do
    java -jar $b.jar bench actors --json --progress=none > actors-$b-$i.json 2> actors-$b-$i.err
    echo "actors $b $i done $(date +%T)" >> progress.log
  done
done
