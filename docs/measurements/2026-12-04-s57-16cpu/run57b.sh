#!/usr/bin/env bash
# Session 57's second call: does spreading forked work (a worker that pushes work of its own
# while others search, or a searcher that finds work while others search, wakes one more
# parked worker up to the searching cap of half the live workers) bring the pool's workers back
# faster at 8 and 16 workers? PACK holds base.jar (8182b363, the head) and ramp.jar (the change
# on top, uncommitted when run); the fork/join suite's eleven workloads alternated base / ramp in
# separate JVMs (JDK 17): twice each at 16 and 8 workers, once each at 4, then ramp at 16 with
# the latency and idle-CPU probes. About 4.5 minutes. QUICK=1 for a local dry run.
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
PACK="${PACK:-$root/.pack}"; PACK="$(cd "$PACK" && pwd)"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results57b; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && for j in j17; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$PACK/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then FR="--rounds 2 --warmup 1"; N=2; B=2; A=1; else FR="--rounds 10 --warmup 3"; N=16; B=8; A=4; fi
snap() { tar czf "$OUT/results57b.tgz" -C "$R" . ; }
step() { local name="$1" lim="$2"; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s (t=$((SECONDS - T0))s) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$R/steps.txt"; snap; }
{ date -u; nproc; cat /proc/loadavg; ls -la "$PACK"; } > "$R/env.txt" 2>&1
W="fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,spawn-many-remote,yield-many,ping-pong,chained-spawn,skynet"
for r in 1 2; do for n in $N $B; do for j in base ramp; do
  step fj17-$n-$j-$r 40 $J17 $H -jar "$PACK/$j.jar" bench --workers $n --workloads $W --progress none $FR
done; done; done
for j in base ramp; do step fj17-$A-$j-1 40 $J17 $H -jar "$PACK/$j.jar" bench --workers $A --workloads $W --progress none $FR; done
step fj17-$N-ramp-probes 50 $J17 $H -jar "$PACK/ramp.jar" bench --workers $N --progress none $FR
cat /proc/loadavg >> "$R/env.txt"; snap
cat "$R/steps.txt"
