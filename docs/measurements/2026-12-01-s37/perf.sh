#!/bin/bash
# perf.sh JAR: cpu-clock samples of SpawnCount on one worker, Spindle and CompletableFuture (LIFO pool),
# matched to the JIT's code (-XX:+PrintAssembly) by ann.py. Needs hsdis: build
# ../2026-11-27-s12-forktask/hsdis-capstone.c (apt-get install libcapstone-dev; gcc -O2 -shared -fPIC
# -o hsdis-amd64.so hsdis-capstone.c -lcapstone) and copy it into the JDK's lib directory
# (LD_LIBRARY_PATH alone was not enough for OpenJDK 17 here). Classes compiled into ./cls.
jar=$1
for m in spindle cf; do
  perf record -q -e cpu-clock -F 5000 -o p-$m.data -- java -Dw=1 -XX:+UnlockDiagnosticVMOptions \
      -XX:+PrintAssembly -cp $jar:cls SpawnCount $m 6000 > asm-$m.txt 2>&1
  perf script -i p-$m.data -F comm,ip 2>/dev/null | grep -v "^\s*java " > ips-$m.txt
  python3 ann.py asm-$m.txt ips-$m.txt 40 > perf-spawncount-1w-$m.txt
  perf report -i p-$m.data --stdio --sort comm,dso | grep -v "^#" | grep -v "^$" | head -12 > perf-spawncount-1w-$m-dso.txt
done
