#!/bin/bash
cd /tmp/s47; mkdir -p full8 lat8
java -jar v4.jar bench --progress none > full8/v4-full-jdk17.txt 2>&1
/usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar v4.jar bench --progress none > full8/v4-full-jdk25.txt 2>&1
for rep in 1 2 3 4 5; do for j in base v4; do java -jar $j.jar bench --workloads=latency --progress none > lat8/$j-$rep.txt 2>&1; done; done
echo DONE > full8/DONE
