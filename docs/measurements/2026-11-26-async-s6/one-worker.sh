#!/bin/bash
# One-worker (and two-worker) harnesses, base and new jar alternated, heap fixed and touched:
# PP (ns per ping_pong pair, 10,000 pairs a round), Chain (ns per chained spawn, and CF's),
# SM (ns per task of spawn_many's shape, 10,000 children a round). Min/median of the 2nd half.
# usage: one-worker.sh BASE_JAR NEW_JAR N   (compiles the harnesses against each jar; PP.java and
# Chain.java are those of ../2026-11-26-async-fences/; run from this directory)
base=$1; new=$2; n=$3; d=$(mktemp -d)
for b in base new; do jar=$base; [ $b = new ] && jar=$new; mkdir -p $d/$b; javac -cp $jar -d $d/$b ../2026-11-26-async-fences/PP.java ../2026-11-26-async-fences/Chain.java SM.java; done
J="nice -n -20 java -Xms1g -Xmx1g -XX:+AlwaysPreTouch"
for i in $(seq 1 $n); do
  for b in base new; do jar=$base; [ $b = new ] && jar=$new; cp="$d/$b:$jar"
    echo "$(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "$b PP w1 $($J -cp $cp PP 300 1)"
    echo "$b Chain w1 $($J -cp $cp Chain 100 async 1)"
    echo "$b SM w1 $($J -cp $cp SM 300 1)"
    echo "$b PP w2 $($J -cp $cp PP 300 2)"
  done
  echo "cf Chain w1 $($J -cp $d/new:$new Chain 100 cf 1)"
done
