#!/bin/bash
# proff.sh JAR KIND TAG [secs] : fib(30) on 2 workers
J=$1; K=$2; T=$3; S=${4:-10}
LD_LIBRARY_PATH=/tmp/hsdis perf record -q -e cpu-clock -F 10000 -o /tmp/h/$T.data java -XX:+UnlockDiagnosticVMOptions -XX:+PrintAssembly -XX:PrintAssemblyOptions=intel -cp $J:/tmp/h FO 2 $K $S > /tmp/h/$T.asm 2>&1
grep -a "median" /tmp/h/$T.asm
