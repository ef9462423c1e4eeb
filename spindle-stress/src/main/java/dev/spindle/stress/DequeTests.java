/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.queue.WorkStealingDeque;
import dev.spindle.stress.Tally.Box;
import dev.spindle.stress.Tally.Side;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.IIIIII_Result;

/**
 * jcstress tests of {@link WorkStealingDeque}. The owner actor is the only thread that pushes
 * and pops; elements put in by a state's constructor are pushed by the harness thread before
 * the actors start, which is a safe hand-over of ownership.
 *
 * <p>Every test ends with the verdict column of {@link Tally}: any outcome whose verdict is not
 * 0 is forbidden (an element lost, taken twice, or seen half-published), and so is an outcome
 * with verdict 0 that is not listed, since it means an order the deque must not produce.
 */
public final class DequeTests {

    private DequeTests() {
    }

    /** Ids 1..n pushed in order by the calling (owner) thread into a fresh deque. */
    static WorkStealingDeque<Object> dequeOf(int n) {
        WorkStealingDeque<Object> d = new WorkStealingDeque<>();
        for (int i = 1; i <= n; i++) {
            d.push(i);
        }
        return d;
    }

    /**
     * The outcome of a race in which the owner offered a third element to a deque of two:
     * accepted, what the owner and the thief took, what is left, and the verdict. Arbiter only.
     */
    static void offerOutcome(IIIII_Result r, WorkStealingDeque<Object> deque, boolean accepted,
            Side owner, Side thief) {
        Side left = drain(deque);
        r.r1 = accepted ? 1 : 0;
        r.r2 = owner.seq;
        r.r3 = thief.seq;
        r.r4 = left.seq;
        r.r5 = Tally.verdict(Tally.upTo(accepted ? 3 : 2), owner, thief, left);
    }

    /** Pops everything left (newest first) into a side. Arbiter only, once the race is over. */
    static Side drain(WorkStealingDeque<Object> d) {
        Side left = new Side();
        for (Object x; (x = d.pop()) != null; ) {
            left.add(x);
        }
        return left;
    }

    // ------------------------------------------------------------------ (a) the last element

