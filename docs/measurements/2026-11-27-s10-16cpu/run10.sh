#!/usr/bin/env bash
# 16-core device run, session 10: fork/join suite at 4, 8, 16 workers (JDK 17) and 16 (JDK 25);
# async suite at 16 (JDK 17, and JDK 25 with virtual threads); echo at 16 workers with Netty NIO,
# Netty epoll and virtual threads: JDK 25 at 64 connections with 1, 2, 4 selectors and at 256
# with 4; JDK 17 at 64 with 4. QUICK=1 shrinks everything for a local dry run.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results10; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && for j in j17 j25; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$here/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java; J25=/tmp/j25/bin/java; JAR="$here/spindle.jar"
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then FR="--rounds 2 --warmup 1"; ER="--rounds 1 --warmup 1 --seconds 0.5"; else FR="--rounds 10 --warmup 3"; ER="--rounds 3 --warmup 1"; fi
snap() { tar czf "$OUT/results10.tgz" -C "$R" . ; }
step() { # name limit java args...
  local name="$1" lim="$2"; shift 2
  local s=$SECONDS
  timeout "$lim" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s (t=$((SECONDS - T0))s)" | tee -a "$R/steps.txt"
  snap
}
{ date -u; nproc; grep -m1 'model name' /proc/cpuinfo; grep MemTotal /proc/meminfo; cat /proc/loadavg; $J17 -version 2>&1; $J25 -version 2>&1; } > "$R/env.txt" 2>&1
cat "$R/env.txt"
W="fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,spawn-many-remote,yield-many,ping-pong,chained-spawn,skynet"
S5=spindle,spindle-io-workers,netty,netty-epoll,virtual-threads
S4=spindle,spindle-io-workers,netty,netty-epoll
step fj17-16 90 $J17 $H -jar "$JAR" bench --workers 16 --progress none $FR
step async17-16 60 $J17 $H -jar "$JAR" bench async --workers 16 --progress none $FR
for n in 4 8; do step fj17-$n 60 $J17 $H -jar "$JAR" bench --workers $n --workloads $W --progress none $FR; done
for r in 4 1 2; do step echo25-16-c64-r$r 80 $J25 $H -Dspindle.bench.echo.reactors=$r -jar "$JAR" bench echo --workers 16 --connections 64 --servers $S5 --progress none $ER; done
step echo25-16-c256-r4 80 $J25 $H -jar "$JAR" bench echo --workers 16 --connections 256 --servers $S5 --progress none $ER
step async25-16 60 $J25 $H -jar "$JAR" bench async --workers 16 --progress none $FR
step fj25-16 90 $J25 $H -jar "$JAR" bench --workers 16 --progress none $FR
step echo17-16-c64-r4 70 $J17 $H -jar "$JAR" bench echo --workers 16 --connections 64 --servers $S4 --progress none $ER
cat /proc/loadavg >> "$R/env.txt"; snap
cat "$R/steps.txt"
