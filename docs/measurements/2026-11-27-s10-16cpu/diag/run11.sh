#!/usr/bin/env bash
# 16-core device run 2, session 10: where the 16-worker gaps go. AsyncDiag (wall, CPU and the
# workers' counters per run) for spawn_many at 4, 8, 16 workers and yield_many at 16, with JFR at
# 16; the echo servers one at a time (16 workers, 64 connections) under JFR with their CPU time
# (bash `times`); the fork/join suite's nqueens and UTS at 8 workers under JFR. JfrTop summarises
# each recording on the machine. QUICK=1 for a local dry run.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results11; rm -rf "$R"; mkdir -p "$R" /tmp/jfr11
T0=$SECONDS
cd /tmp && for j in j17 j25; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$here/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java; J25=/tmp/j25/bin/java; JAR="$here/spindle.jar"; CP="$JAR:$here/diag"
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then DR="5 5"; ER="--rounds 1 --warmup 1 --seconds 0.5"; FR="--rounds 2 --warmup 1"; else DR="15 25"; ER="--rounds 3 --warmup 1"; FR="--rounds 8 --warmup 3"; fi
snap() { tar czf "$OUT/results11.tgz" -C "$R" . ; }
jfr() { echo "-XX:StartFlightRecording=filename=/tmp/jfr11/$1.jfr,settings=profile"; }
step() { # name limit java args...
  local name="$1" lim="$2"; shift 2
  local s=$SECONDS
  ( timeout "$lim" "$@" > "$R/$name.txt" 2>&1; echo "rc=$?"; times ) > "$R/$name.times" 2>&1
  echo "$name $(head -1 $R/$name.times) $((SECONDS - s))s (t=$((SECONDS - T0))s)" | tee -a "$R/steps.txt"
  if [[ -f /tmp/jfr11/$name.jfr ]]; then timeout 60 $J25 -cp "$here/diag" JfrTop /tmp/jfr11/$name.jfr 25 > "$R/$name.top.txt" 2>&1; fi
  snap
}
{ date -u; nproc; grep -m1 'model name' /proc/cpuinfo; cat /proc/loadavg; } > "$R/env.txt" 2>&1
step diag-spawn16 90 $J17 $H $(jfr diag-spawn16) -cp "$CP" AsyncDiag 16 spawn_many $DR
step diag-spawn8 60 $J17 $H -cp "$CP" AsyncDiag 8 spawn_many $DR
step diag-spawn4 60 $J17 $H -cp "$CP" AsyncDiag 4 spawn_many $DR
step diag-yield16 90 $J17 $H $(jfr diag-yield16) -cp "$CP" AsyncDiag 16 yield_many $DR
step diag-spawn16-j25 90 $J25 $H -cp "$CP" AsyncDiag 16 spawn_many $DR
E="bench echo --workers 16 --progress none $ER"
step echo-netty 45 $J25 $H $(jfr echo-netty) -jar "$JAR" $E --connections 64 --servers netty
step echo-io-r4 45 $J25 $H $(jfr echo-io-r4) -jar "$JAR" $E --connections 64 --servers spindle-io-workers
step echo-io-r16 45 $J25 $H $(jfr echo-io-r16) -Dspindle.bench.echo.reactors=16 -jar "$JAR" $E --connections 64 --servers spindle-io-workers
step echo-sel-r4 45 $J25 $H $(jfr echo-sel-r4) -jar "$JAR" $E --connections 64 --servers spindle
step echo-sel-r2 45 $J25 $H -Dspindle.bench.echo.reactors=2 -jar "$JAR" $E --connections 64 --servers spindle
step echo-vt 45 $J25 $H -jar "$JAR" $E --connections 64 --servers virtual-threads
step fj8-nq-uts 60 $J17 $H $(jfr fj8-nq-uts) -jar "$JAR" bench --workers 8 --workloads fib,nqueens,uts --progress none $FR
cat /proc/loadavg >> "$R/env.txt"; snap
for f in diag-spawn16 echo-netty echo-io-r4 echo-io-r16; do cp /tmp/jfr11/$f.jfr "$OUT/" 2>/dev/null; done
ls -la /tmp/jfr11 >> "$R/env.txt"; snap
cat "$R/steps.txt"
