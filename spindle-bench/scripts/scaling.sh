#!/usr/bin/env bash
# Runs the quick suites of `spindle bench` at several worker counts, to see how Spindle and its
# baselines scale on a machine with more cores than the 2 of the development machine.
#
#   spindle-bench/scripts/scaling.sh OUT_DIR [WORKER_COUNTS...]
#
# WORKER_COUNTS defaults to "2 4 8 N" (N = available processors, at most 64); each runs once, in
# ascending order. Writes one text table per suite and worker count into OUT_DIR:
#   env.txt          the JVM, the processor and the memory
#   fj-W.txt         the fork/join and message-passing suite (Spindle vs ForkJoinPool) on W workers;
#                    the latency and idle-CPU probes only at the largest W
#   actors-N.txt     actors (Spindle vs Pekko) at the largest W
#   async-N.txt      AsyncRuntime vs CompletableFuture at the largest W
# JAVA (default: java) and SPINDLE_JAR (default: spindle-cli/target/spindle.jar, built by
# ./spindle when missing) choose the JVM and the jar; JVM_OPTS its options (default, as the
# launcher and ab.sh give every bench JVM: -Xms2g -Xmx2g -XX:+AlwaysPreTouch); ROUNDS and WARMUP
# the rounds of each suite; SUITES (default "fj actors async") which suites run.
# Each suite runs under a time limit (SUITE_LIMIT seconds, default 150) so one stuck run cannot
# take the others' time.
set -uo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: scaling.sh OUT_DIR [WORKER_COUNTS...]}"
shift
mkdir -p "$out"
java="${JAVA:-java}"
# The heap fixed and touched up front, as ./spindle runs every bench suite and ab.sh every run:
# first-touch page faults of a growing heap made whole runs 2-4x slower at random (BENCHMARKS.md,
# session 6), and `java -jar` alone left them in every figure of this script.
jvm_opts="${JVM_OPTS:--Xms2g -Xmx2g -XX:+AlwaysPreTouch}"
jar="${SPINDLE_JAR:-$root/spindle-cli/target/spindle.jar}"
if [[ ! -f "$jar" ]]; then
  "$root/spindle" --version >/dev/null || exit 1
fi
cpus="$(nproc)"
(( cpus > 64 )) && cpus=64
if (( $# > 0 )); then counts=("$@"); else counts=(2 4 8 "$cpus"); fi
# Each count once, smallest first: the default repeats the processor count on a 2-, 4- or 8-core
# machine (the whole suite ran twice there), and counts given in any order must still put the
# probes and the other suites at the largest.
mapfile -t counts < <(printf '%s\n' "${counts[@]}" | sort -nu)
largest="${counts[-1]}"
rounds="${ROUNDS:-10}"
warmup="${WARMUP:-3}"
limit="${SUITE_LIMIT:-150}"
suites=" ${SUITES:-fj actors async} "

{
  date -u
  "$java" -version 2>&1
  echo "JVM options: $jvm_opts"
  echo "available processors: $(nproc)"
  grep -m1 'model name' /proc/cpuinfo
  grep -E 'MemTotal' /proc/meminfo
} > "$out/env.txt"
cat "$out/env.txt"

suite() { # name, then the arguments of `spindle bench`
  local name="$1"
  shift
  echo "== $name: bench $*"
  local start=$SECONDS
  # shellcheck disable=SC2086
  timeout "$limit" "$java" $jvm_opts -jar "$jar" bench "$@" --progress none --rounds "$rounds" --warmup "$warmup" \
    > "$out/$name.txt" 2>&1
  echo "   exit $? after $((SECONDS - start)) s"
}

[[ "$suites" == *" fj "* ]] && for w in "${counts[@]}"; do
  if [[ "$w" == "$largest" ]]; then
    suite "fj-$w" --workers "$w"
  else                                 # every workload but the probes (BenchScriptsRegressionTest keeps the list whole)
    suite "fj-$w" --workers "$w" \
      --workloads fib,fib-spawn,fib-cutoff,nqueens,uts,spawn-many-local,spawn-many-remote,yield-many,ping-pong,chained-spawn,skynet
  fi
done
[[ "$suites" == *" actors "* ]] && suite "actors-$largest" actors --workers "$largest"
[[ "$suites" == *" async "* ]] && suite "async-$largest" async --workers "$largest"
exit 0
