#!/usr/bin/env bash
# Prepared for the next lent 16-core machine (written in session 12, not yet run there).
# Two builds alternated in one call: PACK/old.jar (default: 399a218, the code of session 10's
# 16-core figures) and PACK/new.jar (the head to measure). Steps, each in its own JVM:
#   fork/join suite at 16 workers, old and new (JDK 17);
#   echo at 16 workers, 64 connections, 4 and 1 driven selectors, spindle-io-workers and Netty
#     NIO, old and new (JDK 25), each JVM's voluntary and involuntary context switches recorded;
#   async suite at 16 workers, old and new (JDK 17);
#   fork/join and message-passing workloads at 4 and 8 workers, new only (JDK 17).
# About 8 minutes; every step has a time limit and the results are tarred after each step, so
# a cut-off call still returns what finished. QUICK=1 shrinks everything for a local dry run.
#
# Pack first, on the development machine (see spindle-bench/scripts/device-pack.sh):
#   spindle-bench/scripts/device-pack.sh .dev 399a218=old HEAD=new
# then run with the run tool: command "bash docs/measurements/next-16cpu/run13.sh",
# carry [".dev"], timeout_s 560.
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
PACK="${PACK:-$root/.dev}"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results13; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && for j in j17 j25; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$PACK/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java; J25=/tmp/j25/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then
  FR="--rounds 2 --warmup 1"; ER="--rounds 1 --warmup 1 --seconds 0.5"; L=1; N=2; RS="2 1"
else
  FR="--rounds 6 --warmup 2"; ER="--rounds 3 --warmup 1 --seconds 2"; L=2; N=16; RS="4 1"
fi
snap() { tar czf "$OUT/results13.tgz" -C "$R" . ; }
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
W="fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,yield-many,ping-pong,chained-spawn,skynet"
for b in old new; do step fj17-$N-$b $((60 * L)) $J17 $H -jar "$PACK/$b.jar" bench --workers $N --workloads $W --progress none $FR; done
for r in $RS; do for b in old new; do
  step echo25-$N-c64-r$r-$b $((35 * L)) $J25 $H -Dspindle.bench.echo.reactors=$r -jar "$PACK/$b.jar" bench echo --workers $N --connections 64 --servers spindle-io-workers,netty --progress none $ER
done; done
for b in old new; do step async17-$N-$b $((45 * L)) $J17 $H -jar "$PACK/$b.jar" bench async --workers $N --workloads spawn_many,yield_many,ping_pong,chained_spawn --runtimes async-ws,cf-fjp,cf-fjp-async --progress none $FR; done
for n in 4 8; do step fj17-$n-new $((40 * L)) $J17 $H -jar "$PACK/new.jar" bench --workers $n --workloads $W --progress none $FR; done
cat /proc/loadavg >> "$R/env.txt"; snap
cat "$R/steps.txt"
