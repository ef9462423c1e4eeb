#!/usr/bin/env bash
# 16-core device run 4: does profile pollution explain fib's gap on this Xeon? fib alone vs after
# the callable-based workloads, one worker (Polluted harness) and 4 workers (ForkJoinDiagnostics).
set -u
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results4; rm -rf "$R"; mkdir -p "$R"
cd /tmp && [[ -x /tmp/j17/bin/java ]] || xz -dc "$here/j17.tar.xz" | tar xf -
J=/tmp/j17/bin/java; H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"; CP="$here/spindle.jar:$here/pt"
snap() { tar czf "$OUT/results4.tgz" -C "$R" . ; }
for rep in 1 2; do
  for k in SPINDLE FJP; do for w in "" "uts,nqueens,fib-spawn"; do
    timeout 30 $J $H -cp "$CP" Polluted $k 1 "$w" 3 2>&1 | tail -1 | tee -a "$R/one-worker.txt"
  done; done
done
snap
for wl in fib uts,nqueens,fib; do
  timeout 40 $J $H -cp "$CP" dev.spindle.bench.quick.ForkJoinDiagnostics 4 5 $wl > "$R/diag4-${wl//,/-}.txt" 2>&1; snap
done
cat "$R"/diag4-*.txt | grep '^fib '