    /** One element; the owner pops it while a thief steals it. */
    @JCStressTest
    @Description("Owner pop vs steal on a deque holding one element: the last-element CAS race.")
    @Outcome(id = "1, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "owner took it; thief saw the deque empty")
    @Outcome(id = "1, 0, 1, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "both raced for it; owner won the CAS, thief got retry")
    @Outcome(id = "0, 1, 2, 0, 0", expect = ACCEPTABLE, desc = "thief took it; owner got null")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: the element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: the element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "a steal succeeded without a published element")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not a legal outcome")
    @State
    public static class PopVsStealOne {
        final WorkStealingDeque<Object> deque = dequeOf(1);
        final Side owner = new Side();
        final Side thief = new Side();

        @Actor
        public void owner() {
            owner.add(deque.pop());
        }

        @Actor
        public void thief(IIIII_Result r) {
            r.r3 = thief.addSteal(deque.steal());
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            Side left = drain(deque);
            r.r1 = owner.seq;
            r.r2 = thief.seq;
            r.r4 = left.seq;
            r.r5 = Tally.verdict(Tally.upTo(1), owner, thief, left);
        }
    }

    /** Empty deque; the owner pushes one element and pops it back while a thief steals. */
    @JCStressTest
    @Description("Owner push then pop vs steal, starting empty: publication plus the last-element race.")
    @Outcome(id = "1, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "owner pushed and popped it; thief saw empty")
    @Outcome(id = "1, 0, 1, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "owner won the last-element CAS; thief got retry")
    @Outcome(id = "0, 1, 2, 0, 0", expect = ACCEPTABLE, desc = "thief stole it between the push and the pop")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: the element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: the element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "a steal succeeded without a published element")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not a legal outcome")
    @State
    public static class PushPopVsSteal {
        final WorkStealingDeque<Object> deque = dequeOf(0);
        final Side owner = new Side();
        final Side thief = new Side();

        @Actor
        public void owner() {
            deque.push(new Box(1));
            owner.add(deque.pop());
        }

        @Actor
        public void thief(IIIII_Result r) {
            r.r3 = thief.addSteal(deque.steal());
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            Side left = drain(deque);
            r.r1 = owner.seq;
            r.r2 = thief.seq;
            r.r4 = left.seq;
            r.r5 = Tally.verdict(Tally.upTo(1), owner, thief, left);
        }
    }

    /**
     * One element; the owner pushes a second and pops twice (the second pop is the last-element
     * race) while a thief steals once.
     */
    @JCStressTest
    @Description("Owner push, pop, pop vs steal on a deque holding one element, then two.")
    @Outcome(id = "21, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "owner took both, newest first; thief saw empty")
    @Outcome(id = "21, 0, 1, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "owner won the last-element CAS; thief got retry")
    @Outcome(id = "2, 1, 2, 0, 0", expect = ACCEPTABLE, desc = "thief stole the oldest; owner popped the newest")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "a steal succeeded without a published element")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not LIFO for the owner / FIFO for the thief")
    @State
    public static class PushPopPopVsSteal {
        final WorkStealingDeque<Object> deque = dequeOf(1);
        final Side owner = new Side();
        final Side thief = new Side();

        @Actor
        public void owner() {
            deque.push(2);
            owner.add(deque.pop());
            owner.add(deque.pop());
        }

        @Actor
        public void thief(IIIII_Result r) {
            r.r3 = thief.addSteal(deque.steal());
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            Side left = drain(deque);
            r.r1 = owner.seq;
            r.r2 = thief.seq;
            r.r4 = left.seq;
            r.r5 = Tally.verdict(Tally.upTo(2), owner, thief, left);
        }
    }

    // ------------------------------------------------------------------ (b) steal vs steal

    /** One element, two thieves. */
    @JCStressTest
    @Description("Steal vs steal on a deque holding one element.")
    @Outcome(id = "1, 2, 0, 0, 0, 0", expect = ACCEPTABLE, desc = "thief 1 took it; thief 2 saw empty")
    @Outcome(id = "1, 2, 0, 1, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "both raced; thief 1 won the CAS")
    @Outcome(id = "0, 0, 1, 2, 0, 0", expect = ACCEPTABLE, desc = "thief 2 took it; thief 1 saw empty")
    @Outcome(id = "0, 1, 1, 2, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "both raced; thief 2 won the CAS")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: the element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: both thieves got it")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "a steal succeeded without a published element")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not a legal outcome")
    @State
    public static class StealVsStealOne {
        final WorkStealingDeque<Object> deque = dequeOf(1);
        final Side thief1 = new Side();
        final Side thief2 = new Side();

        @Actor
        public void thief1(IIIIII_Result r) {
            r.r2 = thief1.addSteal(deque.steal());
        }

        @Actor
        public void thief2(IIIIII_Result r) {
            r.r4 = thief2.addSteal(deque.steal());
        }

        @Arbiter
        public void arbiter(IIIIII_Result r) {
            Side left = drain(deque);
            r.r1 = thief1.seq;
            r.r3 = thief2.seq;
            r.r5 = left.seq;
            r.r6 = Tally.verdict(Tally.upTo(1), thief1, thief2, left);
        }
    }

    /** Two elements, two thieves stealing once each. */
    @JCStressTest
    @Description("Steal vs steal on a deque holding two elements.")
    @Outcome(id = "1, 2, 2, 2, 0, 0", expect = ACCEPTABLE, desc = "thief 1 took the oldest, then thief 2 the next")
    @Outcome(id = "2, 2, 1, 2, 0, 0", expect = ACCEPTABLE, desc = "thief 2 took the oldest, then thief 1 the next")
    @Outcome(id = "1, 2, 0, 1, 2, 0", expect = ACCEPTABLE_INTERESTING, desc = "both raced for the oldest; thief 1 won")
    @Outcome(id = "0, 1, 1, 2, 2, 0", expect = ACCEPTABLE_INTERESTING, desc = "both raced for the oldest; thief 2 won")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "a steal succeeded without a published element")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not FIFO, or a thief saw a non-empty deque as empty")
    @State
    public static class StealVsStealTwo {
        final WorkStealingDeque<Object> deque = dequeOf(2);
        final Side thief1 = new Side();
        final Side thief2 = new Side();

        @Actor
        public void thief1(IIIIII_Result r) {
            r.r2 = thief1.addSteal(deque.steal());
        }

        @Actor
        public void thief2(IIIIII_Result r) {
            r.r4 = thief2.addSteal(deque.steal());
        }

        @Arbiter
        public void arbiter(IIIIII_Result r) {
            Side left = drain(deque);
            r.r1 = thief1.seq;
            r.r3 = thief2.seq;
            r.r5 = left.seq;
            r.r6 = Tally.verdict(Tally.upTo(2), thief1, thief2, left);
        }
    }

    // ------------------------------------------------------------------ (c) batch steal

    /**
     * Three elements; the owner pops three times while a thief batch-steals into its own deque.
     * The thief sees at most three elements, so it wants at most two: it and the owner race for
     * the middle element (the owner's second pop) and, if the thief took only one, for nothing
     * else; if the thief is slow, the owner's third pop races its first CAS.
     */
    @JCStressTest
    @Description("Owner pop x3 vs stealBatchOrNull into the thief's own deque; counts what lands there too.")
    @Outcome(id = "321, 0, 0, 0", expect = ACCEPTABLE, desc = "owner took everything, newest first")
    @Outcome(id = "32, 1, 0, 0", expect = ACCEPTABLE, desc = "thief took the oldest; owner the other two")
    @Outcome(id = "3, 12, 0, 0", expect = ACCEPTABLE, desc = "thief took a batch of two (the second into its deque)")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "a steal succeeded without a published element")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not a legal order")
    @State
    public static class PopVsStealBatch {
        final WorkStealingDeque<Object> deque = dequeOf(3);
        final WorkStealingDeque<Object> thiefDeque = new WorkStealingDeque<>(2, 1 << 10);
        final Side owner = new Side();
        final Side thief = new Side();

        @Actor
        public void owner() {
            owner.add(deque.pop());
            owner.add(deque.pop());
            owner.add(deque.pop());
        }

        @Actor
        public void thief() {
            thief.add(deque.stealBatchOrNull(thiefDeque, 8));
            // the rest of the batch, oldest first (the thief owns thiefDeque, any thread may steal)
            for (Object x; (x = thiefDeque.stealOrNull()) != null; ) {
                thief.add(x);
            }
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            Side left = drain(deque);
            left.add(thiefDeque.pop());        // must be empty; counted if not
            r.r1 = owner.seq;
            r.r2 = thief.seq;
            r.r3 = left.seq;
            r.r4 = Tally.verdict(Tally.upTo(3), owner, thief, left);
        }
    }

    /**
     * Four elements; the owner pops twice while a thief batch-steals. A thief that sees four or
     * three elements wants two (indices 0 and 1), one that sees two wants one; the owner pops
     * indices 3 and 2. So the owner always gets 4 then 3, and the thief's batch must stay within
     * what is left while bottom moves under it.
     */
    @JCStressTest
    @Description("Owner pop x2 vs stealBatchOrNull on four elements.")
    @Outcome(id = "43, 1, 2, 0", expect = ACCEPTABLE, desc = "thief saw two elements and took one; one is left")
    @Outcome(id = "43, 12, 0, 0", expect = ACCEPTABLE, desc = "thief saw three or four and took a batch of two")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "a steal succeeded without a published element")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not a legal order")
    @State
    public static class PopPopVsStealBatchFour {
        final WorkStealingDeque<Object> deque = dequeOf(4);
        final WorkStealingDeque<Object> thiefDeque = new WorkStealingDeque<>(2, 1 << 10);
        final Side owner = new Side();
        final Side thief = new Side();

