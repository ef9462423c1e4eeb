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
 * {@code submit} of a {@link ComputeTask} binds the task ({@code ForkTask.prepareToQueue}) and
 * queues a future that runs it. When queueing the future threw an {@link OutOfMemoryError} (here:
 * a {@link WorkSharingPool} worker's submission displaces its slot task, which has no room in the
 * shared queue, so the submission is refused), the submitter got the error but the task stayed
 * bound with nothing to run it: its {@code get} or {@code join} waited for good, and submitting it
 * again was refused as a second start. Only a {@code RejectedExecutionException} undid the
 * binding. Now the task is left as it was, as a failed {@code execute} leaves it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SubmitOfAComputeTaskThatCannotBeQueuedTest {

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
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("submit-oom").build()) {
            Answer task = new Answer();
            CompletableFuture<Throwable> seen = new CompletableFuture<>();
            pool.execute(() -> seen.complete(catchThrowable(() -> {
                pool.execute(() -> { });           // into this worker's slot
                failNext.set(true);
                pool.submit(task);                 // its future displaces it; the hand-off fails
            })));
            assertThat(seen.get(30, TimeUnit.SECONDS)).isInstanceOf(OutOfMemoryError.class);
            assertThatThrownBy(() -> task.get(10, TimeUnit.SECONDS))
                    .as("a get of the task the failed submit left")
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("never forked");
            pool.submit(task);
            assertThat(task.get(30, TimeUnit.SECONDS)).isEqualTo(42);
        }
    }
}
