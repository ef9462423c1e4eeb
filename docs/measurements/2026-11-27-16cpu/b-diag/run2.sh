#!/usr/bin/env bash
# 16-core device run 2: ForkJoinDiagnostics (CPU per run, parks, unparks) at 4 and 8 workers for
# the HEAD build (base) and two variants, alternated twice; then message passing at 8 for base/v1.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results2; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && [[ -x /tmp/j17/bin/java ]] || xz -dc "$here/j17.tar.xz" | tar xf -
J=/tmp/j17/bin/java; H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
ROUNDS="${ROUNDS:-6}"
snap() { tar czf "$OUT/results2.tgz" -C "$R" . ; }
cpv() { if [[ $1 == base ]]; then echo "$here/spindle.jar"; else echo "$here/$1:$here/spindle.jar"; fi; }
{ date -u; nproc; grep -m1 'model name' /proc/cpuinfo; cat /proc/loadavg; $J -version 2>&1; } > "$R/env.txt" 2>&1
for rep in 1 2; do
  for v in base v1 v2; do
    for w in 4 8; do
      s=$SECONDS
      timeout 60 $J $H -cp "$(cpv $v)" dev.spindle.bench.quick.ForkJoinDiagnostics $w $ROUNDS uts,nqueens,fib,fib-spawn \
        > "$R/diag-$v-w$w-rep$rep.txt" 2>&1
      echo "diag $v w$w rep$rep rc=$? $((SECONDS - s))s t=$((SECONDS - T0))s" | tee -a "$R/steps.txt"
    done
    snap
  done
done
for v in base v1; do
  s=$SECONDS
  timeout 60 $J $H -cp "$(cpv $v)" dev.spindle.cli.SpindleCli bench --workers 8 --progress none --rounds 8 --warmup 3 \
    --workloads ping-pong,chained-spawn,yield-many,skynet,spawn-many-local,uts,nqueens > "$R/mp-$v-w8.txt" 2>&1
  echo "mp $v rc=$? $((SECONDS - s))s t=$((SECONDS - T0))s" | tee -a "$R/steps.txt"
  snap
done
cat /proc/loadavg >> "$R/env.txt"; snap
