/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.fail;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.pool.PinnedPool;
import dev.spindle.pool.PriorityPool;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** Schedulers that make the tests deterministic, the list of every pool kind, and small helpers. */
final class TestSchedulers {

    private TestSchedulers() {
    }

    /**
     * Throws an Error from {@code execute} while {@code failures} is positive (as a
     * ThreadPoolExecutor does when Thread.start fails with "OutOfMemoryError: unable to create
     * native thread"), a new one each time, recorded in {@code thrown}; then queues tasks like
     * {@link Manual}.
     */
    static final class ErrorThenManual implements Scheduler {
        final Manual manual = new Manual();
        final AtomicInteger failures;
        final List<Error> thrown = new java.util.concurrent.CopyOnWriteArrayList<>();

        ErrorThenManual(int failures) {
            this.failures = new AtomicInteger(failures);
        }

        @Override
        public void execute(Runnable task) {
            execute(task, Hints.DEFAULT);
        }

        @Override
        public void execute(Runnable task, Hints hints) {
            if (failures.getAndDecrement() > 0) {
                Error e = new OutOfMemoryError("unable to create native thread (#" + (thrown.size() + 1) + ")");
                thrown.add(e);
                throw e;
            }
            manual.execute(task, hints);
        }
    }

    /**
     * Queues tasks and runs them, in FIFO order, only when the test says so, on the test's
     * thread: a one-worker scheduler whose interleaving the test controls. Records the hints of
     * every submission; can be told to reject.
     */
    static final class Manual implements Scheduler {
        private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
        final List<Hints> hints = new ArrayList<>();
        volatile boolean rejecting;

        @Override
        public synchronized void execute(Runnable task) {
            execute(task, Hints.DEFAULT);
        }

        @Override
        public synchronized void execute(Runnable task, Hints h) {
            if (rejecting) {
                throw new RejectedExecutionException("manual scheduler is shut down");
            }
            queue.add(task);
            hints.add(h);
        }

        synchronized int queued() {
            return queue.size();
        }

        /** Runs the oldest queued task; returns false if there was none. */
        boolean runOne() {
            Runnable r;
            synchronized (this) {
                r = queue.poll();
            }
            if (r == null) {
                return false;
            }
            r.run();
            return true;
        }

        /** Runs tasks until none is queued; returns how many ran. */
        int runAll() {
            int n = 0;
            while (runOne()) {
                n++;
            }
            return n;
        }

        synchronized List<Hints> recordedHints() {
            return new ArrayList<>(hints);
        }
    }

    /**
     * Hands each task to the next of several single-thread executors in turn, so consecutive
     * activations of an actor run on different threads.
     */
    static final class Alternating implements Scheduler, AutoCloseable {
        private final ExecutorService[] executors;
        private final AtomicInteger next = new AtomicInteger();

        Alternating(int threads) {
            executors = new ExecutorService[threads];
            for (int i = 0; i < threads; i++) {
                int n = i;
                executors[i] = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "alternating-" + n);
                    t.setDaemon(true);
                    return t;
                });
            }
        }

        @Override
        public void execute(Runnable task) {
            executors[Math.floorMod(next.getAndIncrement(), executors.length)].execute(task);
        }

        @Override
        public void close() {
            for (ExecutorService e : executors) {
                e.shutdown();
            }
            try {
                for (ExecutorService e : executors) {
                    if (!e.awaitTermination(30, TimeUnit.SECONDS)) {
                        fail("executor did not terminate");
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted while closing");
            }
        }
    }

    /**
     * Every scheduler kind, with one and with two workers, for a parameterized test: the kind's
     * name, the number of workers, and a factory of a new pool of that many workers. A
     * {@link SchedulerUnion} owns a {@link WorkSharingPool} and a {@link WorkStealingPool} of that
     * many workers each. The one list the tests that run on every kind share (use it as
     * {@code @MethodSource("dev.spindle.actor.TestSchedulers#pools")}), so that a kind added here
     * is checked by all of them.
     */
    static Stream<Arguments> pools() {
        List<Arguments> all = new ArrayList<>();
        for (int workers : new int[] {1, 2}) {
            all.add(Arguments.of("WorkSharingPool", workers,
                    (IntFunction<ExecutorService>) n -> WorkSharingPool.builder().workers(n).build()));
            all.add(Arguments.of("WorkStealingPool", workers,
                    (IntFunction<ExecutorService>) n -> WorkStealingPool.builder().workers(n).build()));
            all.add(Arguments.of("PriorityPool", workers,
                    (IntFunction<ExecutorService>) n -> PriorityPool.builder().workers(n).build()));
            all.add(Arguments.of("PinnedPool", workers,
                    (IntFunction<ExecutorService>) n -> PinnedPool.builder().workers(n).build()));
            all.add(Arguments.of("SchedulerUnion", workers,
                    (IntFunction<ExecutorService>) n -> SchedulerUnion.owning(
                            WorkSharingPool.builder().workers(n).build(),
                            WorkStealingPool.builder().workers(n).build())));
        }
        return all.stream();
    }

    /**
     * Tells {@code actor} a message that holds its activation until the returned latch is counted
     * down (or 30 s pass), and returns once that message runs: what is sent next queues behind it.
     */
    static CountDownLatch holdInATell(ActorRef<?> actor) throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        actor.tell(x -> {
            entered.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        if (!entered.await(30, TimeUnit.SECONDS)) {
            fail("the holding message did not run");
        }
        return release;
    }

    /** Waits for {@code condition} (bounded, so a lost message fails instead of hanging). */
    static void awaitCondition(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting for: " + what);
            }
            Thread.sleep(1);
        }
    }
}
