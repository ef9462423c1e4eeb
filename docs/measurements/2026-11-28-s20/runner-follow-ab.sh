#!/bin/bash
cd /work/main
for i in 1 2 3 4; do
  for b in old new; do
    nice -n -20 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp .dev/$b.jar dev.spindle.bench.quick.ForkJoinDiagnostics 2 8 fib,nqueens,uts > /tmp/ab/w2-$b-$i.txt 2>&1
  done
done
for i in 1 2; do
  for b in old new; do
    nice -n -20 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp .dev/$b.jar dev.spindle.bench.quick.ForkJoinDiagnostics 4 8 fib,nqueens,uts > /tmp/ab/w4-$b-$i.txt 2>&1
  done
done
echo done > /tmp/ab/DONE
