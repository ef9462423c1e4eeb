#!/usr/bin/env bash
# usage: prof.sh s|f bounces secs wl  -> perf report of the workers' self time by symbol
set -e
cd /tmp/pp
J=/work/main/spindle-cli/target/spindle.jar
tag=$1-$4-$2
perf record -q -F 4999 -o /tmp/pp/$tag.data -- java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer -Xms1g -Xmx1g -XX:+AlwaysPreTouch -cp $J:. PPLong $1 $2 $3 $4 2>&1 | tail -1
perf report -i /tmp/pp/$tag.data --no-children --sort symbol --stdio 2>/dev/null | grep -v "^#" | grep -v "^$" | head -40 > /tmp/pp/$tag.txt
