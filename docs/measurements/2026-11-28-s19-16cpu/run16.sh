#!/usr/bin/env bash
# Session 19's third call: the join-wait change (joinwait.diff: a waiting joiner starts no spare
# thread while a worker is parked) as jw.jar against the head as new.jar, alternated in pairs:
# ForkJoinDiagnostics at 16 workers (spares started, busy cores, CPU per run), and the join-based
# workloads of the fork/join suite at 16, 8 and 4 workers. About 3 minutes.
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
PACK="${PACK:-$root/.dev}"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results16; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && [[ -x /tmp/j17/bin/java ]] || xz -dc "$PACK/j17.tar.xz" | tar xf -
J17=/tmp/j17/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then FR="--rounds 2 --warmup 1"; FD=2; N=2; else FR="--rounds 8 --warmup 3"; FD=8; N=16; fi
snap() { tar czf "$OUT/results16.tgz" -C "$R" . ; }
step() { local name="$1" lim="$2"; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s (t=$((SECONDS - T0))s)" | tee -a "$R/steps.txt"; snap; }
{ date -u; nproc; cat /proc/loadavg; } > "$R/env.txt"
W=fib,fib-spawn,fib-cutoff,nqueens,uts,skynet
for p in 1 2; do for b in new jw; do
  step fjdiag17-$N-$b-$p 40 $J17 $H -cp "$PACK/$b.jar" dev.spindle.bench.quick.ForkJoinDiagnostics $N $FD fib,nqueens,uts
done; done
for p in 1 2; do for b in jw new; do
  step fj17-$N-$b-$p 45 $J17 $H -jar "$PACK/$b.jar" bench --workers $N --workloads $W --progress none $FR
done; done
for n in 8 4; do for b in new jw; do
  step fj17-$n-$b 40 $J17 $H -jar "$PACK/$b.jar" bench --workers $n --workloads $W --progress none $FR
done; done
cat "$R/steps.txt"
