/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The hand-shake between a spawned task's completion and a waiter registering on its handle (see
 * "The waiters" in {@link JoinHandle}'s overview): the completion records the outcome by a CAS of
 * the state word and then reads the head of the waiter stack; a waiter pushes its entry by a CAS
 * of that head and then reads the state word. One of them must see the other, or the entry stays
 * in a stack nobody will release: a blocked {@code get()} parks for ever, a joining task is never
 * woken, a {@link CompletableFuture} view never completes. These tests run the runtime's own code
 * (this package is the cells', on the class path beside them) on bare cells, as the module's unit
 * tests make them: no runtime, no worker.
 *
 * <p>The completing side is {@link TaskCell#finish(long, Object)}, what a worker's ready poll
 * runs, or {@link JoinHandle#cancel}. The waiters are the three kinds the stack holds: a task
 * polling the handle ({@link JoinHandle#poll}, whose context is the joiner's own cell, so the
 * waker it registers is the real one), {@link JoinHandle#toCompletableFuture}, and a blocked
 * thread. For the last, the actor calls {@code get(0, NANOSECONDS)}: it runs the loop of the
 * untimed {@code get()} (read the state, push a node, re-read the state) up to the point where
 * {@code get()} would park, and there gives up instead, marking its node gone (so the completion
 * skips its unpark) and reading the state once more for its answer. Whether {@code get()} would
 * have parked for ever is read from the stack afterwards: once the outcome is out, a node still
 * in the stack was missed by both sides.
 */
public final class JoinHandleCompletionTests {

    private JoinHandleCompletionTests() {
    }

    static final int VALUE = 42;

    /**
     * A spawned cell that a worker has taken and is polling: still {@code SCHEDULED} in its word
     * (taking the queue entry is the claim, see {@link TaskCell}), marked polled by worker 0.
     */
    static TaskCell<Integer> running() {
        TaskCell<Integer> c = new TaskCell<>(null, cx -> Poll.ready(VALUE));
        c.polledBy = 1;
        return c;
    }

    /**
     * What {@code get(0, NANOSECONDS)} gave: 1 the value, 0 a timeout (the state read after the
     * push saw no outcome; {@code get()} would have parked), 2 a cancellation, -1 anything else.
     */
    static int timedGet(JoinHandle<Integer> h) {
        try {
            return h.get(0L, TimeUnit.NANOSECONDS) == VALUE ? 1 : -1;
        } catch (TimeoutException e) {
            return 0;
        } catch (CancellationException e) {
            return 2;
        } catch (Exception e) {
            return -1;
        }
    }

    @JCStressTest
    @Description("A worker finishing a task vs another task polling its handle (registering its waker).")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the joiner saw the outcome and is ready; its waker is not in the stack")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the joiner is pending and its waker was woken once (by the completion, or by its own push that saw the outcome)")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST WAKE-UP: the joiner is pending and nobody woke it")
    @Outcome(expect = FORBIDDEN, desc = "a wrong value, a ready joiner that was also woken, or a waker woken twice")
    @State
    public static class FinishVsJoiningTask {
        final TaskCell<Integer> handle = running();
        /** The joining task's cell, being polled by its worker: the context and waker of its poll. */
        final TaskCell<Integer> joiner = running();

        @Actor
        public void worker() {
            handle.finish(JoinHandle.VALUE, VALUE);    // runCell's ready path
        }

        @Actor
        public void joiningTask(II_Result r) {
            Poll<Integer> p = handle.poll(joiner);
            r.r1 = p.isPending() ? 0 : p.value() == VALUE ? 1 : -1;
        }

        @Arbiter
        public void arbiter(II_Result r) {
            // A wake while the joiner's poll is under way: counted (its poller sees the change).
            r.r2 = (int) joiner.wakeCount();
        }
    }

    @JCStressTest
    @Description("A worker finishing a task vs a thread blocking in get() on its handle (pushing its node, then deciding whether to park).")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "get saw the value; no node left in the stack")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "get saw no outcome after its push and gave up where get() parks; the completion took its node (and would unpark it)")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: both missed each other (get's last read found the value, but get() would have parked); the node was never released")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: get() parks and the completion missed its node")
    @Outcome(expect = FORBIDDEN, desc = "a wrong value or an exception")
    @State
    public static class FinishVsGet {
        final TaskCell<Integer> handle = running();

        @Actor
        public void worker() {
            handle.finish(JoinHandle.VALUE, VALUE);
        }

        @Actor
        public void waiter(II_Result r) {
            r.r1 = timedGet(handle);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = handle.waiterCount();               // 0 once released (or never pushed)
        }
    }

    @JCStressTest
    @Description("A worker finishing a task vs a thread asking its handle for a CompletableFuture view.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the future was complete when toCompletableFuture returned")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the future was returned pending and the completion completed it")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST COMPLETION: the future never completes")
    @Outcome(expect = FORBIDDEN, desc = "completed with something other than the value")
    @State
    public static class FinishVsToCompletableFuture {
        final TaskCell<Integer> handle = running();
        CompletableFuture<Integer> future;

        @Actor
        public void worker() {
            handle.finish(JoinHandle.VALUE, VALUE);
        }

        @Actor
        public void viewer(II_Result r) {
            CompletableFuture<Integer> f = handle.toCompletableFuture();
            future = f;
            r.r1 = f.isDone() ? 1 : 0;
        }

        @Arbiter
        public void arbiter(II_Result r) {
            CompletableFuture<Integer> f = future;
            r.r2 = !f.isDone() ? 0 : f.isCompletedExceptionally() || f.join() != VALUE ? -1 : 1;
        }
    }

    @JCStressTest
    @Description("A thread cancelling a queued task vs a thread blocking in get() on its handle.")
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "get saw the cancellation; no node left in the stack")
    @Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "get saw no outcome after its push and gave up where get() parks; the cancellation took its node (and would unpark it)")
    @Outcome(id = "2, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: both missed each other (get's last read found the cancellation, but get() would have parked); the node was never released")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "LOST WAKE-UP: get() parks and the cancellation missed its node")
    @Outcome(expect = FORBIDDEN, desc = "a value or another exception")
    @State
    public static class CancelVsGet {
        // As spawned and not yet taken by a worker (SCHEDULED): cancel() records the outcome,
        // and its retireCancelled() finds the cell queued already and enqueues nothing.
        final TaskCell<Integer> handle = new TaskCell<>(null, cx -> Poll.ready(VALUE));

        @Actor
        public void canceller() {
            handle.cancel(false);
        }

        @Actor
        public void waiter(II_Result r) {
            r.r1 = timedGet(handle);
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = handle.waiterCount();
        }
    }
}
