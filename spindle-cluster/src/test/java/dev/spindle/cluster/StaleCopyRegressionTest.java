/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Session-25 review: with {@code forgetReleased}, a fetch of a key started before the key was
 * released and forgotten lands after the key was submitted again; the worker keeps the old value
 * under the new key's name and the scheduler counts it as a holder of the new one.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StaleCopyRegressionTest {

    @Test
    void aCopyOfAForgottenKeyThatLandsAfterTheKeyWasSubmittedAgainIsNeverUsed() throws Exception {
        Map<String, CompletableFuture<Object>> held = new ConcurrentHashMap<>();   // until the test completes them
        OneRealWorker w = new OneRealWorker(0, (key, holder) -> held.computeIfAbsent(key + "@" + holder,
                k -> new CompletableFuture<>()));
        GraphScheduler s = new GraphScheduler(CoordinatorSettings.builder().workers(3).threadsPerWorker(1)
                .bandwidth(100e6).latency(Duration.ofMillis(1)).stealing(false).balanceInterval(Duration.ZERO)
                .retries(1).defaultDuration(Duration.ofMillis(500)).forgetReleased(true).build(), w);
        w.scheduler = s;
        CountDownLatch busy = new CountDownLatch(1);
        try {
            // k (1 MB) on worker 2, m on worker 1; both busy, so t goes to worker 0, which fetches k and m
            s.submit(List.of(TaskSpec.builder("k", args -> 1).restrictions(Restrictions.strict(Set.of(2))).build()));
            w.settle();
            s.receive(new Message.TaskFinished(2, "k", w.last(2, "k").attempt(), 1, 1_000_000, 1000));
            s.submit(List.of(TaskSpec.builder("m", args -> 10).restrictions(Restrictions.strict(Set.of(1))).build()));
            w.finish(1, "m", 10);
            for (int i = 1; i <= 2; i++) {
                s.submit(List.of(TaskSpec.builder("busy-" + i, args -> 0).restrictions(Restrictions.strict(Set.of(i)))
                        .durationHint(Duration.ofSeconds(10)).build()));
            }
            s.submit(List.of(TaskSpec.builder("t", args -> (Integer) args.get(0) + (Integer) args.get(1))
                    .dependsOn("k", "m").build()));
            w.settle();
            assertThat(w.last(0, "t")).as("t placed on worker 0").isNotNull();
            assertThat(held).containsKeys("k@2", "m@1");
            // worker 0 becomes busy; its fetch of m fails, so t is placed again on worker 2 and finishes
            s.submit(List.of(TaskSpec.builder("busy-0", args -> {
                busy.await();
                return 0;
            }).restrictions(Restrictions.strict(Set.of(0))).durationHint(Duration.ofSeconds(100)).build()));
            w.finish(1, "busy-1", 0);
            w.finish(2, "busy-2", 0);
            held.get("m@1").completeExceptionally(new IllegalStateException("gone"));
            w.settle();
            w.finish(1, "m", 10);
            assertThat(w.last(2, "t")).as("t placed again on worker 2").isNotNull();
            w.finish(2, "t", 11);
            for (String key : List.of("k", "m", "t", "busy-1", "busy-2")) {
                s.releaseFuture(key);
            }
            w.settle();
            assertThat(s.taskRecords()).as("k, m and t are forgotten").isEqualTo(1);   // busy-0 remains

            // the client submits a new k, which worker 1 computes: 2
            s.submit(List.of(TaskSpec.builder("k", args -> 2).restrictions(Restrictions.strict(Set.of(1))).build()));
            w.settle();
            w.finish(1, "k", 2);
            // only now does worker 0's fetch of the old k complete: 1
            held.get("k@2").complete(1);
            w.settle();

            CompletableFuture<Object> d = s.submit(List.of(TaskSpec.builder("d", args -> args.get(0)).dependsOn("k")
                    .restrictions(Restrictions.strict(Set.of(0))).build())).get(0);
            busy.countDown();
            w.settle();
            CompletableFuture<Object> fetchNewK = held.get("k@1");
            if (fetchNewK != null) {
                fetchNewK.complete(2);        // worker 1 serves the new k, if worker 0 asks for it
            }
            assertThat(d.get(10, TimeUnit.SECONDS)).as("d's input is the new k, computed as 2").isEqualTo(2);
            assertThat(s.inspect((ws, e) -> ws.get(0).holds.contains("k")) && !w.real.store().contains("k"))
                    .as("the scheduler counts a copy on worker 0 that worker 0 does not hold").isFalse();
        } finally {
            busy.countDown();
            s.close();
            w.close();
        }
    }
}
