#!/bin/bash
# Alternates two spindle.jar builds on the async suite's four Tokio workloads, at 1 and 2
# workers, with the benchmark JVM at nice -20 (other processes on the machine yield to it).
# usage: run.sh BASE_JAR NEW_JAR ROUNDS OUTDIR
set -e
base=$1; new=$2; n=$3; out=$4; mkdir -p "$out"
for i in $(seq 1 "$n"); do
  for w in 1 2; do
    for b in base new; do
      jar=$base; [ $b = new ] && jar=$new
      uptime >> "$out/load.txt"
      nice -n -20 java -jar "$jar" bench async --workers=$w --workloads=spawn_many,yield_many,ping_pong,chained_spawn \
        --runtimes=async-ws,cf-fjp,cf-fjp-async --json --progress=none 2>/dev/null | sed -n '/^{/,$p' > "$out/async-w$w-$b-$i.json"
    done
  done
done
