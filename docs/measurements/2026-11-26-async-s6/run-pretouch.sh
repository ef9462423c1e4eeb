#!/bin/bash
# As run.sh, async suite on JDK 17 only, with the heap fixed and touched up front
# (-Xms2g -Xmx2g -XX:+AlwaysPreTouch), so that no measured round pays first-touch page faults;
# runs numbered from FIRST.  usage: run-pretouch.sh BASE_JAR NEW_JAR FIRST LAST OUTDIR
base=$1; new=$2; first=$3; last=$4; out=$5; mkdir -p "$out"
one() { # label jar file
  echo "$(date -u +%H:%M:%S) $1 $(cut -d' ' -f1-3 /proc/loadavg)" >> "$out/load.txt"
  nice -n -20 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -jar "$2" bench async --json --progress=none 2>/dev/null \
    | sed -n '/^{/,$p' > "$out/$3"
}
for i in $(seq "$first" "$last"); do
  one "async base $i jdk17 pretouch" "$base" async-base-$i.json
  one "async new $i jdk17 pretouch" "$new" async-new-$i.json
done
echo "$(date -u +%H:%M:%S) done" >> "$out/load.txt"
