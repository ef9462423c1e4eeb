#!/bin/bash
# prof.sh JAR WORKLOAD KIND TAG [secs]
J=$1; WL=$2; K=$3; T=$4; S=${5:-8}
LD_LIBRARY_PATH=/tmp/hsdis perf record -q -e cpu-clock -F 10000 -o /tmp/h/$T.data java -XX:+UnlockDiagnosticVMOptions -XX:+PrintAssembly -XX:PrintAssemblyOptions=intel -cp $J:/tmp/h MP $WL $K 2 $S > /tmp/h/$T.asm 2>&1
grep -a "^$WL" /tmp/h/$T.asm
perf report -i /tmp/h/$T.data --no-children --sort comm 2>/dev/null | grep -v "^#" | grep . | head -4
