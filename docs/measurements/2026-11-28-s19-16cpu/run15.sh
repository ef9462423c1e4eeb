#!/usr/bin/env bash
# Session 19's second call (after run14.sh): why nqueens and UTS fall behind ForkJoinPool at 4 and
# 8 workers (ForkJoinDiagnostics: busy cores, CPU per run, spare threads, steals, parks), and
# whether the driven echo server catches Netty with 8 or 16 selectors (run14 had 1, 2 and 4).
# About 2 minutes. PACK as for run14.sh (new.jar only).
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
PACK="${PACK:-$root/.dev}"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results15; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && for j in j17 j25; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$PACK/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java; J25=/tmp/j25/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then ER="--rounds 1 --warmup 1 --seconds 0.5"; FD=2; N=2; RS="1 2"; else ER="--rounds 3 --warmup 1 --seconds 2"; FD=8; N=16; RS="8 16"; fi
snap() { tar czf "$OUT/results15.tgz" -C "$R" . ; }
step() { local name="$1" lim="$2"; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s (t=$((SECONDS - T0))s)" | tee -a "$R/steps.txt"; snap; }
{ date -u; nproc; cat /proc/loadavg; } > "$R/env.txt"
for n in 4 8; do step fjdiag17-$n 40 $J17 $H -cp "$PACK/new.jar" dev.spindle.bench.quick.ForkJoinDiagnostics $n $FD fib,nqueens,uts; done
for c in 64 256; do for r in $RS; do
  step echo25-$N-c$c-r$r-new 40 $J25 $H -Dspindle.bench.echo.reactors=$r -jar "$PACK/new.jar" bench echo --workers $N --connections $c --servers spindle-io-workers,netty --progress none $ER
done; done
step fjdiag17-16 40 $J17 $H -cp "$PACK/new.jar" dev.spindle.bench.quick.ForkJoinDiagnostics 16 $FD nqueens,uts
cat "$R/steps.txt"
