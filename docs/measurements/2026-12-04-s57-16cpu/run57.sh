#!/usr/bin/env bash
# Session 57's call on a lent 16-core machine: the head (95cc048b, packed as new.jar by
# spindle-bench/scripts/device-pack.sh with the JDK 17 and 25 jlink images) at 4, 8 and 16
# workers, the first such figures since session 32 (ed4ad99). Steps in order of importance,
# each in its own JVM under a time limit, results tarred after each so a cut-off call still
# returns what finished:
#   fork/join suite at 16 workers (JDK 17, every workload with the latency and idle-CPU probes);
#   async suite at 16 (JDK 17, with the contention rows); echo at 16 workers, 64 and 256
#   connections, default driven selectors (workers / 2), against Netty NIO, Netty epoll and virtual threads
#   (JDK 25); fork/join suite at 4 and 8 (JDK 17); async and fork/join at 16 on JDK 25; second
#   JVMs of the fork/join and async suites at 16 (JDK 17); async at 4 and 8 (JDK 17).
# About 5 minutes. QUICK=1 shrinks everything for a local dry run:
#
#   QUICK=1 PACK=.pack bash docs/measurements/2026-12-04-s57-16cpu/run57.sh      # dry run
# then the run tool: command "PACK=.pack bash docs/measurements/2026-12-04-s57-16cpu/run57.sh",
# carry [".pack"].
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
PACK="${PACK:-$root/.pack}"; PACK="$(cd "$PACK" && pwd)"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results57; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && for j in j17 j25; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$PACK/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java; J25=/tmp/j25/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then
  FR="--rounds 2 --warmup 1"; ER="--rounds 1 --warmup 1 --seconds 0.5"; N=2; A=1; B=2
else
  FR="--rounds 10 --warmup 3"; ER="--rounds 3 --warmup 1 --seconds 2"; N=16; A=4; B=8
fi
snap() { tar czf "$OUT/results57.tgz" -C "$R" . ; }
step() { # name limit java args...: one JVM under a time limit; its rc and seconds in steps.txt
  local name="$1" lim="$2"; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s (t=$((SECONDS - T0))s) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$R/steps.txt"
  snap
}
{ date -u; nproc; grep -m1 'model name' /proc/cpuinfo; grep MemTotal /proc/meminfo; cat /proc/loadavg; $J17 -version 2>&1; $J25 -version 2>&1; ls -la "$PACK"; } > "$R/env.txt" 2>&1
cat "$R/env.txt"
W="fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,spawn-many-remote,yield-many,ping-pong,chained-spawn,skynet"
TOKIO=spawn_many,yield_many,ping_pong,chained_spawn
S4=spindle-io-workers,netty,netty-epoll,virtual-threads
step fj17-$N $((70)) $J17 $H -jar "$PACK/new.jar" bench --workers $N --progress none $FR
step async17-$N 50 $J17 $H -jar "$PACK/new.jar" bench async --workers $N --progress none $FR
for c in 64 256; do
  step echo25-$N-c$c 60 $J25 $H -jar "$PACK/new.jar" bench echo --workers $N --connections $c --servers $S4 --progress none $ER
done
step fj17-$A 45 $J17 $H -jar "$PACK/new.jar" bench --workers $A --workloads $W --progress none $FR
step fj17-$B 45 $J17 $H -jar "$PACK/new.jar" bench --workers $B --workloads $W --progress none $FR
step async25-$N 50 $J25 $H -jar "$PACK/new.jar" bench async --workers $N --progress none $FR
step fj25-$N 50 $J25 $H -jar "$PACK/new.jar" bench --workers $N --workloads $W --progress none $FR
step fj17-$N-b 45 $J17 $H -jar "$PACK/new.jar" bench --workers $N --workloads $W --progress none $FR
step async17-$N-b 30 $J17 $H -jar "$PACK/new.jar" bench async --workers $N --workloads $TOKIO --progress none $FR
for n in $A $B; do
  step async17-$n 30 $J17 $H -jar "$PACK/new.jar" bench async --workers $n --workloads $TOKIO --progress none $FR
done
cat /proc/loadavg >> "$R/env.txt"; snap
cat "$R/steps.txt"
