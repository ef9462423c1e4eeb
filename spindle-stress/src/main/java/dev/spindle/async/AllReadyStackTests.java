/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * {@code Async.all}'s ready stack (see {@code Async.Parent}): one thread wakes a child early
 * (a spurious wake: it is not ready), then wakes a second child that is ready, then makes the
 * first ready and wakes it again, while another thread polls the parent. The first child's
 * second wake may come while the poll has it off the stack, before or after the poll clears its
 * mark (a mark cleared after the child's poll instead of before loses that wake: caught here).
 * Whatever the interleaving, a poll after all the wakes must find both children done (a child
 * left marked but off the stack would never be polled again: a task joined for good), and if the
 * racing poll was pending, a wake must have reached the parent after that poll began (a runtime
 * polls a task again only if it is woken). The third result counts the parent's wakes: one per
 * push that found the stack empty, so 1 to 3.
 */
@JCStressTest
@Description("Async.all: children woken on one thread while another polls the parent.")
@Outcome(id = {"1, 1, 1", "1, 1, 2", "1, 1, 3"}, expect = ACCEPTABLE, desc = "the racing poll found both done")
@Outcome(id = {"0, 1, 1", "0, 1, 2", "0, 1, 3"}, expect = ACCEPTABLE,
        desc = "the racing poll was early for one; the next poll found both")
@Outcome(expect = FORBIDDEN, desc = "a woken child never polled again, or a pending poll never woken again")
@State
public class AllReadyStackTests {

    /** Pending until opened; records its latest waker. */
    static final class Gate implements AsyncTask<Integer> {
        final int value;
        volatile boolean open;
        volatile Waker waker;

        Gate(int value) {
            this.value = value;
        }

        @Override
        public Poll<Integer> poll(Context cx) {
            waker = cx.waker();
            return open ? Poll.ready(value) : Poll.pending();
        }

        void openAndWake() {
            open = true;
            waker.wake();
        }
    }

    private final Gate g0 = new Gate(10);
    private final Gate g1 = new Gate(20);
    private final CountingContext cx = new CountingContext();
    private final AsyncTask<List<Integer>> all = Async.all(List.of(g0, g1));

    public AllReadyStackTests() {
        if (!all.poll(cx).isPending()) {       // registers both children's wakers
            throw new IllegalStateException("not pending");
        }
    }

    @Actor
    public void wake() {
        g0.waker.wake();                       // spurious: g0 is not open yet
        g1.openAndWake();
        g0.openAndWake();
    }

    private int wakesBeforePoll;

    @Actor
    public void poll(III_Result r) {
        wakesBeforePoll = cx.wakes();
        Poll<List<Integer>> p = all.poll(cx);
        r.r1 = p.isReady() && p.value().equals(List.of(10, 20)) ? 1 : 0;
    }

    @Arbiter
    public void pollAgain(III_Result r) {
        if (r.r1 == 1) {
            r.r2 = 1;
        } else {
            Poll<List<Integer>> p = all.poll(cx);
            r.r2 = p.isReady() && p.value().equals(List.of(10, 20)) ? 1 : 0;
            if (cx.wakes() == wakesBeforePoll) {
                r.r2 = -1;                     // pending, and nothing would poll it again
            }
        }
        r.r3 = cx.wakes();
    }
}
