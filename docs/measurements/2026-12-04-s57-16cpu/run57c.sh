#!/usr/bin/env bash
# Prepared in session 57 for the next lent 16-core machine; not run yet. Two questions:
#  1. Did submit -> start p99 at 16 workers regress since session 32 (85 us then, 162-208 us in
#     session 57, one JVM each)? The latency probe alone, old.jar (ed4ad99, session 32's head)
#     and base.jar (the head) alternated, 4 JVMs each, 16 and 8 workers.
#  2. Does spreading only forks (branch ramp-spread, second commit, packed as spread.jar) keep
#     nqueens' gain at 16 workers without spawn_many_local's loss? The fork/join suite alternated
#     base / spread, twice at 16 and 8 workers (JDK 17).
# Pack: spindle-bench/scripts/device-pack.sh .pack ed4ad99=old HEAD=base ramp-spread=spread, then
# drop j25.tar.xz from .pack (the call's carry limit). About 5 minutes. QUICK=1 for a dry run.
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
PACK="${PACK:-$root/.pack}"; PACK="$(cd "$PACK" && pwd)"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results57c; rm -rf "$R"; mkdir -p "$R"
T0=$SECONDS
cd /tmp && for j in j17; do [[ -x /tmp/$j/bin/java ]] || xz -dc "$PACK/$j.tar.xz" | tar xf - ; done
J17=/tmp/j17/bin/java
H="-Xms2g -Xmx2g -XX:+AlwaysPreTouch"
if [[ "${QUICK:-0}" == 1 ]]; then FR="--rounds 2 --warmup 1"; N=2; B=2; else FR="--rounds 10 --warmup 3"; N=16; B=8; fi
snap() { tar czf "$OUT/results57c.tgz" -C "$R" . ; }
step() { local name="$1" lim="$2"; shift 2; local s=$SECONDS
  timeout "$lim" "$@" > "$R/$name.txt" 2>&1; local rc=$?
  echo "$name rc=$rc $((SECONDS - s))s (t=$((SECONDS - T0))s) load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$R/steps.txt"; snap; }
{ date -u; nproc; cat /proc/loadavg; ls -la "$PACK"; } > "$R/env.txt" 2>&1
for r in 1 2 3 4; do for n in $N $B; do for j in old base; do
  step lat17-$n-$j-$r 30 $J17 $H -jar "$PACK/$j.jar" bench --workers $n --workloads latency --progress none $FR
done; done; done
W="fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,spawn-many-remote,yield-many,ping-pong,chained-spawn,skynet"
for r in 1 2; do for n in $N $B; do for j in base spread; do
  step fj17-$n-$j-$r 40 $J17 $H -jar "$PACK/$j.jar" bench --workers $n --workloads $W --progress none $FR
done; done; done
cat /proc/loadavg >> "$R/env.txt"; snap
cat "$R/steps.txt"
