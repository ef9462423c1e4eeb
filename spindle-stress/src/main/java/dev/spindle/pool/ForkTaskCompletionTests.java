/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The hand-shake between a task's completion and a thread that registers to wait for it (see
 * {@link ForkTask}'s overview): the runner publishes the outcome and then looks at the waiter
 * stack; a waiter pushes its node and then looks at the state before it parks. One of them must
 * see the other, or the waiter parks and nobody unparks it. These tests run the class's own
 * code (this package is {@code ForkTask}'s, on the class path beside it).
 *
 * <p>Results: {@code r1} is 1 if the completion took the waiter's node (and would unpark it);
 * {@code r2} is 1 if the waiter's look at the state tells it not to park.
 */
public final class ForkTaskCompletionTests {

    private ForkTaskCompletionTests() {
    }

    @JCStressTest
    @Description("A runner completing a task vs a thread registering as its waiter and deciding whether to park.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both saw each other")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the completion took the node and unparks the waiter")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the waiter saw the outcome (or its publication under way) and does not park")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST WAKE-UP: the waiter parks and the completion missed its node")
    @State
    public static class CompleteVsAddWaiter {
        final ForkTask<Integer> task = new ForkTask<>(() -> 42, null);
        ForkTask.WaitNode node;

        @Actor
        public void runner() {
            task.tryRun();
        }

        @Actor
        public void waiter(II_Result r) {
            node = task.addWaiter();
            r.r2 = task.waitIsOver() ? 1 : 0;
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = node.thread == null ? 1 : 0;
        }
    }

    @JCStressTest
    @Description("A canceller cancelling a task that has not started vs a thread registering as its waiter.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both saw each other")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the cancellation took the node and unparks the waiter")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the waiter saw the cancellation and does not park")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST WAKE-UP: the waiter parks and the cancellation missed its node")
    @State
    public static class CancelVsAddWaiter {
        final ForkTask<Integer> task = new ForkTask<>(() -> 42, null);
        ForkTask.WaitNode node;

        @Actor
        public void canceller() {
            task.cancel(false);
        }

        @Actor
        public void waiter(II_Result r) {
            node = task.addWaiter();
            r.r2 = task.waitIsOver() ? 1 : 0;
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = node.thread == null ? 1 : 0;
        }
    }
}
