#!/usr/bin/env bash
# Session 32's call on a lent 16-core machine. Two builds packed into PACK (see
# spindle-bench/scripts/device-pack.sh; the jars built from the commits below, the JDK images
# kept): new.jar (the head, ed4ad99: sessions 20-31's fixes) and old.jar (f27b352, the code of
# session 19's 16-core figures). Steps in order of importance, each in its own JVM with a time
# limit; results tarred after each step, so a cut-off call still returns what finished:
#   fork/join suite at 16 workers (JDK 17), new then old; async suite at 16 (JDK 17), new then
#   old; echo at 16 workers, 64 and 256 connections, default selectors (workers / 2), four
#   servers (JDK 25), new; fork/join suite at 4 and 8 workers, new; ForkJoinDiagnostics at 4 and 8
#   (fib, nqueens, UTS alone in a JVM), new; async and fork/join suites at 16 on JDK 25, new;
#   the fork/join suite at 16 once more, new (a second sample of the same build).
# About 5.5 minutes. QUICK=1 shrinks everything for a local dry run.
#
#   QUICK=1 PACK=.pack bash docs/measurements/2026-11-30-s32-16cpu/run32.sh      # dry run
# then the run tool: command "PACK=.pack bash docs/measurements/2026-11-30-s32-16cpu/run32.sh",
# carry [".pack"].
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
PACK="${PACK:-$root/.pack}"; PACK="$(cd "$PACK" && pwd)"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results32; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && for j in j17 j25; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$PACK/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java; J25=/tmp/j25/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then
  FR="--rounds 2 --warmup 1"; ER="--rounds 1 --warmup 1 --seconds 0.5"; L=1; N=2; FD=2
else
  FR="--rounds 10 --warmup 3"; ER="--rounds 3 --warmup 1 --seconds 2"; L=1; N=16; FD=8
fi
snap() { tar czf "$OUT/results32.tgz" -C "$R" . ; }
step() { # name limit java args...: runs one JVM; records the context switches of its threads
         # alive at the last look (every 0.5 s), an approximation: exited threads are missed
  local name="$1" lim="$2"; shift 2
  local s=$SECONDS
  timeout "$lim" "$@" > "$R/$name.txt" 2>&1 &
  local tpid=$! jpid="" vol="" inv=""
  while kill -0 "$tpid" 2>/dev/null; do
    jpid="${jpid:-$(pgrep -P "$tpid" | head -1)}"
    if [[ -n "$jpid" && -r /proc/$jpid/status ]]; then
      local tv=0 ti=0 f
      for f in /proc/$jpid/task/*/status; do
        tv=$((tv + $(awk '/^voluntary_ctxt_switches/{print $2}' "$f" 2>/dev/null || echo 0)))
        ti=$((ti + $(awk '/^nonvoluntary_ctxt_switches/{print $2}' "$f" 2>/dev/null || echo 0)))
      done 2>/dev/null
      vol=$tv; inv=$ti
    fi
    sleep 0.5
  done
  wait "$tpid"; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s (t=$((SECONDS - T0))s) ctxsw_live_threads_last_seen vol=$vol invol=$inv" | tee -a "$R/steps.txt"
  snap
}
{ date -u; nproc; grep -m1 'model name' /proc/cpuinfo; grep MemTotal /proc/meminfo; cat /proc/loadavg; $J17 -version 2>&1; $J25 -version 2>&1; ls -la "$PACK"; } > "$R/env.txt" 2>&1
cat "$R/env.txt"
W="fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,spawn-many-remote,yield-many,ping-pong,chained-spawn,skynet"
TOKIO=spawn_many,yield_many,ping_pong,chained_spawn
S4=spindle-io-workers,spindle,netty,virtual-threads
step fj17-$N-new $((80 * L)) $J17 $H -jar "$PACK/new.jar" bench --workers $N --progress none $FR
step fj17-$N-old $((80 * L)) $J17 $H -jar "$PACK/old.jar" bench --workers $N --workloads $W --progress none $FR
step async17-$N-new $((60 * L)) $J17 $H -jar "$PACK/new.jar" bench async --workers $N --progress none $FR
step async17-$N-old $((45 * L)) $J17 $H -jar "$PACK/old.jar" bench async --workers $N --workloads $TOKIO --runtimes async-ws,cf-fjp,cf-fjp-async --progress none $FR
for c in 64 256; do
  step echo25-$N-c$c-new $((70 * L)) $J25 $H -jar "$PACK/new.jar" bench echo --workers $N --connections $c --servers $S4 --progress none $ER
done
for n in 4 8; do step fj17-$n-new $((60 * L)) $J17 $H -jar "$PACK/new.jar" bench --workers $n --workloads $W --progress none $FR; done
for n in 4 8; do step fjdiag17-$n-new 40 $J17 $H -cp "$PACK/new.jar" dev.spindle.bench.quick.ForkJoinDiagnostics $n $FD fib,nqueens,uts; done
step async25-$N-new $((60 * L)) $J25 $H -jar "$PACK/new.jar" bench async --workers $N --progress none $FR
step fj25-$N-new $((80 * L)) $J25 $H -jar "$PACK/new.jar" bench --workers $N --workloads $W --progress none $FR
step fj17-$N-new2 $((60 * L)) $J17 $H -jar "$PACK/new.jar" bench --workers $N --workloads $W --progress none $FR
cat /proc/loadavg >> "$R/env.txt"; snap
cat "$R/steps.txt"
