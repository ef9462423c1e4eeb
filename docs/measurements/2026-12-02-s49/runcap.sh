#!/bin/bash
# alternated deque capacities in one jar (-Dxcap), message rows, heap fixed and pre-touched
cd /tmp/s49; d=${1:-cap17}; J=${2:-java}; mkdir -p $d
for rep in 1 2 3 4 5 6; do for c in ${CAPS:-256 4096 65536}; do
  $J -Xms2g -Xmx2g -XX:+AlwaysPreTouch -Dxcap=$c -jar xcap.jar bench --workloads=spawn-many-local,ping-pong,yield-many,skynet,chained-spawn --progress none > $d/c$c-$rep.txt 2>&1
done; done
echo DONE > $d/DONE
