/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.testkit.Threads.runAll;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck model checking of the handle's completion protocol (the outcome bits of the cell's
 * state word and the waiter stack, see {@link JoinHandle}): a worker completes the task while
 * another thread cancels it and others wait for it, in every interleaving Lincheck explores.
 *
 * <p>Checks, after the threads are joined: exactly one outcome (the cancel returned true if and
 * only if the handle reports a cancellation); a blocked {@code get} returns, with that outcome;
 * a waker registered by a pending poll was woken exactly once, one whose poll saw the outcome
 * never; a {@code toCompletableFuture} asked for while the others run is complete, with that
 * outcome.
 *
 * <p>The cell has no runtime: the worker's part is played by a thread calling the cell's
 * transitions directly, and a cancel never needs to queue the cell (it is scheduled or running
 * until the worker retires it).
 *
 * <p>Each test hands Lincheck a method reference to a scenario of this class. Lincheck 3.7
 * instruments the class that defines the block, then lazily what instrumented code constructs
 * or calls statically; a method reference made in one class to another class's static scenario
 * calls it from uninstrumented code, so nothing is instrumented and the run passes without
 * exploring (a lambda that calls the scenario is fine).
 *
 * <p>Teeth (audit of 2026-11-28, each bug put into the production class, the class run as
 * surefire runs it): the blocked-get test fails on a push that does not re-read the outcome
 * ("a pending poll's waker woken 0 times"), on the winner reading the waiter stack before its
 * outcome CAS (same message), on a push that does not check for {@code FIRED} ("a poll that saw
 * the outcome was woken"), on {@code fire()} taking the stack with a read and a write instead of
 * one swap ("woken 2 times", found between 200 and 400 invocations of the 1,000) and on the result
 * written after the outcome CAS ("the poll saw null"); each but the swap within 50 invocations.
 * The futures test caught only the missing {@code FIRED} check and the late result while it also
 * asked for a future before the threads started: that future kept the stack non-empty, so every
 * completer fired and no lost wake-up could show. Without it the test also fails on the push
 * without the re-read and on the early read of the stack ("a future is left incomplete"); a
 * double release cannot show there (completing a future twice is harmless). The
 * {@code detects...} tests below keep two of these bugs in the suite (see {@link Mutant}).
 */
class JoinHandleLincheckTest {

    private static final Integer VALUE = 42;

    static void check(boolean ok, String what) {
        if (!ok) {
            throw new AssertionError(what);
        }
    }

    /** What {@code get} reports: the value, "cancelled", or the exception thrown. */
    static Object outcome(JoinHandle<Integer> h) {
        try {
            return h.get();
        } catch (CancellationException e) {
            return "cancelled";
        } catch (Exception e) {
            return e;
        }
    }

    /** One poll of a handle by a task, on a thread of its own, and what it saw. */
    static final class OnePoll {
        final AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        boolean pending;
        Object seen;                           // the value, or "cancelled"; read after the join

        Thread of(JoinHandle<Integer> h) {
            return new Thread(() -> {
                try {
                    Poll<Integer> p = h.poll(cx);
                    pending = p.isPending();
                    seen = p.isReady() ? p.value() : null;
                } catch (CancellationException e) {
                    seen = "cancelled";
                }
            });
        }

        /** A pending poll's waker was woken once; a ready poll saw {@code expected}, unwoken. */
        void check(Object expected) {
            int wakes = cx.wakes.get();
            if (pending) {
                JoinHandleLincheckTest.check(wakes == 1, "a pending poll's waker woken " + wakes + " times");
            } else {
                JoinHandleLincheckTest.check(wakes == 0, "a poll that saw the outcome was woken");
                JoinHandleLincheckTest.check(expected.equals(seen), "the poll saw " + seen + ", expected " + expected);
            }
        }
    }

    /** Worker, canceller, a polling task and a thread blocked in {@code get}. */
    static void completeCancelPollAndGet() {
        TaskCell<Integer> c = new TaskCell<>(null, cx -> Poll.ready(VALUE));
        OnePoll poll = new OnePoll();
        boolean[] cancelled = new boolean[1];
        Object[] got = new Object[1];
        runAll(
                new Thread(() -> {
                    check(c.state() == TaskCell.SCHEDULED, "the worker takes the scheduled cell");
                    c.finish(JoinHandle.VALUE, VALUE);
                }),
                new Thread(() -> cancelled[0] = c.cancel(false)),
                poll.of(c),
                new Thread(() -> got[0] = outcome(c)));
        Object expected = cancelled[0] ? "cancelled" : VALUE;
        check(c.isDone() && c.isCancelled() == cancelled[0], "one outcome: cancel returned " + cancelled[0]);
        check(expected.equals(got[0]), "get returned " + got[0] + ", expected " + expected);
        check(c.state() == TaskCell.DONE, "the cell is retired");
        poll.check(expected);
    }

    /**
     * Worker, canceller and two threads asking for {@code toCompletableFuture}. None is asked for
     * before the threads start: a future already in the waiter stack makes every completer find
     * a waiter and fire, which hides a lost wake-up of the others (an early future is
     * {@code JoinHandleCompletionTest}'s).
     */
    static void completeCancelAndFutures() {
        TaskCell<Integer> c = new TaskCell<>(null, cx -> Poll.ready(VALUE));
        boolean[] cancelled = new boolean[1];
        @SuppressWarnings("unchecked")
        CompletableFuture<Integer>[] futures = new CompletableFuture[2];
        runAll(
                new Thread(() -> {
                    check(c.state() == TaskCell.SCHEDULED, "the worker takes the scheduled cell");
                    c.finish(JoinHandle.VALUE, VALUE);
                }),
                new Thread(() -> cancelled[0] = c.cancel(false)),
                new Thread(() -> futures[0] = c.toCompletableFuture()),
                new Thread(() -> futures[1] = c.toCompletableFuture()));
        for (CompletableFuture<Integer> f : futures) {
            check(f.isDone(), "a future is left incomplete");
            check(f.isCancelled() == cancelled[0], "a future's outcome differs from the cancel's");
            if (!cancelled[0]) {
                check(VALUE.equals(f.join()), "a future has the wrong value");
            }
        }
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void completionCancelPollAndBlockedGet() {
        Lincheck.runConcurrentTest(1000, JoinHandleLincheckTest::completeCancelPollAndGet);
    }

    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void completionCancelAndFutures() {
        Lincheck.runConcurrentTest(1000, JoinHandleLincheckTest::completeCancelAndFutures);
    }

    // ------------------------------------------------------------------ teeth (see Mutant)

    /** The classes a mutant of the handle is copied with: their code and signatures mention each other. */
    static final Class<?>[] HANDLE_GROUP = {
        JoinHandle.class, TaskCell.class, AsyncPromise.class, JoinHandleLincheckTest.class, AsyncPromiseLincheckTest.class,
    };

    /** The copying alone breaks nothing: the copied test passes with an unchanged copy. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void unmutatedCopyPasses() {
        assertThat(Mutant.of(JoinHandle.class, HANDLE_GROUP).run(JoinHandleLincheckTest.class,
                "completionCancelPollAndBlockedGet")).isNull();
    }

    /** A push that does not re-read the state after it: the winner may have found no waiter. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void detectsAPushThatDoesNotRereadTheOutcome() {
        Throwable e = Mutant.of(JoinHandle.class, HANDLE_GROUP)
                .replace("""
                        if (WAITERS.compareAndSet(this, h, top)) {
                            if ((state & OUTCOME_MASK) != 0) {
                                fire();
                        """, """
                        if (WAITERS.compareAndSet(this, h, top)) {
                            if (false) {
                                fire();
                        """)
                .failureOf(JoinHandleLincheckTest.class, "completionCancelPollAndBlockedGet");
        assertThat(e).isInstanceOf(LincheckAssertionError.class)
                .hasMessageContaining("a pending poll's waker woken 0 times");
    }

    /** The winner reads the waiter stack before its outcome CAS: a push in between is never released. */
    @Test
    @Timeout(value = 180, unit = TimeUnit.SECONDS)
    void detectsAWaiterStackReadBeforeTheOutcome() {
        Throwable e = Mutant.of(JoinHandle.class, HANDLE_GROUP)
                // the read moves into record, before its CAS; releaseWaiters (the same thread,
                // after it) goes by what that read saw
                .replace("boolean won;", "mutantAnyWaiter = waiters != null; boolean won;")
                .replace("final void releaseWaiters() {", "private boolean mutantAnyWaiter; final void releaseWaiters() {")
                .replace("if (waiters != null) {", "if (mutantAnyWaiter) {")
                .failureOf(JoinHandleLincheckTest.class, "completionCancelAndFutures");
        assertThat(e).isInstanceOf(LincheckAssertionError.class).hasMessageContaining("a future is left incomplete");
    }
}
