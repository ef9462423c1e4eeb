#!/usr/bin/env bash
# Session 19's fourth call: four more alternated pairs of ForkJoinDiagnostics at 16 workers,
# head (new.jar) against the join-wait change (jw.jar), since run16's two pairs disagreed on fib.
set -u
root="$(cd "$(dirname "$0")/../../.." && pwd)"
PACK="${PACK:-$root/.dev}"
OUT="${OUT:-/tmp/devout}"; mkdir -p "$OUT"
R=/tmp/results17; rm -rf "$R"; mkdir -p "$R"
cd /tmp && [[ -x /tmp/j17/bin/java ]] || xz -dc "$PACK/j17.tar.xz" | tar xf -
N=${N:-16}
for p in 1 2 3 4; do for b in jw new; do
  timeout 30 /tmp/j17/bin/java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp "$PACK/$b.jar" dev.spindle.bench.quick.ForkJoinDiagnostics $N 8 fib,nqueens,uts > "$R/fjdiag17-$N-$b-$p.txt" 2>&1
  echo "$b-$p rc=$? t=$SECONDS"; tar czf "$OUT/results17.tgz" -C "$R" .
done; done
