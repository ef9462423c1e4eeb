/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.pool.ComputeTask;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The fork slot of a {@code WorkStealingPool} worker (see {@code Worker}): the newest fork task,
 * kept out of the deque so that the owner takes it with a plain read and an opaque store, no
 * fence. Thieves read the slot with acquire but never write it; both sides run what they read
 * only if they win the task's own start CAS. These tests reproduce the slot's accesses on a
 * copy of the field (the worker class is package-private) and use the real task class:
 * {@link ComputeTask#invoke()} starts a task through the same CAS as the pool and throws
 * {@link IllegalStateException} if the task was started already. Outcomes not listed (for
 * instance a run count that disagrees with who ran it) fail the test like the FORBIDDEN ones.
 */
public final class ForkSlotTests {

    private ForkSlotTests() {
    }

    /** A task that counts its runs; {@code id} is a plain field, to check publication. */
    static final class Counted extends ComputeTask<Integer> {
        int id;
        int runs;

        Counted(int id) {
            this.id = id;
        }

        @Override
        protected Integer compute() {
            runs++;
            return id;
        }
    }

    /** Runs {@code t} if this caller wins its start; 1 if it ran here, 0 if not. */
    static int tryInvoke(Counted t) {
        if (t == null) {
            return 0;
        }
        try {
            t.invoke();
            return 1;
        } catch (IllegalStateException alreadyStarted) {
            return 0;
        }
    }

    static final VarHandle SLOT;

    static {
        try {
            SLOT = MethodHandles.lookup().findVarHandle(Slot.class, "slot", Counted.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The slot field, as {@code WorkerHotFields.slot}. */
    public static class Slot {
        Counted slot;
    }

    @JCStressTest
    @Description("A task in the fork slot: the owner takes it (plain read, opaque clear, start CAS) while a thief reads the slot and tries to start it.")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the owner ran it")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "the thief read the slot first and won the start; the owner skipped it")
    @Outcome(id = "1, 1, 2", expect = FORBIDDEN, desc = "RAN TWICE")
    @Outcome(id = "0, 0, 0", expect = FORBIDDEN, desc = "LOST: nobody ran it")
    @State
    public static class OwnerTakeVsThief extends Slot {
        final Counted task = new Counted(7);

        public OwnerTakeVsThief() {
            SLOT.setRelease(this, task);       // pushFork
        }

        @Actor
        public void owner(III_Result r) {
            Counted s = slot;                  // takeForkSlot: plain read
            if (s != null) {
                SLOT.setOpaque(this, null);
            }
            r.r1 = tryInvoke(s);
        }

        @Actor
        public void thief(III_Result r) {
            r.r2 = tryInvoke((Counted) SLOT.getAcquire(this));   // peekForkSlot
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = task.runs;
        }
    }

    @JCStressTest
    @Description("The owner fills the slot with a new task (release store) while a thief reads it (acquire): a thief never sees a task whose fields are not yet visible, and the task runs exactly once.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the thief saw the empty slot; the owner ran the task")
    @Outcome(id = "1, 1", expect = ACCEPTABLE_INTERESTING, desc = "the thief saw the task built, and one of the two ran it")
    @Outcome(id = "-1, 1", expect = FORBIDDEN, desc = "UNPUBLISHED: the thief saw the task before its field")
    @Outcome(id = "1, 2", expect = FORBIDDEN, desc = "RAN TWICE")
    @State
    public static class FillVsThief extends Slot {
        Counted filled;

        @Actor
        public void owner() {
            Counted t = new Counted(42);
            filled = t;
            SLOT.setRelease(this, t);          // pushFork
            Counted s = slot;                  // the join takes it back: takeForkSlot
            SLOT.setOpaque(this, null);
            tryInvoke(s);
        }

        @Actor
        public void thief(II_Result r) {
            Counted s = (Counted) SLOT.getAcquire(this);
            if (s == null) {
                r.r1 = 0;
            } else {
                r.r1 = s.id == 42 ? 1 : -1;
                tryInvoke(s);
            }
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = filled.runs;
        }
    }
}
