#!/usr/bin/env bash
# Alternates the echo benchmark of the starting commit's jar (BASE) and of this change's jar
# (NEW, which runs 'spindle' with selector threads and 'spindle-io-workers' side by side with
# Netty) three times each, 2 workers, JDK 17. Raw output: base-N.txt, new-N.txt.
set -u
base="${BASE_JAR:-/tmp/s4-base.jar}"
new="${NEW_JAR:-spindle-cli/target/spindle.jar}"
out="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
for i in 1 2 3; do
  for which in base new; do
    jar=$base; [[ $which == new ]] && jar=$new
    { date -u; cat /proc/loadavg; } > "$out/$which-$i.txt"
    java -jar "$jar" bench echo --workers 2 --progress none >> "$out/$which-$i.txt" 2>&1
    cat /proc/loadavg >> "$out/$which-$i.txt"
  done
done
