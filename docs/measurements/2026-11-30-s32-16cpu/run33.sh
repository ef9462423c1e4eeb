#!/usr/bin/env bash
# Session 32's second call: where the fork/join suite's nqueens and UTS lose to ForkJoinPool at
# 4 and 8 workers of 16 cores (0.68-0.82 in run32, 0.92-0.96 in ForkJoinDiagnostics). PACK holds
# cpu.jar: the head with the suite's new note (busy cores of each runtime over its samples, and
# the most live threads it had). Steps: the suite's eleven workloads at 4, 8 and 16 workers (the
# pools shared by the workloads, as always); nqueens and UTS alone in a suite at 4 and 8; the
# eleven at 4 on JDK 25. About 2 minutes. QUICK=1 for a local dry run.
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
PACK="${PACK:-$root/.pack}"; PACK="$(cd "$PACK" && pwd)"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results33; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && for j in j17 j25; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$PACK/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java; J25=/tmp/j25/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then FR="--rounds 2 --warmup 1"; else FR="--rounds 10 --warmup 3"; fi
snap() { tar czf "$OUT/results33.tgz" -C "$R" . ; }
step() { local name="$1" lim="$2"; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s (t=$((SECONDS - T0))s)" | tee -a "$R/steps.txt"; snap; }
{ date -u; nproc; cat /proc/loadavg; } > "$R/env.txt"
W="fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,spawn-many-remote,yield-many,ping-pong,chained-spawn,skynet"
for n in 4 8 16; do step fj17-$n-cpu 60 $J17 $H -jar "$PACK/cpu.jar" bench --workers $n --workloads $W --progress none $FR; done
for n in 4 8; do step fj17-$n-nu 40 $J17 $H -jar "$PACK/cpu.jar" bench --workers $n --workloads nqueens,uts --progress none $FR; done
step fj25-4-cpu 60 $J25 $H -jar "$PACK/cpu.jar" bench --workers 4 --workloads $W --progress none $FR
cat "$R/steps.txt"
