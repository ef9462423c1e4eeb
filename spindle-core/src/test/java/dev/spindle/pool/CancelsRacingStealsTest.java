/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code Future.cancel} of {@code submit}'s futures against workers that take, steal and run the
 * same tasks, on every pool kind and on a union in front of one.
 *
 * <p>Why two phases. {@code cancel} returns {@code true} for a task that is running, as
 * {@link java.util.concurrent.FutureTask}'s does (the outcome is dropped, the body runs on), so
 * "cancel returned true" does not mean "cancelled before it started", and a check built on that
 * reading is unsound (an earlier test of this kind was withdrawn for it). So:
 *
 * <ul>
 *   <li><b>Held workers.</b> Every worker is held in a task of its own, which first submits tasks
 *       from inside (into that worker's own queue, for peers to steal later); more come from
 *       outside; then a random subset is cancelled while no task can have started. Only then are
 *       the workers let go, to run, take and steal the rest. Here the answer is exact: every
 *       cancelled task never runs its body, every other runs exactly once, each {@code get}
 *       reports which, and the pool's count of completed tasks agrees.</li>
 *   <li><b>Racing.</b> Cancels (with and without interrupt) arrive from another thread while the
 *       tasks run, are stolen, and submit more. Only what holds whatever the interleaving is
 *       asserted: a body runs at most once; a task whose cancel returned {@code true} reports
 *       the cancellation for good; one whose cancel returned {@code false} (or that nobody
 *       cancelled) ran exactly once and {@code get} reports its body's outcome; a task that can
 *       end only by an interrupt and was running when {@code cancel(true)} returned {@code true}
 *       was interrupted; no body that was not cancelled starts with an interrupt pending (one
 *       meant for a task cancelled before it on the same thread); the completed count lies
 *       between the bodies that ran and were not cancelled and all bodies that ran.</li>
 * </ul>
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CancelsRacingStealsTest {

    private static final int WORKERS = 3;

    /** What the tasks are submitted to: a pool, or an owning union whose member 0 is one. */
    enum Target {
        STEALING(PoolKind.STEALING, false), SHARING(PoolKind.SHARING, false), PRIORITY(PoolKind.PRIORITY, false),
        PINNED(PoolKind.PINNED, false), UNION_OF_STEALING(PoolKind.STEALING, true),
        UNION_OF_SHARING(PoolKind.SHARING, true);

        final PoolKind kind;
        final boolean union;

        Target(PoolKind kind, boolean union) {
            this.kind = kind;
            this.union = union;
        }

        Built build() {
            PoolCore pool = kind.create(WORKERS);
            return new Built(union ? SchedulerUnion.owning(pool) : pool, pool);
        }
    }

    /** The service the test submits to, and the pool that runs the tasks (the same, but for a union). */
    record Built(ExecutorService service, PoolCore pool) {
    }

    /** What the task with {@code id} returns; tasks with {@code id % 5 == 4} throw instead. */
    private static int valueOf(int id) {
        return id * 3 + 1;
    }

    /** The failure a task with {@code id % 5 == 4} throws. */
    static final class Boom extends RuntimeException {
        final int id;

        Boom(int id) {
            super("task " + id);
            this.id = id;
        }
    }

    // ------------------------------------------------------------------ phase 1: held workers

    @ParameterizedTest
    @EnumSource(Target.class)
    void tasksCancelledWhileEveryWorkerIsHeldNeverRunAndTheRestRunOnce(Target target) throws Exception {
        long seed = new SplittableRandom().nextLong();
        for (int round = 0; round < 8; round++) {
            heldRound(target, seed + round);
        }
    }

    private static void heldRound(Target target, long seed) throws Exception {
        int inside = 200;                      // per worker, submitted by its holding task
        int outside = 600;
        int n = WORKERS * inside + outside;
        String where = target + ", seed " + seed;
        Built b = target.build();
        ExecutorService s = b.service();
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicIntegerArray early = new AtomicIntegerArray(n);
        AtomicReferenceArray<Future<?>> futures = new AtomicReferenceArray<>(n);
        CountDownLatch occupied = new CountDownLatch(WORKERS);
        CountDownLatch held = new CountDownLatch(WORKERS);
        CountDownLatch release = new CountDownLatch(1);
        LinkedBlockingQueue<Throwable> holderFailures = new LinkedBlockingQueue<>();
        try {
            for (int w = 0; w < WORKERS; w++) {
                int base = w * inside;
                // the worker hint spreads the holders over a pinned pool's workers; the others
                // ignore it, and a free worker takes (or steals) each holder in turn
                ((Scheduler) s).execute(() -> {
                    try {
                        // no task goes in before every worker is in a holder: a free worker
                        // would take (or steal) it at once. Timed waits: a work-stealing pool
                        // starts a spare for an untimed one that lasts while tasks are queued,
                        // and the spare would run them
                        occupied.countDown();
                        if (!occupied.await(30, TimeUnit.SECONDS)) {
                            throw new AssertionError("the other workers never took their holders");
                        }
                        for (int i = base; i < base + inside; i++) {
                            futures.set(i, submit(s, i, runs, early, release));
                        }
                    } catch (Throwable e) {
                        holderFailures.add(e);
                    } finally {
                        held.countDown();
                    }
                    try {
                        if (!release.await(60, TimeUnit.SECONDS)) {
                            holderFailures.add(new AssertionError("never released"));
                        }
                    } catch (InterruptedException e) {
                        holderFailures.add(e);
                    }
                }, Hints.DEFAULT.withWorkerIndex(w));
            }
            assertThat(held.await(30, TimeUnit.SECONDS)).as("%s: every worker holds", where).isTrue();
            assertThat(holderFailures).as("%s: submissions from the holders", where).isEmpty();
            for (int i = WORKERS * inside; i < n; i++) {
                futures.set(i, submit(s, i, runs, early, release));
            }
            SplittableRandom rnd = new SplittableRandom(seed);
            boolean[] cancelled = new boolean[n];
            int cancels = 0;
            SoftAssertions soft = new SoftAssertions();
            for (int i = 0; i < n; i++) {
                if (rnd.nextInt(5) < 2) {
                    Future<?> f = futures.get(i);
                    boolean interrupt = rnd.nextBoolean();
                    soft.assertThat(f.cancel(interrupt)).as("%s: cancel(%s) of task %d, not started",
                            where, interrupt, i).isTrue();
                    soft.assertThat(f.isCancelled() && f.isDone()).as("%s: task %d cancelled and done", where, i)
                            .isTrue();
                    soft.assertThat(f.cancel(!interrupt)).as("%s: a second cancel of task %d", where, i).isFalse();
                    cancelled[i] = true;
                    cancels++;
                }
            }
            soft.assertAll();
            release.countDown();
            for (int i = 0; i < n; i++) {
                checkOutcome(soft, where, i, futures.get(i), cancelled[i]);
            }
            s.shutdown();
            assertThat(s.awaitTermination(30, TimeUnit.SECONDS)).as("%s: terminates", where).isTrue();
            assertThat(holderFailures).as("%s: the holders", where).isEmpty();
            for (int i = 0; i < n; i++) {
                soft.assertThat(early.get(i)).as("%s: task %d ran while every worker was held", where, i).isZero();
                soft.assertThat(runs.get(i)).as("%s: runs of task %d (cancelled: %s)", where, i, cancelled[i])
                        .isEqualTo(cancelled[i] ? 0 : 1);
                soft.assertThat(futures.get(i).isCancelled()).as("%s: task %d still cancelled or not", where, i)
                        .isEqualTo(cancelled[i]);
            }
            // the holders and every task not cancelled ran to their end; no cancelled one did
            soft.assertThat(PoolKind.executed(b.pool())).as("%s: completed (%s cancelled of %s)", where, cancels, n)
                    .isEqualTo(WORKERS + n - cancels);
            soft.assertAll();
        } finally {
            release.countDown();
            s.shutdownNow();
            s.awaitTermination(30, TimeUnit.SECONDS);
        }
    }

    /** Submits task {@code id}, by turns as a callable and as a runnable with a result. */
    private static Future<?> submit(ExecutorService s, int id, AtomicIntegerArray runs, AtomicIntegerArray early,
                                    CountDownLatch release) {
        Callable<Integer> body = () -> {
            if (release.getCount() != 0) {
                early.incrementAndGet(id);
            }
            runs.incrementAndGet(id);
            if (id % 5 == 4) {
                throw new Boom(id);
            }
            return valueOf(id);
        };
        if (id % 2 == 0) {
            return s.submit(body);
        }
        return s.submit(() -> {
            try {
                body.call();
            } catch (Boom e) {
                throw e;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, valueOf(id));
    }

    /** What {@code get} of task {@code id} must say: cancelled, its value, or its failure. */
    private static void checkOutcome(SoftAssertions soft, String where, int id, Future<?> f, boolean cancelled)
            throws InterruptedException {
        Object got;
        try {
            got = f.get(30, TimeUnit.SECONDS);
        } catch (Throwable e) {
            got = e;
        }
        if (cancelled) {
            soft.assertThat(got).as("%s: get of cancelled task %d", where, id).isInstanceOf(CancellationException.class);
        } else if (id % 5 == 4) {
            soft.assertThat(got).as("%s: get of failing task %d", where, id).isInstanceOf(ExecutionException.class);
            if (got instanceof ExecutionException e) {
                soft.assertThat(e.getCause()).as("%s: cause for task %d", where, id).isInstanceOf(Boom.class);
                soft.assertThat(e.getCause() instanceof Boom boom ? boom.id : -1).isEqualTo(id);
            }
        } else {
            soft.assertThat(got).as("%s: get of task %d", where, id).isEqualTo(valueOf(id));
        }
        soft.assertThat(f.isDone()).as("%s: task %d done", where, id).isTrue();
        soft.assertThat(f.isCancelled()).as("%s: task %d cancelled", where, id).isEqualTo(cancelled);
    }

    // ------------------------------------------------------------------ phase 2: racing

    @ParameterizedTest
    @EnumSource(Target.class)
    void cancelsRacingRunningAndStolenTasksKeepEveryTaskAccountedFor(Target target) throws Exception {
        long seed = new SplittableRandom().nextLong();
        for (int round = 0; round < 8; round++) {
            racingRound(target, seed + round);
        }
    }

    /** Not cancelled; cancel returned true; cancel returned false. */
    private static final int NONE = 0;
    private static final int TRUE = 1;
    private static final int FALSE = 2;

    private static void racingRound(Target target, long seed) throws Exception {
        int top = 1500;
        int n = 2 * top;                       // ids top + i: the child that parent i submits
        String where = target + ", seed " + seed;
        Built b = target.build();
        ExecutorService s = b.service();
        AtomicReferenceArray<Future<?>> futures = new AtomicReferenceArray<>(n);
        AtomicIntegerArray runs = new AtomicIntegerArray(n);
        AtomicIntegerArray interruptedAtStart = new AtomicIntegerArray(n);
        AtomicIntegerArray endedByInterrupt = new AtomicIntegerArray(n);
        AtomicIntegerArray cancelResult = new AtomicIntegerArray(n);
        AtomicIntegerArray rejectedChild = new AtomicIntegerArray(n);
        CountDownLatch letGo = new CountDownLatch(1);
        LinkedBlockingQueue<Integer> toCancel = new LinkedBlockingQueue<>();
        int poison = -1;
        Thread canceller = new Thread(() -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            try {
                for (int id; (id = toCancel.take()) != poison; ) {
                    boolean waiter = isWaiter(id, top);
                    if (!waiter && rnd.nextBoolean()) {
                        continue;
                    }
                    boolean interrupt = waiter || rnd.nextBoolean();
                    cancelResult.set(id, futures.get(id).cancel(interrupt) ? TRUE : FALSE);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "canceller");
        canceller.start();
        try {
            for (int i = 0; i < top; i++) {
                int id = i;
                Callable<Integer> body = () -> {
                    if (Thread.currentThread().isInterrupted()) {
                        interruptedAtStart.incrementAndGet(id);
                    }
                    runs.incrementAndGet(id);
                    if (isWaiter(id, top)) {
                        // ends only by its cancel(true): a body that was running when that
                        // cancel returned true must see the interrupt
                        try {
                            while (!letGo.await(5, TimeUnit.MILLISECONDS)) {
                                if (cancelResult.get(id) == TRUE) {
                                    // recorded after cancel(true) returned true, so the
                                    // interrupt is pending if it reached this body: the wait
                                    // throws at once. A body that runs after its cancel has none
                                    letGo.await(0, TimeUnit.NANOSECONDS);
                                    break;
                                }
                            }
                        } catch (InterruptedException e) {
                            endedByInterrupt.incrementAndGet(id);
                        }
                        return valueOf(id);
                    }
                    if (id % 10 < 3) {
                        int child = top + id;
                        try {
                            futures.set(child, s.submit(childBody(child, runs, interruptedAtStart)));
                            toCancel.add(child);
                        } catch (RejectedExecutionException e) {
                            rejectedChild.set(child, 1);
                        }
                    }
                    spin(id);
                    if (id % 5 == 4) {
                        throw new Boom(id);
                    }
                    return valueOf(id);
                };
                futures.set(id, s.submit(body));
                toCancel.add(id);
            }
            // every body ends: the waiters by their cancel, the rest by themselves; children
            // submitted by a running parent after the shutdown are accepted (from inside)
            for (int i = 0; i < top; i++) {
                try {
                    futures.get(i).get(30, TimeUnit.SECONDS);
                } catch (ExecutionException | CancellationException e) {
                    // checked below
                }
            }
            // Every waiter is cancelled by now (its get returned, and it ends no other way in
            // time): one that was running when its cancel(true) returned true was interrupted
            // before that return. Let go, a waiter that runs now (a cancelled one) ends at once,
            // uninterrupted, which the checks below report
            letGo.countDown();
            s.shutdown();
            assertThat(s.awaitTermination(60, TimeUnit.SECONDS)).as("%s: terminates", where).isTrue();
            toCancel.add(poison);
            canceller.join(30_000);
            assertThat(canceller.isAlive()).as("%s: the canceller finished", where).isFalse();

            SoftAssertions soft = new SoftAssertions();
            long ran = 0;
            long ranUncancelled = 0;
            for (int id = 0; id < n; id++) {
                Future<?> f = futures.get(id);
                if (f == null) {
                    boolean child = id >= top && (id - top) % 10 < 3;
                    soft.assertThat(id < top ? "a task submitted from outside"
                            : child && runs.get(id - top) != 0 && rejectedChild.get(id) == 0
                                    ? "a child its parent submitted" : "nothing")
                            .as("%s: task %d has no future", where, id).isEqualTo("nothing");
                    soft.assertThat(runs.get(id)).as("%s: runs of unsubmitted task %d", where, id).isZero();
                    continue;
                }
                int r = runs.get(id);
                ran += r;
                int c = cancelResult.get(id);
                soft.assertThat(r).as("%s: runs of task %d", where, id).isLessThanOrEqualTo(1);
                if (c == TRUE) {
                    checkOutcome(soft, where, id, f, true);
                    if (isWaiter(id, top) && r == 1) {
                        soft.assertThat(endedByInterrupt.get(id))
                                .as("%s: waiter %d ran and was cancelled with interrupt: interrupted", where, id)
                                .isEqualTo(1);
                    }
                } else {
                    ranUncancelled += r;
                    soft.assertThat(r).as("%s: runs of task %d (cancel %s)", where, id,
                            c == FALSE ? "returned false" : "not called").isEqualTo(1);
                    soft.assertThat(isWaiter(id, top)).as("%s: waiter %d: cancel(true) returned %s", where, id,
                            c == FALSE ? "false" : "nothing").isFalse();
                    checkOutcome(soft, where, id, f, false);
                    soft.assertThat(interruptedAtStart.get(id))
                            .as("%s: task %d, not cancelled, started with an interrupt pending", where, id).isZero();
                }
            }
            long completed = PoolKind.executed(b.pool());
            soft.assertThat(completed).as("%s: completed, with %s bodies run, %s of them not cancelled",
                    where, ran, ranUncancelled).isBetween(ranUncancelled, ran);
            soft.assertAll();
        } finally {
            letGo.countDown();
            toCancel.add(poison);
            s.shutdownNow();
            s.awaitTermination(30, TimeUnit.SECONDS);
            canceller.join(30_000);
        }
    }

    /** Whether top-level task {@code id} waits until interrupted; the canceller cancels each with interrupt. */
    private static boolean isWaiter(int id, int top) {
        return id < top && id % 10 == 7;
    }

    private static Callable<Integer> childBody(int id, AtomicIntegerArray runs, AtomicIntegerArray interruptedAtStart) {
        return () -> {
            if (Thread.currentThread().isInterrupted()) {
                interruptedAtStart.incrementAndGet(id);
            }
            runs.incrementAndGet(id);
            spin(id);
            if (id % 5 == 4) {
                throw new Boom(id);
            }
            return valueOf(id);
        };
    }

    /** A little work, so that cancels find tasks running. */
    private static void spin(int id) {
        long x = id;
        for (int i = 0; i < 200; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        if (x == 42) {
            Thread.onSpinWait();               // keeps the loop from being dropped
        }
    }
}
