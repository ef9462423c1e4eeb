#!/bin/bash
# usage: run.sh OUTDIR ROUNDS JAVA build=jar ...   (runs every build once per round, alternating)
out=$1; rounds=$2; java=$3; shift 3
wl=ping-pong,chained-spawn,fib,fib-spawn,skynet,yield-many,spawn-many-local
for r in $(seq "$rounds"); do
  for bj in "$@"; do
    b=${bj%%=*}; jar=${bj#*=}
    n=$(ls "$out"/fj-"$b"-*.json 2>/dev/null | wc -l); n=$((n + 1))
    echo "$(date -u +%H:%M:%S) $b run $n load $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/progress.log"
    "$java" -jar "$jar" bench --workloads=$wl --json --progress=none 2> "$out/fj-$b-$n.err" \
      | sed -n '/^{/,$p' > "$out/fj-$b-$n.json"
  done
done
