/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link ComputeTask} given to {@code execute} of two pools is queued in both; the first worker
 * to reach it runs it. Once the second pool's {@code shutdownNow()} returned it as not started
 * (handed back: its joins end with a {@link CancellationException}, and it runs only if the
 * holder of that list runs it), a worker of a {@link PinnedPool}, {@link PriorityPool} or
 * {@link WorkSharingPool} that then reached its other entry ran it all the same, as the pool's
 * {@code run()} of a handed-back task does for the list's holder: the join had reported it
 * cancelled, and the task ran after all. A {@link WorkStealingPool}'s workers skip it. The future
 * of any pool's {@code submit} of a task queued elsewhere before ran it the same way, and so did
 * the future of a {@code submit} that owns the task (it was given to {@code submit} first).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HandedBackForkTaskQueuedElsewhereTest {

    static final class Counted extends ComputeTask<Integer> {
        final AtomicInteger runs = new AtomicInteger();

        @Override
        protected Integer compute() {
            return runs.incrementAndGet();
        }
    }

    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"STEALING", "SHARING", "PRIORITY", "PINNED"})
    void aTaskHandedBackByAnotherPoolIsNotRunByThisPoolsWorkers(PoolKind kind) throws Exception {
        handedBackByAnotherPool(kind, false);
    }

    /** The same for one given to {@code submit} after the other pool's {@code execute}: its future runs it. */
    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"STEALING", "SHARING", "PRIORITY", "PINNED"})
    void aTaskHandedBackByAnotherPoolIsNotRunByTheFutureOfThisPoolsSubmit(PoolKind kind) throws Exception {
        handedBackByAnotherPool(kind, true);
    }

    /**
     * The same for the future of this pool's {@code submit} that owns the task (given to it
     * first, then to the other pool's {@code execute}): it ran the task the other pool had handed
     * back. Handed back with the future by this pool's own {@code shutdownNow}, the task still
     * runs when the holder of that list runs the future.
     */
    @ParameterizedTest
    @EnumSource(value = PoolKind.class, names = {"STEALING", "SHARING", "PRIORITY", "PINNED"})
    void aTaskHandedBackByAnotherPoolIsNotRunByTheFutureOfThisPoolsSubmitThatOwnsIt(PoolKind kind)
            throws Exception {
        try (PoolCore first = onlyWorker(kind);
             PoolCore second = PoolKind.PRIORITY.create(1)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch busyFirst = new CountDownLatch(1);
            CountDownLatch busySecond = new CountDownLatch(1);
            first.execute(() -> hold(busyFirst, release));
            second.execute(() -> hold(busySecond, release));
            assertThat(busyFirst.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(busySecond.await(20, TimeUnit.SECONDS)).isTrue();

            Counted task = new Counted();
            Future<?> owner = first.submit(task);   // bound here: the future owns it
            second.execute(task);              // queued there too
            assertThat(second.shutdownNow()).containsExactly(task);
            assertThatThrownBy(task::join).isInstanceOf(CancellationException.class);

            release.countDown();
            owner.get(20, TimeUnit.SECONDS);
            assertThat(task.runs).as("runs of a task shutdownNow returned as not started").hasValue(0);
            task.run();                        // the list's holder runs it: now it runs, once
            assertThat(task.join()).isEqualTo(1);
        }

        // handed back by the owning future's own pool: the holder of that list runs it through the future
        try (PoolCore pool = onlyWorker(kind)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch busy = new CountDownLatch(1);
            pool.execute(() -> hold(busy, release));
            assertThat(busy.await(20, TimeUnit.SECONDS)).isTrue();
            Counted task = new Counted();
            Future<?> owner = pool.submit(task);
            List<Runnable> back = pool.shutdownNow();
            assertThat(back).hasSize(1);
            assertThat(back.get(0)).isSameAs(owner);
            release.countDown();
            back.get(0).run();
            assertThat(task.runs).hasValue(1);
            assertThat(task.join()).isEqualTo(1);
        }
    }

    private static void handedBackByAnotherPool(PoolKind kind, boolean submit) throws Exception {
        try (PoolCore first = onlyWorker(kind);
             PoolCore second = PoolKind.PRIORITY.create(1)) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch busyFirst = new CountDownLatch(1);
            CountDownLatch busySecond = new CountDownLatch(1);
            first.execute(() -> hold(busyFirst, release));
            second.execute(() -> hold(busySecond, release));
            assertThat(busyFirst.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(busySecond.await(20, TimeUnit.SECONDS)).isTrue();

            Counted task = new Counted();
            if (submit) {
                second.execute(task);          // bound there
                first.submit(task);            // and queued here too, behind the held worker
            } else {
                first.execute(task);           // bound here, queued behind the held worker
                second.execute(task);          // queued there too
            }
            List<Runnable> notStarted = second.shutdownNow();
            assertThat(notStarted).containsExactly(task);
            assertThatThrownBy(task::join).isInstanceOf(CancellationException.class);

            CountDownLatch after = new CountDownLatch(1);
            first.execute(after::countDown);   // behind the task's entry, on the same worker
            release.countDown();
            assertThat(after.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(task.runs).as("runs of a task shutdownNow returned as not started").hasValue(0);
            assertThat(task.isDone()).isFalse();

            task.run();                        // the list's holder runs it: now it runs, once
            assertThat(task.runs).hasValue(1);
            assertThat(task.join()).isEqualTo(1);
        }
    }

    /** A pool of {@code kind} with one worker and no spare to run what waits behind it. */
    private static PoolCore onlyWorker(PoolKind kind) {
        return kind == PoolKind.STEALING ? WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()
                : kind.create(1);
    }

    private static void hold(CountDownLatch busy, CountDownLatch release) {
        busy.countDown();
        try {
            release.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
