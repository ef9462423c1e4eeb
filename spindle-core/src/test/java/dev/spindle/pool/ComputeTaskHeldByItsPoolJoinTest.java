/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Hints;
import dev.spindle.Task;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A {@link ComputeTask} given to a {@link PinnedPool}, {@link WorkSharingPool} or
 * {@link PriorityPool} runs on a worker of that pool (a pinned pool's: the worker it went to), as
 * every task of that pool does, whoever joins it. A worker of a {@link WorkStealingPool} built
 * without spare workers ran a task it joined inline "wherever it is": one pinned to a busy worker
 * ran on the work-stealing pool's thread instead; one queued in a sharing or priority pool ran
 * there too, ahead of that pool's queue (a priority pool's more urgent tasks), out of reach of its
 * {@code shutdownNow} interrupt, and still running after its {@code awaitTermination} returned.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ComputeTaskHeldByItsPoolJoinTest {

    /** Returns the thread it ran on. */
    static final class WhereItRan extends ComputeTask<Thread> {
        @Override
        protected Thread compute() {
            return Thread.currentThread();
        }
    }

    @Test
    void aPinnedComputeTaskJoinedByAWorkerOfAPoolWithoutSparesRunsOnItsOwnWorker() throws Exception {
        joinedFromAPoolWithoutSpares(PoolKind.PINNED,
                (pool, task) -> pool.execute(task, Hints.DEFAULT.withWorkerIndex(0)));
    }

    /** The same for one given to {@code submit}, which the future it returns runs. */
    @Test
    void aSubmittedComputeTaskJoinedByAWorkerOfAPoolWithoutSparesRunsOnItsOwnWorker() throws Exception {
        joinedFromAPoolWithoutSpares(PoolKind.PINNED, AbstractPool::submit);
    }

    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"SHARING", "PRIORITY"})
    void aComputeTaskGivenToExecuteRunsOnAWorkerOfThatPool(PoolKind kind) throws Exception {
        joinedFromAPoolWithoutSpares(kind, AbstractPool::execute);
    }

    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"SHARING", "PRIORITY"})
    void aComputeTaskGivenToSubmitRunsOnAWorkerOfThatPool(PoolKind kind) throws Exception {
        joinedFromAPoolWithoutSpares(kind, AbstractPool::submit);
    }

    private static void joinedFromAPoolWithoutSpares(PoolKind kind, BiConsumer<AbstractPool, WhereItRan> give)
            throws Exception {
        try (AbstractPool held = (AbstractPool) kind.build(kind.builder().workers(1).name("held"));
             WorkStealingPool stealing = WorkStealingPool.builder().workers(1).maxSpareWorkers(0)
                     .name("stealing").build()) {
            CountDownLatch release = new CountDownLatch(1);
            AtomicReference<Thread> heldWorker = new AtomicReference<>();
            CountDownLatch busy = new CountDownLatch(1);
            held.execute(() -> {               // holds worker 0, so the task below waits in its queue
                heldWorker.set(Thread.currentThread());
                busy.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(busy.await(20, TimeUnit.SECONDS)).isTrue();
            WhereItRan task = new WhereItRan();
            give.accept(held, task);

            AtomicReference<Thread> joinerThread = new AtomicReference<>();
            Task<Thread> joiner = stealing.spawn(() -> {
                joinerThread.set(Thread.currentThread());
                return task.join();
            });
            // Wait until the joiner has either finished (it ran the task itself) or waits in
            // its join (it left the task to the pool); only then free the held worker.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!joiner.isDone() && System.nanoTime() - deadline < 0L) {
                Thread t = joinerThread.get();
                if (t != null && (t.getState() == Thread.State.WAITING
                        || t.getState() == Thread.State.TIMED_WAITING)) {
                    break;
                }
                Thread.sleep(1);
            }
            release.countDown();

            assertThat(joiner.get(20, TimeUnit.SECONDS)).as("the thread the %s pool's task ran on", kind)
                    .isSameAs(heldWorker.get());
            assertThat(task.get(20, TimeUnit.SECONDS)).isSameAs(heldWorker.get());
        }
    }
}
