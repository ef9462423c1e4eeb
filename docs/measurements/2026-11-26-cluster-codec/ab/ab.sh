#!/usr/bin/env bash
# alternates the fat jars of the base (cl-base) and the change (cl-new), Spindle only
set -u
out=/work/wt-s5-cluster/docs/measurements/2026-11-26-cluster-codec/ab
args=/work/wt-s5-cluster/spindle-cluster-hazelcast/jvm.args
for run in new-1 base-1 new-2 base-2; do
  jar=/tmp/cl-${run%-*}.jar
  echo "$run start $(date -u +%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/load.txt
  SPINDLE_JAVA_OPTS="@$args" java @$args -jar $jar bench cluster --configs processes --shapes tiny,tree --json > $out/spindle-$run.json 2> $out/spindle-$run.err
  echo "$run end $(date -u +%H:%M:%S) rc=$? load $(cut -d' ' -f1-3 /proc/loadavg)" >> $out/load.txt
done
