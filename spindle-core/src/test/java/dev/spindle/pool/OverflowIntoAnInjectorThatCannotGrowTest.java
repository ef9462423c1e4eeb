/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.queue.InjectorSeams;
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
 * A worker whose deque is full moves its older half to the injector ({@code Worker.overflow}).
 * When the injector could not allocate the segment the move needed (an
 * {@link OutOfMemoryError}), the tasks taken from the deque but not yet appended were lost, as
 * {@code offerAll} did not say how many it took: their joins waited for good, and a fork whose
 * own task was already on the fork stack threw. Now what did not go in goes back to the deque,
 * and the push that overflowed goes on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OverflowIntoAnInjectorThatCannotGrowTest {

    @AfterEach
    void clearSeam() {
        InjectorSeams.beforeNewSegment(null);
    }

    /** The next segment allocation throws, once. */
    private static AtomicBoolean failNextSegment() {
        AtomicBoolean armed = new AtomicBoolean(true);
        InjectorSeams.beforeNewSegment(() -> {
            if (armed.compareAndSet(true, false)) {
                throw new OutOfMemoryError("no room for an injector segment (thrown by the test)");
            }
        });
        return armed;
    }

    /**
     * A task submits a burst from its worker: the deque (256) overflows 128 at a time, and the
     * 8th move crosses the injector's first segment (1024 slots), whose successor cannot be made.
     */
    @Test
    void runnablesSubmittedFromAWorkerAllRun() throws Exception {
        int n = 2_000;
        // no spares: the one worker alone takes from its deque and the injector
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).localQueueCapacity(256).build()) {
            AtomicBoolean armed = failNextSegment();
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
            assertThat(armed).as("the segment allocation failed once").isFalse();
            int accepted = n - failures.size();
            // before: one task taken from the deque for the injector was in neither
            assertThat(ran.tryAcquire(accepted, 30, TimeUnit.SECONDS))
                    .as("every accepted task ran (%d of %d; executes that threw: %s)",
                            ran.availablePermits(), accepted, failures)
                    .isTrue();
            assertThat(failures).as("executes that threw").isEmpty();
        }
    }

    static final class Leaf extends ComputeTask<Integer> {
        final int value;

        Leaf(int value) {
            this.value = value;
        }

        @Override
        protected Integer compute() {
            return value;
        }
    }

    /** Forks spill from the fork stack into the deque, and from it into the injector. */
    static final class Fan extends ComputeTask<Long> {
        final int n;

        Fan(int n) {
            this.n = n;
        }

        @Override
        protected Long compute() {
            List<Leaf> leaves = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                Leaf leaf = new Leaf(i);
                leaf.fork();                   // before: one threw, its leaf queued, another lost
                leaves.add(leaf);
            }
            long sum = 0;
            for (int i = leaves.size() - 1; i >= 0; i--) {
                sum += leaves.get(i).join();
            }
            return sum;
        }
    }

    @Test
    void forksFromAWorkerAllJoin() throws Exception {
        int n = 2_000;
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).localQueueCapacity(256).build()) {
            AtomicBoolean armed = failNextSegment();
            CompletableFuture<Long> sum = new CompletableFuture<>();
            pool.execute(() -> {
                try {
                    sum.complete(new Fan(n).invoke());
                } catch (Throwable e) {
                    sum.completeExceptionally(e);
                }
            });
            assertThat(sum).succeedsWithin(30, TimeUnit.SECONDS).isEqualTo((long) n * (n - 1) / 2);
            assertThat(armed).as("the segment allocation failed once").isFalse();
        }
    }
}
