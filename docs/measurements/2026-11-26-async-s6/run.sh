#!/bin/bash
# Alternates two spindle.jar builds on the whole `bench async` suite (2 workers, the default),
# JDK 17 N times, then one pair on JDK 25, then `bench echo` of the new jar on JDK 17; the
# benchmark JVM at nice -20. The load average before each run goes to load.txt.
# usage: run.sh BASE_JAR NEW_JAR N OUTDIR
base=$1; new=$2; n=$3; out=$4; mkdir -p "$out/jdk25"
j17=java; j25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
one() { # jdk label jar file args...
  local jdk=$1 label=$2 jar=$3 file=$4; shift 4
  echo "$(date -u +%H:%M:%S) $label $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/load.txt"
  nice -n -20 $jdk -jar "$jar" "$@" --json --progress=none 2>/dev/null | sed -n '/^{/,$p' > "$out/$file"
}
for i in $(seq 1 "$n"); do
  one $j17 "async base $i jdk17" "$base" async-base-$i.json bench async
  one $j17 "async new $i jdk17" "$new" async-new-$i.json bench async
done
one $j25 "async base 1 jdk25" "$base" jdk25/async-base-1.json bench async
one $j25 "async new 1 jdk25" "$new" jdk25/async-new-1.json bench async
one $j17 "echo new jdk17" "$new" echo-new-jdk17.json bench echo
echo "$(date -u +%H:%M:%S) done" >> "$out/load.txt"
