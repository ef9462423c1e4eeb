/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.AbstractCollection;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code stats().completed()} counts the tasks whose bodies ran to their end (see
 * {@link dev.spindle.SchedulerStats.WorkerStats#completed()}). {@code invokeAny} called from
 * outside a pool queued each task inside a wrapper and cancelled the losers' futures once one
 * task had succeeded, but the wrappers still ran and every pool counted each of them as a
 * completed task: one worker, a holder and twenty tasks of which one or two ran read
 * {@code completed} 21 instead of 2 or 3, on every pool kind.
 *
 * <p>Made deterministic with one worker: a holder keeps it until every task is queued (released
 * from the collection's iterator, as {@code invokeAny} finds no more tasks). The first task to
 * run then wins; a second one, if the worker starts one before {@code invokeAny} cancelled it
 * (whichever it is: a work-stealing worker takes a batch from its injector and runs it newest
 * first), holds the worker until {@code invokeAny} has returned, so at least eighteen are
 * cancelled before they can start. Every body the worker runs, the holder's included, is counted
 * by the test.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InvokeAnyFromOutsideCompletedCountTest {

    private static final int TASKS = 20;

    /**
     * The tasks, with a hook run on the thread that calls {@code invokeAny} when its iteration
     * finds no more tasks. {@code invokeAny} iterates twice, first to check the tasks and then to
     * queue them; the hook runs at the end of the second.
     */
    static final class Hooked extends AbstractCollection<Callable<Integer>> {
        private final List<Callable<Integer>> tasks;
        private final Runnable onEnd;
        private final AtomicInteger iterations = new AtomicInteger();

        Hooked(List<Callable<Integer>> tasks, Runnable onEnd) {
            this.tasks = tasks;
            this.onEnd = onEnd;
        }

        @Override
        public Iterator<Callable<Integer>> iterator() {
            boolean queueing = iterations.incrementAndGet() == 2;
            Iterator<Callable<Integer>> it = tasks.iterator();
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    boolean more = it.hasNext();
                    if (!more && queueing) {
                        onEnd.run();
                    }
                    return more;
                }

                @Override
                public Callable<Integer> next() {
                    return it.next();
                }
            };
        }

        @Override
        public int size() {
            return tasks.size();
        }

        int iterations() {
            return iterations.get();
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void tasksCancelledBeforeTheyStartAreNotCounted(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(1);
        runAndCount(kind.name(), pool, pool, false);
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void timedInvokeAnyToo(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(1);
        runAndCount(kind.name(), pool, pool, true);
    }

    /** A union's {@code invokeAny} called from outside queues the tasks on member 0 the same way. */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void throughAnOwningUnion(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(1);
        runAndCount("union of " + kind, SchedulerUnion.owning(pool), pool, false);
    }

    /**
     * Runs the scenario of the class overview: {@code service} (the pool, or a union owning it)
     * gets the holder and the {@code invokeAny}; {@code pool} runs them and is counted.
     */
    private static void runAndCount(String kind, ExecutorService service, PoolCore pool, boolean timed)
            throws Exception {
        AtomicInteger ran = new AtomicInteger();
        AtomicInteger tasksRun = new AtomicInteger();
        AtomicInteger firstRun = new AtomicInteger(-1);
        CountDownLatch allQueued = new CountDownLatch(1);
        CountDownLatch invokeAnyReturned = new CountDownLatch(1);
        List<Callable<Integer>> tasks = new ArrayList<>();
        for (int i = 0; i < TASKS; i++) {
            int k = i;
            tasks.add(() -> {
                ran.incrementAndGet();
                if (tasksRun.incrementAndGet() == 1) {
                    firstRun.set(k);
                } else {
                    // invokeAny cancels this one with an interrupt: held on regardless, so that
                    // the worker starts nothing before every other task is cancelled
                    awaitUninterruptibly(invokeAnyReturned);
                }
                return k;
            });
        }
        Hooked hooked = new Hooked(tasks, allQueued::countDown);
        service.execute(() -> {
            ran.incrementAndGet();
            awaitUninterruptibly(allQueued);
        });

        int result = timed ? service.invokeAny(hooked, 30, TimeUnit.SECONDS) : service.invokeAny(hooked);
        invokeAnyReturned.countDown();
        service.shutdown();
        assertThat(pool.awaitTermination(20, TimeUnit.SECONDS)).isTrue();

        assertThat(hooked.iterations()).as("invokeAny checks the tasks, then queues them").isEqualTo(2);
        assertThat(result).as("the first task to run wins").isEqualTo(firstRun.get());
        assertThat(tasksRun.get()).as("%s: the winner, and at most one task started before the cancel", kind)
                .isBetween(1, 2);
        assertThat(pool.stats().completed())
                .as("%s: completed counts the bodies that ran (the holder's and the tasks'), not the cancelled tasks",
                        kind)
                .isEqualTo(ran.get());
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (;;) {
            try {
                if (!latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                    throw new AssertionError("not released");
                }
                return;
            } catch (InterruptedException e) {
                // the cancel's interrupt, for this run only: go on waiting
            }
        }
    }
}
