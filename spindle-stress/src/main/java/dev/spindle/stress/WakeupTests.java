/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.queue.Injector;
import dev.spindle.queue.WorkStealingDeque;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The memory-ordering premise of the pool's park/wake protocol (see {@code IdleCoordinator}): a submitter
 * publishes a task and then reads the idle state word; the last searcher to park updates the
 * state word and then re-checks the queues. At least one of the two must see the other, or the
 * task waits with every worker parked. These tests reproduce the two sides with the same
 * operations the pool uses, on a copy of the state word's layout (the pool's own class is
 * package-private).
 *
 * <p>Results: {@code r1} is 1 if the submitter's read of the state word would wake a worker
 * (nobody searching, somebody parked); {@code r2} is 1 if the parker's re-check saw the task.
 */
public final class WakeupTests {

    static final long SEARCHING_ONE = 1L;
    static final long PARKED_ONE = 1L << 32;

    private WakeupTests() {
    }

    static int wouldWake(long s) {
        boolean searching = (s & 0xFFFF_FFFFL) != 0;
        boolean parked = (s >>> 32) != 0;
        return !searching && parked ? 1 : 0;
    }

    @JCStressTest
    @Description("External submit (injector offer, then state read) vs last searcher parking (state update, then queue re-check).")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both saw each other: the task is found and a worker woken")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the submitter saw the parked worker and wakes it")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the parker's re-check saw the task and wakes a worker")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST WAKE-UP: neither saw the other")
    @State
    public static class InjectorSubmitVsPark {
        final Injector<Object> injector = new Injector<>();
        final AtomicLong state = new AtomicLong(SEARCHING_ONE);   // one searcher, about to park

        @Actor
        public void submitter(II_Result r) {
            injector.offer(1);                                   // submitExternal
            r.r1 = wouldWake(state.get());                       // notifyWork's fast path
        }

        @Actor
        public void lastSearcher(II_Result r) {
            state.addAndGet(PARKED_ONE - SEARCHING_ONE);         // prepareToPark(w, true)
            r.r2 = injector.isEmpty() ? 0 : 1;                   // hasVisibleWork
        }
    }

    @JCStressTest
    @Description("Worker-local push (deque push, then plain state read) vs last searcher parking: documents why that path is only 'racy'.")
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "both saw each other")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the pusher saw the parked worker")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the parker's re-check saw the pushed task")
    @Outcome(id = "0, 0", expect = ACCEPTABLE_INTERESTING,
            desc = "neither saw the other (no fence after a deque push). Tolerated by design: the pusher is a running worker and pops its own deque before it parks, so the task is delayed, not lost")
    @State
    public static class LocalPushVsPark {
        final WorkStealingDeque<Object> deque = new WorkStealingDeque<>();
        final AtomicLong state = new AtomicLong(SEARCHING_ONE);

        @Actor
        public void pusher(II_Result r) {
            deque.push(1);                                       // schedule() from a worker
            r.r1 = wouldWake(state.getPlain());                  // notifyWorkRacy
        }

        @Actor
        public void lastSearcher(II_Result r) {
            state.addAndGet(PARKED_ONE - SEARCHING_ONE);
            r.r2 = deque.isEmpty() ? 0 : 1;
        }
    }
}
