#!/bin/bash
# async-ws against cf-fjp only, the four workloads, base and new alternated, default heap;
# JDK given as $1 (java or a path), N pairs, into OUT.  usage: ws-check.sh JAVA BASE NEW N OUT
jdk=$1; base=$2; new=$3; n=$4; out=$5; mkdir -p $out
for i in $(seq 1 $n); do for b in base new; do jar=$base; [ $b = new ] && jar=$new
  echo "$(date -u +%H:%M:%S) $b $i $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/load.txt
  nice -n -20 $jdk -jar $jar bench async --workloads=spawn_many,yield_many,ping_pong,chained_spawn \
    --runtimes=async-ws,cf-fjp --json --progress=none 2>/dev/null | sed -n '/^{/,$p' > $out/async-$b-$i.json
done; done
