/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.Hints;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link ComputeTask} given to a pool's {@code execute} (or a {@link WorkStealingPool}'s
 * {@code spawn}) is bound before it is queued ({@code ForkTask.prepareToQueue}). When the
 * queue's offer threw an {@link OutOfMemoryError} (no room for a segment, or for a priority
 * level), the submitter got the error but the task stayed bound, in no queue: a {@code get} or
 * {@code join} from any thread waited for good, and submitting it again threw "a task can be
 * forked once; ... already was". Only a {@code RejectedExecutionException} undid the binding.
 * Now the task is left as it was, as a {@link java.util.concurrent.ForkJoinPool} leaves a task
 * whose fork or execute failed: not started, so its {@code get} says nothing will run it, and it
 * can be submitted again.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ComputeTaskWhoseQueueingFailsTest {

    static final class Answer extends ComputeTask<Integer> {
        @Override
        protected Integer compute() {
            return 42;
        }
    }

    @AfterEach
    void clearSeams() {
        ForkTask.beforePreparedOffer = null;
        WorkSharingPool.beforeHandOff = null;
    }

    private static AtomicBoolean failNextOffer() {
        AtomicBoolean armed = new AtomicBoolean(true);
        ForkTask.beforePreparedOffer = () -> {
            if (armed.compareAndSet(true, false)) {
                throw new OutOfMemoryError("no room to queue the task (thrown by the test)");
            }
        };
        return armed;
    }

    /**
     * The task a failed submission left: not started (before: the timed get timed out, as a
     * plain get or join waits for ever), and accepted by {@code resubmit}, which runs it (before:
     * IllegalStateException "a task can be forked once").
     */
    private static void assertLeftAsItWas(Answer task, Consumer<Answer> resubmit) throws Exception {
        assertThatThrownBy(() -> task.get(10, TimeUnit.SECONDS))
                .as("a get of the task the failed submission left")
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("never forked");
        resubmit.accept(task);
        assertThat(task.get(30, TimeUnit.SECONDS)).isEqualTo(42);
    }

    private static void assertExternalExecuteLeavesTaskAsItWas(ExecutorService pool) throws Exception {
        failNextOffer();
        Answer task = new Answer();
        assertThat(catchThrowable(() -> pool.execute(task))).isInstanceOf(OutOfMemoryError.class);
        assertLeftAsItWas(task, pool::execute);
    }

    /** From a worker of {@code pool}: {@code submit} runs there, {@code then} checks outside. */
    private static Throwable fromWorker(ExecutorService pool, Runnable submit) throws Exception {
        CompletableFuture<Throwable> seen = new CompletableFuture<>();
        pool.execute(() -> seen.complete(catchThrowable(submit::run)));
        return seen.get(30, TimeUnit.SECONDS);
    }

    @Test
    void priorityPoolExternalExecute() throws Exception {
        try (PriorityPool pool = PriorityPool.builder().workers(2).name("prio-oom").build()) {
            assertExternalExecuteLeavesTaskAsItWas(pool);
        }
    }

    @Test
    void priorityPoolExecuteAtANewPriorityFromAWorker() throws Exception {
        try (PriorityPool pool = PriorityPool.builder().workers(2).name("prio-oom-w").build()) {
            failNextOffer();
            Answer task = new Answer();
            Hints urgent = Hints.ofPriority(-5);
            assertThat(fromWorker(pool, () -> pool.execute(task, urgent))).isInstanceOf(OutOfMemoryError.class);
            assertLeftAsItWas(task, t -> pool.execute(t, urgent));
        }
    }

    @Test
    void pinnedPoolExternalExecute() throws Exception {
        try (PinnedPool pool = PinnedPool.builder().workers(2).name("pinned-oom").build()) {
            assertExternalExecuteLeavesTaskAsItWas(pool);
        }
    }

    @Test
    void pinnedPoolExecuteFromAWorker() throws Exception {
        try (PinnedPool pool = PinnedPool.builder().workers(2).name("pinned-oom-w").build()) {
            failNextOffer();
            Answer task = new Answer();
            Hints other = Hints.DEFAULT.withWorkerIndex(1);
            assertThat(fromWorker(pool, () -> pool.execute(task, other))).isInstanceOf(OutOfMemoryError.class);
            assertLeftAsItWas(task, t -> pool.execute(t, other));
        }
    }

    @Test
    void workSharingPoolExternalExecute() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("sharing-oom").build()) {
            assertExternalExecuteLeavesTaskAsItWas(pool);
        }
    }

    @Test
    void workSharingPoolYieldingExecuteFromAWorker() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("sharing-oom-y").build()) {
            failNextOffer();
            Answer task = new Answer();
            Hints yielding = Hints.DEFAULT.withYielding(true);
            assertThat(fromWorker(pool, () -> pool.execute(task, yielding))).isInstanceOf(OutOfMemoryError.class);
            assertLeftAsItWas(task, pool::execute);
        }
    }

    /** The caller's task displaces the slot task, whose move to the shared queue fails: the caller's is refused. */
    @Test
    void workSharingPoolExecuteThatDisplacesASlotTaskFromAWorker() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("sharing-oom-slot").build()) {
            AtomicBoolean failNext = new AtomicBoolean();
            WorkSharingPool.beforeHandOff = () -> {
                if (failNext.compareAndSet(true, false)) {
                    throw new OutOfMemoryError("no room to queue the slot task (thrown by the test)");
                }
            };
            Answer task = new Answer();
            assertThat(fromWorker(pool, () -> {
                pool.execute(() -> { });           // into this worker's slot
                failNext.set(true);
                pool.execute(task);                // displaces it; its hand-off fails
            })).isInstanceOf(OutOfMemoryError.class);
            assertLeftAsItWas(task, pool::execute);
        }
    }

    @Test
    void workStealingPoolExternalExecute() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("stealing-oom").build()) {
            assertExternalExecuteLeavesTaskAsItWas(pool);
        }
    }

    @Test
    void workStealingPoolExternalSpawn() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("stealing-oom-spawn").build()) {
            failNextOffer();
            Answer task = new Answer();
            assertThat(catchThrowable(() -> pool.spawn(task))).isInstanceOf(OutOfMemoryError.class);
            assertLeftAsItWas(task, pool::spawn);
        }
    }

    @Test
    void workStealingPoolYieldingExecuteFromAWorker() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("stealing-oom-y").build()) {
            failNextOffer();
            Answer task = new Answer();
            Hints yielding = Hints.DEFAULT.withYielding(true);
            assertThat(fromWorker(pool, () -> pool.execute(task, yielding))).isInstanceOf(OutOfMemoryError.class);
            assertLeftAsItWas(task, pool::execute);
        }
    }
}
