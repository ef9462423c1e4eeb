/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Spindle;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * A spare that parked while its blocked worker still needed it sleeps out its keep-alive. A task
 * that then queued work on its own worker and waited for it, unseen
 * ({@code CompletableFuture.supplyAsync(x, pool).join()}), woke nobody: the idle protocol does
 * not wake a spare the pool does not need (no worker is in a blocking section), the spare had
 * nothing to watch when it parked, and the starvation watch looked only at pools with no parked
 * worker at all. The wait lasted until the spare's keep-alive ran out (60 s by default; here
 * ten minutes), where the class overview promises a spare within about 20 ms.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StarvationBesideAParkedSpareTest {

    @RepeatedTest(3)
    void aWaitUnseenBesideAParkedSpareIsRelieved() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .spareKeepAlive(Duration.ofMinutes(10)).build();
        AtomicReference<CompletableFuture<Integer>> inner = new AtomicReference<>();
        try {
            // a blocking section starts the spare, which finds nothing to do and parks while the
            // section still needs it: it sleeps out its keep-alive
            pool.submit(() -> {
                Spindle.blocking(() -> FailureTest.waitUntil(
                        () -> pool.stats().liveWorkers() == 2 && pool.stats().parkedWorkers() == 1));
                return null;
            }).get(30, TimeUnit.SECONDS);
            FailureTest.waitUntil(() -> pool.stats().parkedWorkers() == 2);
            assertThat(pool.stats().liveWorkers()).as("the spare lingers, parked").isEqualTo(2);

            CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(() -> {
                CompletableFuture<Integer> in = CompletableFuture.supplyAsync(() -> 41, pool);
                inner.set(in);
                return in.join() + 1;          // untimed and unseen: only the watch can help
            }, pool);
            assertThat(outer.get(20, TimeUnit.SECONDS)).as("the outer task, whose inner one its worker queued")
                    .isEqualTo(42);
        } finally {
            CompletableFuture<Integer> in = inner.get();
            if (in != null) {
                in.complete(-1);               // frees the waiting worker if the pool did not
            }
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }
}
