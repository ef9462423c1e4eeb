#!/bin/bash
# decompose.sh JAR [JVMS]: spawn and run cost of the async runtime against CompletableFuture on a
# ForkJoinPool, 1 and 2 workers, one fresh JVM per line, the sides alternated. Compile first:
#   javac -cp JAR *.java   (in this directory)
# SpawnCount: a task spawns 10,000 children that count down (no handles read);
# SpawnPhase / CfPhase: the suite's spawn_many shape (the parent reads every handle / allOf);
# Probe / CfProbe: a suite workload's ns, bytes and scheduler counters per operation.
jar=$1; k=${2:-3}
for ((j=0;j<k;j++)); do
  for w in 1 2; do
    for m in spindle cf cfa; do java -Dw=$w -cp $jar:. SpawnCount $m 2000; done
    java -Dw=$w -cp $jar:. SpawnPhase 2000; java -Dw=$w -cp . CfPhase 2000; java -Dw=$w -Dasync=true -cp . CfPhase 2000
    java -Dw=$w -cp $jar:. Probe ping_pong 3000; java -Dw=$w -cp $jar:. CfProbe ping_pong 3000 false; java -Dw=$w -cp $jar:. CfProbe ping_pong 3000 true
  done
done
