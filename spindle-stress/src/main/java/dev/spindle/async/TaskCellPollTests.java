/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A poll that begins without an atomic instruction (see "Why a wake during the poll is never
 * lost" in {@link TaskCell}'s overview): the worker that took the cell's queue entry reads the
 * state word, polls, and closes a pending poll with one CAS that expects the word it read
 * ({@link TaskCell#finishPending}). A wake or a cancel racing with that poll must end in exactly
 * one new queue entry, or none when the poll saw it: never none when the poll missed it (a lost
 * wake-up, a cancelled task nobody retires), never two (two workers polling one task). These
 * tests run the runtime's own code on bare cells (no runtime, no worker), as
 * {@link JoinHandleCompletionTests} do; the waker's and the canceller's side is the part of
 * {@link TaskCell#wake} and {@link JoinHandle#cancel} before the cell would be delivered to a
 * queue.
 */
public final class TaskCellPollTests {

    private TaskCellPollTests() {
    }

    @JCStressTest
    @Description("A worker's pending poll of a cell it took from a queue vs a wake from another thread.")
    @Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "the wake came before the poll began: the poll saw the message, the cell goes idle")
    @Outcome(id = {"0, 1, 0", "1, 1, 0"}, expect = ACCEPTABLE, desc = "the wake came during the poll: the poller re-queues the cell (the poll may have seen the message already)")
    @Outcome(id = {"0, 0, 1", "1, 0, 1"}, expect = ACCEPTABLE, desc = "the wake came after the poll: it found the cell idle and queues it")
    @Outcome(id = "0, 0, 0", expect = FORBIDDEN, desc = "LOST WAKE-UP: the poll missed the message and nobody queues the cell again")
    @Outcome(expect = FORBIDDEN, desc = "two queue entries: two workers could poll the task at once")
    @State
    public static class PollVsWake {
        final TaskCell<Integer> cell = new TaskCell<>(null, cx -> Poll.pending());
        final LiveTasks live = new LiveTasks();
        /** What the waker's caller hands the task before it wakes it (a channel's value). */
        int message;

        @Actor
        public void worker(III_Result r) {
            long before = cell.word();                 // runCell: the poll begins
            r.r1 = message;                            // the poll reads what it waits for
            r.r2 = cell.finishPending(live, before) ? 1 : 0;
        }

        @Actor
        public void waker(III_Result r) {
            message = 1;
            r.r3 = cell.schedule(true) ? 1 : 0;        // wake(): true = deliver it to a queue
        }
    }

    @JCStressTest
    @Description("A worker taking a cell from a queue and polling it (pending) vs a cancel from another thread.")
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "the cancel came first: the worker retires the cell unpolled")
    @Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the cancel came during the poll: the poller re-queues the cell, the next taker retires it")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the cancel came after the poll: it found the cell idle and queues it to be retired")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "LOST RETIREMENT: a cancelled cell left idle, its task never withdrawn")
    @Outcome(expect = FORBIDDEN, desc = "two queue entries")
    @State
    public static class PollVsCancel {
        final TaskCell<Integer> cell = new TaskCell<>(null, cx -> Poll.pending());
        final LiveTasks live = new LiveTasks();

        @Actor
        public void worker(II_Result r) {
            long before = cell.word();
            if (JoinHandle.cancelRequested(before)) {
                r.r1 = 2;                              // runCell: abandon, no poll
                return;
            }
            r.r1 = cell.finishPending(live, before) ? 1 : 0;
        }

        @Actor
        public void canceller(II_Result r) {
            // cancel(false): the outcome, then retireCancelled's schedule(false)
            r.r2 = cell.complete(JoinHandle.CANCELLED, null, false) && cell.schedule(false) ? 1 : 0;
        }
    }
}
