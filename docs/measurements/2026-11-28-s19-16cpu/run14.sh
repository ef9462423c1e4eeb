#!/usr/bin/env bash
# Session 19's call on a lent 16-core machine. Two builds packed by device-pack.sh into PACK:
# new.jar (the head, f27b352) and old.jar (399a218, the code of session 10's 16-core figures).
# Steps in order of importance (each in its own JVM with a time limit; results tarred after each
# step, so a cut-off call still returns what finished):
#   fork/join suite at 16 workers (JDK 17), new; async suite at 16 (JDK 17, all workloads), new;
#   echo at 16 workers, 64 and 256 connections, 4 driven selectors, five servers (JDK 25), new;
#   fork/join and message passing at 4 and 8 workers, new;
#   fork/join suite and the four Tokio workloads at 16 workers, old (what sessions 11-18 changed);
#   echo at 16 workers, 64 connections, 1 and 2 selectors, spindle-io-workers and Netty NIO, new;
#   async and fork/join suites at 16 workers on JDK 25, new.
# About 6.5 minutes. QUICK=1 shrinks everything for a local dry run.
#
#   spindle-bench/scripts/device-pack.sh .dev 399a218=old HEAD=new
#   QUICK=1 bash docs/measurements/2026-11-28-s19-16cpu/run14.sh      # dry run
# then the run tool: command "bash docs/measurements/2026-11-28-s19-16cpu/run14.sh", carry [".dev"].
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
PACK="${PACK:-$root/.dev}"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results14; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && for j in j17 j25; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$PACK/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java; J25=/tmp/j25/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then
  FR="--rounds 2 --warmup 1"; ER="--rounds 1 --warmup 1 --seconds 0.5"; L=1; N=2
else
  FR="--rounds 10 --warmup 3"; ER="--rounds 3 --warmup 1 --seconds 2"; L=1; N=16
fi
snap() { tar czf "$OUT/results14.tgz" -C "$R" . ; }
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
S5=spindle-io-workers,spindle,netty,netty-epoll,virtual-threads
step fj17-$N-new $((80 * L)) $J17 $H -jar "$PACK/new.jar" bench --workers $N --progress none $FR
step async17-$N-new $((60 * L)) $J17 $H -jar "$PACK/new.jar" bench async --workers $N --progress none $FR
for c in 64 256; do
  step echo25-$N-c$c-r4-new $((75 * L)) $J25 $H -Dspindle.bench.echo.reactors=4 -jar "$PACK/new.jar" bench echo --workers $N --connections $c --servers $S5 --progress none $ER
done
for n in 4 8; do step fj17-$n-new $((60 * L)) $J17 $H -jar "$PACK/new.jar" bench --workers $n --workloads $W --progress none $FR; done
step fj17-$N-old $((80 * L)) $J17 $H -jar "$PACK/old.jar" bench --workers $N --workloads $W --progress none $FR
step async17-$N-old $((45 * L)) $J17 $H -jar "$PACK/old.jar" bench async --workers $N --workloads $TOKIO --runtimes async-ws,cf-fjp,cf-fjp-async --progress none $FR
for r in 1 2; do
  step echo25-$N-c64-r$r-new $((45 * L)) $J25 $H -Dspindle.bench.echo.reactors=$r -jar "$PACK/new.jar" bench echo --workers $N --connections 64 --servers spindle-io-workers,netty --progress none $ER
done
step async25-$N-new $((60 * L)) $J25 $H -jar "$PACK/new.jar" bench async --workers $N --progress none $FR
step fj25-$N-new $((80 * L)) $J25 $H -jar "$PACK/new.jar" bench --workers $N --workloads $W --progress none $FR
cat /proc/loadavg >> "$R/env.txt"; snap
cat "$R/steps.txt"
