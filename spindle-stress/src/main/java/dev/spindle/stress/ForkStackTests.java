/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.pool.ComputeTask;
import dev.spindle.queue.ForkStack;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The fork stack of a {@code WorkStealingPool} worker: its newest fork tasks, kept out of the
 * deque in a {@link ForkStack} that the owner pushes and pops with plain, opaque and release
 * stores and no fence, and that thieves read (acquire) but never write. Both sides run what they
 * read only if they win the task's own start CAS. These tests drive the real {@link ForkStack}
 * with the real task class: {@link ComputeTask#invoke()} starts a task through the same CAS as
 * the pool and throws {@link IllegalStateException} if the task was started already. Outcomes
 * not listed (for instance a run count that disagrees with who ran it) fail the test like the
 * FORBIDDEN ones.
 */
public final class ForkStackTests {

    private ForkStackTests() {
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

    /** A worker's fork stack as the pool builds it (the predicate stands in for "not started"). */
    static ForkStack<Counted> stack(int capacity) {
        return new ForkStack<>(capacity, t -> !t.isDone());
    }

    @JCStressTest
    @Description("A task on the fork stack: the owner pops it (opaque stores, start CAS) while a thief reads the stack's oldest and tries to start it.")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the owner ran it")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "the thief read the stack first and won the start; the owner skipped it")
    @Outcome(id = "1, 1, 2", expect = FORBIDDEN, desc = "RAN TWICE")
    @Outcome(id = "0, 0, 0", expect = FORBIDDEN, desc = "LOST: nobody ran it")
    @State
    public static class OwnerPopVsThief {
        final ForkStack<Counted> forks = stack(8);
        final Counted task = new Counted(7);

        public OwnerPopVsThief() {
            forks.push(task);
        }

        @Actor
        public void owner(III_Result r) {
            r.r1 = tryInvoke(forks.pop());
        }

        @Actor
        public void thief(III_Result r) {
            r.r2 = tryInvoke(forks.peekOldest());
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = task.runs;
        }
    }

    @JCStressTest
    @Description("The owner pushes a new task (release store of the cell) while a thief reads the stack (acquire): a thief never sees a task whose fields are not yet visible, and the task runs exactly once.")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the thief saw an empty stack; the owner ran the task")
    @Outcome(id = "1, 1", expect = ACCEPTABLE_INTERESTING, desc = "the thief saw the task built, and one of the two ran it")
    @Outcome(id = "-1, 1", expect = FORBIDDEN, desc = "UNPUBLISHED: the thief saw the task before its field")
    @Outcome(id = "1, 2", expect = FORBIDDEN, desc = "RAN TWICE")
    @State
    public static class PushVsThief {
        final ForkStack<Counted> forks = stack(8);
        Counted pushed;

        @Actor
        public void owner() {
            Counted t = new Counted(42);
            pushed = t;
            forks.push(t);
            tryInvoke(forks.pop());            // the join takes it back
        }

        @Actor
        public void thief(II_Result r) {
            Counted s = forks.peekOldest();
            if (s == null) {
                r.r1 = 0;
            } else {
                r.r1 = s.id == 42 ? 1 : -1;
                tryInvoke(s);
            }
        }

        @Arbiter
        public void arbiter(II_Result r) {
            r.r2 = pushed.runs;
        }
    }

    @JCStressTest
    @Description("A full stack (capacity 1) holding A: the owner pushes B, which hands A back (the worker moves it to its deque; here the owner runs it), then pops B and runs it, while a thief reads the stack's oldest and tries to start whatever it finds. Each task runs exactly once.")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the thief found nothing it could start; the owner ran both")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "the thief started A or B first (possibly reading the overwritten cell); the owner ran the other")
    @Outcome(id = "0, 2, 1", expect = FORBIDDEN, desc = "A RAN TWICE")
    @Outcome(id = "0, 1, 2", expect = FORBIDDEN, desc = "B RAN TWICE")
    @Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "A LOST")
    @Outcome(id = "0, 1, 0", expect = FORBIDDEN, desc = "B LOST")
    @State
    public static class DisplaceVsThief {
        final ForkStack<Counted> forks = stack(1);
        final Counted a = new Counted(1);
        final Counted b = new Counted(2);

        public DisplaceVsThief() {
            forks.push(a);
        }

        @Actor
        public void owner() {
            Counted displaced = forks.push(b);
            tryInvoke(displaced);              // the deque entry: run only if not started
            tryInvoke(forks.pop());
        }

        @Actor
        public void thief(III_Result r) {
            r.r1 = tryInvoke(forks.peekOldest());
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r2 = a.runs;
            r.r3 = b.runs;
        }
    }

    @JCStressTest
    @Description("A young array: the stack holds A and renews its array at every push; the owner pushes B (copying A into a new array it then publishes), pops and runs B, then A, while a thief reads the stack's oldest, from the old array or the new, and tries to start it. Each task runs exactly once.")
    @Outcome(id = "0, 1, 1", expect = ACCEPTABLE, desc = "the thief found nothing it could start; the owner ran both")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE_INTERESTING, desc = "the thief started A (from either array) or B; the owner ran the other")
    @Outcome(id = "0, 2, 1", expect = FORBIDDEN, desc = "A RAN TWICE")
    @Outcome(id = "0, 1, 2", expect = FORBIDDEN, desc = "B RAN TWICE")
    @Outcome(id = "0, 0, 1", expect = FORBIDDEN, desc = "A LOST")
    @Outcome(id = "0, 1, 0", expect = FORBIDDEN, desc = "B LOST")
    @State
    public static class RenewVsThief {
        final ForkStack<Counted> forks = Renewing.stack(4, t -> !t.isDone());
        final Counted a = new Counted(1);
        final Counted b = new Counted(2);

        public RenewVsThief() {
            forks.push(a);
        }

        @Actor
        public void owner() {
            forks.push(b);                     // renews: A is copied into the new array
            tryInvoke(forks.pop());
            tryInvoke(forks.pop());
        }

        @Actor
        public void thief(III_Result r) {
            r.r1 = tryInvoke(forks.peekOldest());
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r2 = a.runs;
            r.r3 = b.runs;
        }
    }
}
