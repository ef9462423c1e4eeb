#!/usr/bin/env bash
# 16-core device run 3, session 10: A/B of the lazy clearing with a lag (WorkStealingDeque and
# OwnerFifo leave the slots just below top alone while the queue holds elements) against
# 399a218, JVMs alternated: AsyncDiag spawn_many at 16 and 8 workers, the async suite's Tokio
# workloads at 16, the fork/join suite's message-passing and fork/join workloads at 16.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results12; rm -rf "$R"; mkdir -p "$R" /tmp/jfr12
T0=$SECONDS
cd /tmp && for j in j17 j25; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$here/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java; J25=/tmp/j25/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then DR="5 5"; AR="--rounds 2 --warmup 1"; else DR="15 25"; AR="--rounds 10 --warmup 3"; fi
jar() { [[ $1 == base ]] && echo "$here/spindle.jar" || echo "$here/spindle-new.jar"; }
snap() { tar czf "$OUT/results12.tgz" -C "$R" . ; }
step() { local name="$1" lim="$2"; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s (t=$((SECONDS - T0))s)" | tee -a "$R/steps.txt"
  if [[ -f /tmp/jfr12/$name.jfr ]]; then timeout 60 $J25 -cp "$here/diag" JfrTop /tmp/jfr12/$name.jfr 25 > "$R/$name.top.txt" 2>&1; fi
  snap; }
{ date -u; nproc; grep -m1 'model name' /proc/cpuinfo; cat /proc/loadavg; } > "$R/env.txt" 2>&1
for i in 1 2 3; do for v in base new; do
  X=""; [[ $i == 1 ]] && X="-XX:StartFlightRecording=filename=/tmp/jfr12/diag16-$v-$i.jfr,settings=profile"
  step diag16-$v-$i 60 $J17 $H $X -cp "$(jar $v):$here/diag" AsyncDiag 16 spawn_many $DR; done; done
for i in 1 2; do for v in base new; do step diag8-$v-$i 60 $J17 $H -cp "$(jar $v):$here/diag" AsyncDiag 8 spawn_many $DR; done; done
for v in base new; do step diag16-j25-$v 60 $J25 $H -cp "$(jar $v):$here/diag" AsyncDiag 16 spawn_many $DR; done
for i in 1 2; do for v in base new; do step async16-$v-$i 60 $J17 $H -jar "$(jar $v)" bench async --workers 16 --workloads spawn_many,yield_many,ping_pong,chained_spawn --progress none $AR; done; done
for v in base new; do step fj16-$v 60 $J17 $H -jar "$(jar $v)" bench --workers 16 --workloads fib,nqueens,uts,spawn-many-local,spawn-many-remote,yield-many,ping-pong,chained-spawn,skynet --progress none $AR; done
cat /proc/loadavg >> "$R/env.txt"; snap
cat "$R/steps.txt"
