#!/usr/bin/env bash
# alternates the fat jars of the start of the session (cl6-base, 3b78a74) and the change (cl6-new), Spindle only
set -u
out=/work/wt-cluster6/docs/measurements/2026-11-26-cluster-s6/ab
args=/work/wt-cluster6/spindle-cluster-hazelcast/jvm.args
for run in new-1 base-1 new-2 base-2 new-3 base-3; do
  jar=/tmp/cl6-${run%-*}.jar
  echo "$run start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/load.txt
  SPINDLE_JAVA_OPTS="@$args" nice -n -20 java @$args -jar $jar bench cluster --configs processes --shapes tiny,tree --json > $out/spindle-$run.json 2> $out/spindle-$run.err
  echo "$run end $(date -u +%H:%M:%S) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/load.txt
done
