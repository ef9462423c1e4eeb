/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.testkit.Threads.runAll;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.Lincheck;
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
 * never; a {@code toCompletableFuture} asked for at any moment is complete, with that outcome.
 *
 * <p>The cell has no runtime: the worker's part is played by a thread calling the cell's
 * transitions directly, and a cancel never needs to queue the cell (it is scheduled or running
 * until the worker retires it).
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
                    check(c.startRun(), "the worker takes the scheduled cell");
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

    /** Worker, canceller and two {@code toCompletableFuture} calls, one before the worker starts. */
    static void completeCancelAndFutures() {
        TaskCell<Integer> c = new TaskCell<>(null, cx -> Poll.ready(VALUE));
        CompletableFuture<Integer> early = c.toCompletableFuture();
        boolean[] cancelled = new boolean[1];
        @SuppressWarnings("unchecked")
        CompletableFuture<Integer>[] late = new CompletableFuture[1];
        runAll(
                new Thread(() -> {
                    check(c.startRun(), "the worker takes the scheduled cell");
                    c.finish(JoinHandle.VALUE, VALUE);
                }),
                new Thread(() -> cancelled[0] = c.cancel(false)),
                new Thread(() -> late[0] = c.toCompletableFuture()));
        for (CompletableFuture<Integer> f : java.util.List.of(early, late[0])) {
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
}
