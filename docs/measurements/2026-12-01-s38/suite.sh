#!/bin/bash
# session 38: head (7d56e0ee) vs p2 (a poll begins without the start CAS), in-JVM A/B (ABN), with
# CompletableFuture (LIFO and asyncMode pools) beside them
cd /tmp/s38
echo "== JDK 17, 1 worker"
for wl in ping_pong spawn_many; do W=1 ROUNDS=3000 /work/main/docs/measurements/2026-12-01-s36/abn.sh $wl 4 h38.jar p38b.jar 2>&1 | tail -2; done
echo "== JDK 17, 2 workers, with CF"
for wl in ping_pong spawn_many chained_spawn yield_many; do ROUNDS=3000 /work/main/docs/measurements/2026-12-01-s36/abn.sh $wl 4 h38.jar p38b.jar h38.jar@/tmp/abx/cf-lifo h38.jar@/tmp/abx/cf-async 2>&1 | tail -4; done
echo "== JDK 25, 2 workers, with CF"
export PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
for wl in ping_pong spawn_many; do ROUNDS=3000 /work/main/docs/measurements/2026-12-01-s36/abn.sh $wl 4 h38.jar p38b.jar h38.jar@/tmp/abx/cf-lifo h38.jar@/tmp/abx/cf-async 2>&1 | tail -4; done
echo "== JDK 25, 1 worker"
for wl in ping_pong spawn_many; do W=1 ROUNDS=3000 /work/main/docs/measurements/2026-12-01-s36/abn.sh $wl 4 h38.jar p38b.jar 2>&1 | tail -2; done