        @Actor
        public void owner() {
            owner.add(deque.pop());
            owner.add(deque.pop());
        }

        @Actor
        public void thief() {
            thief.add(deque.stealBatchOrNull(thiefDeque, 8));
            for (Object x; (x = thiefDeque.stealOrNull()) != null; ) {
                thief.add(x);
            }
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            Side left = new Side();
            for (Object x; (x = deque.stealOrNull()) != null; ) {
                left.add(x);                   // oldest first, to read the order easily
            }
            left.add(thiefDeque.pop());
            r.r1 = owner.seq;
            r.r2 = thief.seq;
            r.r3 = left.seq;
            r.r4 = Tally.verdict(Tally.upTo(4), owner, thief, left);
        }
    }

    // ------------------------------------------------------------------ (d) publication

    /**
     * Empty deque; the owner pushes two fresh {@link Box}es (plain id field) while a thief
     * steals once. A success must carry the first box with its id visible.
     */
    @JCStressTest
    @Description("Owner push vs steal: a thief never sees a half-published element.")
    @Outcome(id = "0, 0, 21, 0", expect = ACCEPTABLE, desc = "thief saw the deque empty")
    @Outcome(id = "1, 2, 2, 0", expect = ACCEPTABLE, desc = "thief stole the first box, fully initialised")
    @Outcome(id = "0, 1, 21, 0", expect = ACCEPTABLE_INTERESTING, desc = "thief saw bottom move but not the slot; reported retry, nothing lost")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "HALF-PUBLISHED: success with null, or a box whose id is not visible")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not a legal outcome")
    @State
    public static class PushVsSteal {
        final WorkStealingDeque<Object> deque = dequeOf(0);
        final Side thief = new Side();

        @Actor
        public void owner() {
            deque.push(new Box(1));
            deque.push(new Box(2));
        }

        @Actor
        public void thief(IIII_Result r) {
            r.r2 = thief.addSteal(deque.steal());
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            Side left = drain(deque);
            r.r1 = thief.seq;
            r.r3 = left.seq;
            r.r4 = Tally.verdict(Tally.upTo(2), thief, left);
        }
    }

    // ------------------------------------------------------------------ (f) growth and wrap

    /**
     * A ring of two slots holding one element; the owner pushes three more fresh boxes (the ring
     * grows to four, and to eight if nothing was stolen) while a thief steals twice.
     */
    @JCStressTest
    @Description("Deque growth: owner pushes past the initial capacity of 2 while a thief steals twice.")
    @Outcome(id = "1, 432, 0", expect = ACCEPTABLE, desc = "thief stole the oldest, then saw the rest not yet pushed")
    @Outcome(id = "12, 43, 0", expect = ACCEPTABLE, desc = "thief stole two, oldest first")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "HALF-PUBLISHED: success with null, or a box whose id is not visible")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not FIFO for the thief / LIFO for the drain")
    @State
    public static class GrowVsSteal {
        final WorkStealingDeque<Object> deque = new WorkStealingDeque<>(2, 1 << 10);
        final Side thief = new Side();

        {
            deque.push(new Box(1));
        }

        @Actor
        public void owner() {
            deque.push(new Box(2));
            deque.push(new Box(3));
            deque.push(new Box(4));
        }

        @Actor
        public void thief() {
            thief.addSteal(deque.steal());
            thief.addSteal(deque.steal());
        }

        @Arbiter
        public void arbiter(III_Result r) {
            Side left = drain(deque);
            r.r1 = thief.seq;
            r.r2 = left.seq;
            r.r3 = Tally.verdict(Tally.upTo(4), thief, left);
        }
    }

    /**
     * A full ring of two (maximum two): the thief steals twice while the owner offers a third
     * element and pops once. The offer is accepted only if the first steal already made room;
     * the element then goes into the slot of the stolen index 0, after the owner's lazy clearing
     * of that slot.
     */
    @JCStressTest
    @Description("Ring wrap-around and lazy clearing at maximum capacity 2: offer/pop vs two steals.")
    @Outcome(id = "0, 2, 1, 0, 0", expect = ACCEPTABLE, desc = "offer refused (full); owner popped 2; thief stole 1")
    @Outcome(id = "0, 0, 12, 0, 0", expect = ACCEPTABLE, desc = "offer refused; thief stole 1, then won the last-element race for 2")
    @Outcome(id = "1, 3, 12, 0, 0", expect = ACCEPTABLE_INTERESTING, desc = "thief stole 1 first; offer wrapped 3 into slot 0; thief stole 2; owner popped 3")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "a steal succeeded without a published element")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not a legal outcome")
    @State
    public static class WrapVsSteal {
        final WorkStealingDeque<Object> deque = new WorkStealingDeque<>(2, 2);
        final Side owner = new Side();
        final Side thief = new Side();
        boolean accepted;

        {
            deque.push(1);
            deque.push(2);
        }

        @Actor
        public void owner() {
            accepted = deque.offer(3);
            owner.add(deque.pop());
        }

        @Actor
        public void thief() {
            thief.addSteal(deque.steal());
            thief.addSteal(deque.steal());
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            offerOutcome(r, deque, accepted, owner, thief);
        }
    }

    /**
     * A push after a pop, on the owner's view of {@code top}: from [1, 2] the owner pops and
     * offers 3 while the thief steals twice. If the pop took 2 without a CAS, the offer goes on
     * the view it had before (never read again) and lands in slot 1; if the pop raced the thief
     * for the last element, its CAS set the view, the offer sees the deque empty, reads top,
     * clears the stolen slots and wraps 3 into slot 0. A slot cleared that a thief had yet to
     * read would show as a lost or half-published element; an offer refused on a stale view as
     * an outcome not listed.
     */
    @JCStressTest
    @Description("Pop then offer with the owner's last view of top vs two steals, at maximum capacity 2.")
    @Outcome(id = "1, 2, 13, 0, 0", expect = ACCEPTABLE, desc = "owner popped 2; thief stole 1, then 3 after the offer")
    @Outcome(id = "1, 2, 1, 3, 0", expect = ACCEPTABLE, desc = "owner popped 2; thief stole 1, its second steal came before the offer")
    @Outcome(id = "1, 0, 12, 3, 0", expect = ACCEPTABLE_INTERESTING, desc = "thief stole 1 and won the last-element race for 2; 3 wrapped into slot 0")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "a steal succeeded without a published element")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not a legal outcome")
    @State
    public static class PopThenOfferVsSteal {
        final WorkStealingDeque<Object> deque = new WorkStealingDeque<>(2, 2);
        final Side owner = new Side();
        final Side thief = new Side();
        boolean accepted;

        {
            deque.push(1);
            deque.push(2);
        }

        @Actor
        public void owner() {
            owner.add(deque.pop());
            accepted = deque.offer(3);
        }

        @Actor
        public void thief() {
            thief.addSteal(deque.steal());
            thief.addSteal(deque.steal());
        }

        @Arbiter
        public void arbiter(IIIII_Result r) {
            offerOutcome(r, deque, accepted, owner, thief);
        }
    }

    // ------------------------------------------------------------------ (g) a young ring

    /**
     * A deque of one element, Box 1 at index 63 (the harness pushed 63 fillers and stole them),
     * that renews its ring at every fresh read of {@code top}. The owner pushes 2, 3 and 4: the
     * push at index 64 (a multiple of the clearing lag) reads {@code top} afresh and so copies
     * the live elements into a new ring before it stores; the thief steals twice meanwhile,
     * from the old ring or the new. Either ring must give it the same element, and nothing may
     * be lost, taken twice or seen half-published.
     */
    @JCStressTest
    @Description("Ring renewal: the owner's push copies the ring while a thief steals twice.")
    @Outcome(id = "1, 432, 0", expect = ACCEPTABLE, desc = "thief stole the oldest, then saw the rest not yet pushed")
    @Outcome(id = "12, 43, 0", expect = ACCEPTABLE, desc = "thief stole two, oldest first")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "HALF-PUBLISHED: success with null, or a box whose id is not visible")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not FIFO for the thief / LIFO for the drain")
    @State
    public static class RenewVsSteal {
        final WorkStealingDeque<Object> deque = renewingAt63();
        final Side thief = new Side();

        @Actor
        public void owner() {
            deque.push(new Box(2));
            deque.push(new Box(3));
            deque.push(new Box(4));
        }

        @Actor
        public void thief() {
            thief.addSteal(deque.steal());
            thief.addSteal(deque.steal());
        }

        @Arbiter
        public void arbiter(III_Result r) {
            Side left = drain(deque);
            r.r1 = thief.seq;
            r.r2 = left.seq;
            r.r3 = Tally.verdict(Tally.upTo(4), thief, left);
        }
    }

    /**
     * As {@link RenewVsSteal}, but the deque holds 1, 2 and 3 (at indices 61 to 63) and the
     * thief takes a batch: it reads several slots of whichever ring it loaded while the owner's
     * push of 4 copies them into a new one.
     */
    @JCStressTest
    @Description("Ring renewal: the owner's push copies the ring while a thief steals a batch.")
    @Outcome(id = "12, 43, 0", expect = ACCEPTABLE, desc = "thief saw three or four and took a batch of two, oldest first")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(id = ".*, [4-7]", expect = FORBIDDEN, desc = "HALF-PUBLISHED: success with null, or a box whose id is not visible")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not a legal order")
    @State
    public static class RenewVsStealBatch {
        final WorkStealingDeque<Object> deque = renewingAt(61, 3);
        final WorkStealingDeque<Object> thiefDeque = new WorkStealingDeque<>(2, 1 << 10);
        final Side thief = new Side();

        @Actor
        public void owner() {
            deque.push(new Box(4));
        }

        @Actor
        public void thief() {
            thief.add(deque.stealBatchOrNull(thiefDeque, 8));
            for (Object x; (x = thiefDeque.stealOrNull()) != null; ) {
                thief.add(x);
            }
        }

        @Arbiter
        public void arbiter(III_Result r) {
            Side left = drain(deque);
            left.add(thiefDeque.pop());        // must be empty; counted if not
            r.r1 = thief.seq;
            r.r2 = left.seq;
            r.r3 = Tally.verdict(Tally.upTo(4), thief, left);
        }
    }

    /** {@link #renewingAt}(63, 1). */
    static WorkStealingDeque<Object> renewingAt63() {
        return renewingAt(63, 1);
    }

    /**
     * A renewing deque (64 slots) whose first element is at index {@code first}, holding Boxes 1
     * to {@code n}: {@code first} fillers pushed and stolen by the calling thread, which hands the
     * deque to the owner actor as any state's constructor does.
     */
    static WorkStealingDeque<Object> renewingAt(int first, int n) {
        WorkStealingDeque<Object> d = Renewing.deque(64, 1 << 10);
        for (int i = 0; i < first; i++) {
            d.push(i);
        }
        for (int i = 0; i < first; i++) {
            d.steal();
        }
        for (int id = 1; id <= n; id++) {
            d.push(new Box(id));
        }
        return d;
    }
}
