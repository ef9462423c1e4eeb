/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.pool.OverflowIntoAnInjectorThatCannotGrowTest.Fan;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker whose deque is full moves its older half to the injector through a buffer it makes
 * the first time ({@code Worker.overflow}). Where the heap had no room for that buffer, the
 * {@link OutOfMemoryError} left overflow with the task that overflowed in hand: a fork whose
 * own task the fork stack already held threw, and the older fork the stack had handed back
 * for the deque was in no queue, its join waiting for good; a runnable submitted from the
 * worker was refused with the error. Now the task goes to the injector without the move (or runs
 * in place), and the buffer is made at a later overflow.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OverflowBufferThatCannotBeMadeTest {

    @AfterEach
    void clearSeam() {
        Worker.beforeOverflowBuffer = null;
    }

    /** The next allocation of the buffer throws, once. */
    private static AtomicBoolean failNextBuffer() {
        AtomicBoolean armed = new AtomicBoolean(true);
        Worker.beforeOverflowBuffer = () -> {
            if (armed.compareAndSet(true, false)) {
                throw new OutOfMemoryError("no room for the overflow buffer (thrown by the test)");
            }
        };
        return armed;
    }

    @Test
    void forksFromAWorkerAllJoin() throws Exception {
        int n = 2_000;
        // no spares: the one worker alone takes from its deque and the injector
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).localQueueCapacity(256).build()) {
            AtomicBoolean armed = failNextBuffer();
            CompletableFuture<Long> sum = new CompletableFuture<>();
            pool.execute(() -> {
                try {
                    sum.complete(new Fan(n).invoke());
                } catch (Throwable e) {
                    sum.completeExceptionally(e);
                }
            });
            // before: a fork threw the OutOfMemoryError (and had the join waited instead, the
            // fork handed back was in no queue)
            assertThat(sum).succeedsWithin(30, TimeUnit.SECONDS).isEqualTo((long) n * (n - 1) / 2);
            assertThat(armed).as("the buffer allocation failed once").isFalse();
        }
    }

    @Test
    void runnablesSubmittedFromAWorkerAllRun() throws Exception {
        int n = 2_000;
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).localQueueCapacity(256).build()) {
            AtomicBoolean armed = failNextBuffer();
            Semaphore ran = new Semaphore(0);
            CompletableFuture<List<Throwable>> submitted = new CompletableFuture<>();
            pool.execute(() -> {
                List<Throwable> failures = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    try {
                        pool.execute(ran::release);
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }
                submitted.complete(failures);
            });
            List<Throwable> failures = submitted.get(30, TimeUnit.SECONDS);
            assertThat(armed).as("the buffer allocation failed once").isFalse();
            assertThat(failures).as("executes that threw (before: the one that overflowed, refused)").isEmpty();
            assertThat(ran.tryAcquire(n, 30, TimeUnit.SECONDS))
                    .as("every task ran (%d of %d)", ran.availablePermits(), n)
                    .isTrue();
        }
    }
}
