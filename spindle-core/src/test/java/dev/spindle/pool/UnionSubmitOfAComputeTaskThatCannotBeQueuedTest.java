/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code submit} of a {@link ComputeTask} to a {@link SchedulerUnion} whose member 0 is a
 * {@link WorkSharingPool}: the union binds the task as that pool would, and routes a future that
 * runs it. When the member's {@code execute} threw an {@link OutOfMemoryError} before it queued
 * the future (here: a worker's submission displaces its slot task, which has no room in the
 * shared queue), the pool's own {@code submit} leaves the task as it was
 * ({@link SubmitOfAComputeTaskThatCannotBeQueuedTest}), but the union's left it bound with
 * nothing to run it: its {@code get} or {@code join} waited for good, and submitting it again was
 * refused as a second start. The union now asks member 0 whether its errors leave a task
 * unqueued, as it asks member 0 how to bind it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnionSubmitOfAComputeTaskThatCannotBeQueuedTest {

    static final class Answer extends ComputeTask<Integer> {
        @Override
        protected Integer compute() {
            return 42;
        }
    }

    @AfterEach
    void clearSeam() {
        WorkSharingPool.beforeHandOff = null;
    }

    /** Before: the timed get timed out ("task not completed within 10 SECONDS"). */
    @Test
    void aSubmitThatThrowsLeavesTheTaskAsItWas() throws Exception {
        AtomicBoolean failNext = new AtomicBoolean();
        WorkSharingPool.beforeHandOff = () -> {
            if (failNext.compareAndSet(true, false)) {
                throw new OutOfMemoryError("no room to queue the slot task (thrown by the test)");
            }
        };
        WorkSharingPool member = WorkSharingPool.builder().workers(1).name("union-submit-oom").build();
        try (SchedulerUnion union = SchedulerUnion.owning(member)) {
            Answer task = new Answer();
            CompletableFuture<Throwable> seen = new CompletableFuture<>();
            union.execute(() -> seen.complete(catchThrowable(() -> {
                union.execute(() -> { });          // into this worker's slot
                failNext.set(true);
                union.submit(task);                // its future displaces it; the hand-off fails
            })));
            assertThat(seen.get(30, TimeUnit.SECONDS)).isInstanceOf(OutOfMemoryError.class);
            assertThatThrownBy(() -> task.get(10, TimeUnit.SECONDS))
                    .as("a get of the task the failed submit left")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("never forked");
            union.submit(task);
            assertThat(task.get(30, TimeUnit.SECONDS)).isEqualTo(42);
        }
    }
}
