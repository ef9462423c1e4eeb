#!/usr/bin/env bash
# Compares two builds of Spindle on one machine, alternating their jars A B B A B A A B ...
#
#   spindle-bench/scripts/ab.sh [-r ROUNDS] [-o DIR] [-s SUITE] JAR_A JAR_B [BENCH OPTIONS...]
#
# Each round runs `java -jar JAR bench [SUITE] --json BENCH OPTIONS` once per jar, writing
# DIR/<suite>-A-<round>.json and DIR/<suite>-B-<round>.json, then prints compare-runs.py's table
# (every JVM's ratio, the medians, a rank test). SUITE is empty for fork/join (files named fj-…),
# or async, actors. Pass --forks N among the options to run N JVMs per jar and round. DIR (default:
# a new temporary one) must hold no reports of an earlier run, which would count in this one's.
#
# Why the order: on a 2-core machine the second JVM of a back-to-back pair can run a workload
# several per cent slower whatever its build, so a fixed order A B A B credits the difference
# to B. Rounds alternate which jar goes first (A B, B A, B A, A B: each half of a round of four
# is the mirror of the other), so that the order effect cancels in the medians.
#
# Example (JDK 17, 2 workers, 4 rounds of 3 JVMs per jar):
#   spindle-bench/scripts/ab.sh -r 4 -o /tmp/ab before.jar spindle-cli/target/spindle.jar \
#       --workers 2 --forks 3 --workloads=fib,fib-spawn,uts --progress=none
set -euo pipefail

rounds=4 out= suite=
while getopts "r:o:s:" opt; do
  case $opt in
    r) rounds=$OPTARG ;;
    o) out=$OPTARG ;;
    s) suite=$OPTARG ;;
    *) sed -n '2,19p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then sed -n '2,19p' "$0"; exit 2; fi
jar_a=$1 jar_b=$2
shift 2
for j in "$jar_a" "$jar_b"; do
  [ -f "$j" ] || { echo "ab.sh: no jar at $j" >&2; exit 2; }
done
case $rounds in ''|*[!0-9]*|0) echo "ab.sh: -r needs a positive number, was '$rounds'" >&2; exit 2 ;; esac
# compare-runs.py reads the ratios of these suites' reports; an echo or cluster report has none,
# and the comparison came out as a table without a row after both jars had run for the whole time
case $suite in
  ''|async|actors) ;;
  *) echo "ab.sh: -s must be async or actors (or absent for the fork/join suite), was '$suite'" >&2; exit 2 ;;
esac
out=${out:-$(mktemp -d)}
mkdir -p "$out"
tag=${suite:-fj}
# compare-runs.py reads every $tag-A-*.json and $tag-B-*.json in DIR: the reports an earlier run
# left there (of rounds this one does not reach, of other jars perhaps) would go silently into
# this run's medians and rank test. Matched by the shell's glob, as compare-runs.py matches them:
# `find | sort | head` under pipefail died of SIGPIPE (exit 141, no message) once there were many.
shopt -s nullglob
stale=("$out/$tag-A-"*.json "$out/$tag-B-"*.json)
shopt -u nullglob
if (( ${#stale[@]} > 0 )); then
  echo "ab.sh: $out already holds reports of an earlier run (${#stale[@]}: ${stale[*]:0:3}...);" \
    "give -o an empty or new directory" >&2
  exit 2
fi
java=${JAVA:-java}
jvm_opts=${JVM_OPTS:--Xms2g -Xmx2g -XX:+AlwaysPreTouch}

run() { # run LABEL JAR ROUND
  local file=$out/$tag-$1-$3.json
  echo "round $3: $1 ($2)" >&2
  # shellcheck disable=SC2086
  "$java" $jvm_opts -jar "$2" bench $suite --json "${@:4}" > "$file" 2> "$out/$tag-$1-$3.err"
}

for ((r = 1; r <= rounds; r++)); do
  # A B, B A, B A, A B, then again: the second half of every four rounds mirrors the first.
  case $(( (r - 1) % 4 )) in
    0|3) run A "$jar_a" "$r" "$@"; run B "$jar_b" "$r" "$@" ;;
    *)   run B "$jar_b" "$r" "$@"; run A "$jar_a" "$r" "$@" ;;
  esac
done
echo "A = $jar_a, B = $jar_b, raw reports in $out" >&2
exec python3 "$(dirname "$0")/compare-runs.py" "$out" "$tag" A B
