#!/bin/bash
# usage: ab.sh workers n reps rounds variant...
w=$1; n=$2; reps=$3; rounds=$4; shift 4
for r in $(seq $rounds); do for v in "$@"; do
  java -cp /tmp/exp/cls-$v:/tmp/pt PerTask $w $n $reps | awk -v v=$v '/compute|spawn|fjp/ && /median/ {print v, $1, $5}'
done; done
