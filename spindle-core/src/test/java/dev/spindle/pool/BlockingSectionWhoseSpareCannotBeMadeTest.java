/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Spindle;
import dev.spindle.Task;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker entering a blocking section counts itself as blocked and then starts a spare. An
 * error while it started one (an {@link OutOfMemoryError} making the spare) left the worker
 * counted as inside a section for good, though the section never ran: the pool reported it
 * blocked for ever, and the starvation watch, which leaves such a worker out (the pool
 * compensates for it already), never relieved the pool once that worker waited unseen.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BlockingSectionWhoseSpareCannotBeMadeTest {

    /** Before: the worker stayed counted as blocked, and the starving pool was never relieved. */
    @Test
    void aFailedEntryLeavesTheWorkerOutsideTheSection() throws Exception {
        AtomicBoolean failOnce = new AtomicBoolean(true);
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .name("failed-spare").build();
        try {
            Spares.beforeNewSpare = () -> {
                if (failOnce.compareAndSet(true, false)) {
                    throw new OutOfMemoryError("no room for a spare (thrown by the test)");
                }
            };
            AtomicBoolean sectionRan = new AtomicBoolean();
            CompletableFuture<Void> blocking = CompletableFuture.runAsync(
                    () -> Spindle.blocking(() -> sectionRan.set(true)), pool);
            assertThatThrownBy(() -> blocking.get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(OutOfMemoryError.class);
            assertThat(sectionRan).isFalse();
            Spares.beforeNewSpare = null;
            assertThat(pool.stats().blockedWorkers()).as("workers counted as blocked").isZero();

            // the one worker waits untimed, unseen by the pool, for a task queued behind it
            CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(
                    () -> CompletableFuture.supplyAsync(() -> 41, pool).join() + 1, pool);
            assertThat(outer).as("the starving pool is relieved")
                    .succeedsWithin(Duration.ofSeconds(10)).isEqualTo(42);
        } finally {
            Spares.beforeNewSpare = null;
            pool.shutdownNow();
        }
    }

    /**
     * A join that waits long counts its worker as blocked the same way; an entry that fails and
     * undoes itself must not be left a second time when the join ends.
     */
    @Test
    void aJoinWhoseEntryFailsLeavesTheCountsAsTheyWere() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(1)
                .name("failed-join-spare").build();
        CountDownLatch release = new CountDownLatch(1);
        try {
            CountDownLatch started = new CountDownLatch(1);
            Task<Integer> awaited = pool.spawn(() -> {
                started.countDown();
                release.await();
                return 1;
            });
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            AtomicBoolean failOnce = new AtomicBoolean(true);
            Spares.beforeNewSpare = () -> {
                if (failOnce.compareAndSet(true, false)) {
                    throw new OutOfMemoryError("no room for a spare (thrown by the test)");
                }
            };
            CompletableFuture<Integer> joiner = CompletableFuture.supplyAsync(awaited::join, pool);
            assertThatThrownBy(() -> joiner.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(OutOfMemoryError.class);
            Spares.beforeNewSpare = null;
            assertThat(pool.stats().blockedWorkers()).as("workers counted as blocked").isZero();
            for (Worker w : pool.workers) {
                if (w != null) {
                    assertThat(w.blockingDepth).as("the section depth of worker %d", w.index).isZero();
                }
            }
        } finally {
            Spares.beforeNewSpare = null;
            release.countDown();
            pool.shutdownNow();
        }
    }
}
