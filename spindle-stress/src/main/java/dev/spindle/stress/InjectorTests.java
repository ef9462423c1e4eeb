/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.spindle.queue.Injector;
import dev.spindle.queue.WorkStealingDeque;
import dev.spindle.stress.Tally.Box;
import dev.spindle.stress.Tally.Side;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * jcstress tests of {@link Injector}. Results are sequences and a verdict, as described in
 * {@link Tally}; the arbiter drains what is left with {@link Injector#poll()}, so the "left"
 * column is in FIFO order.
 */
public final class InjectorTests {

    private InjectorTests() {
    }

    static Injector<Object> injectorOf(int n) {
        Injector<Object> q = new Injector<>();
        for (int i = 1; i <= n; i++) {
            q.offer(i);
        }
        return q;
    }

    static Side drain(Injector<Object> q) {
        Side left = new Side();
        for (Object x; (x = q.poll()) != null; ) {
            left.add(x);
        }
        return left;
    }

    /** One element queued; a producer offers two more while a consumer polls twice. */
    @JCStressTest
    @Description("Injector offer x2 vs poll x2: no loss, no duplicate, FIFO.")
    @Outcome(id = "1, 23, 0", expect = ACCEPTABLE, desc = "consumer got the first; its second poll saw no completed offer")
    @Outcome(id = "12, 3, 0", expect = ACCEPTABLE, desc = "consumer got the first two in order")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not FIFO (or a poll missed the element queued first)")
    @State
    public static class OfferVsPoll {
        final Injector<Object> q = injectorOf(1);
        final Side consumer = new Side();

        @Actor
        public void producer() {
            q.offer(new Box(2));
            q.offer(new Box(3));
        }

        @Actor
        public void consumer() {
            consumer.add(q.poll());
            consumer.add(q.poll());
        }

        @Arbiter
        public void arbiter(III_Result r) {
            Side left = drain(q);
            r.r1 = consumer.seq;
            r.r2 = left.seq;
            r.r3 = Tally.verdict(Tally.upTo(3), consumer, left);
        }
    }

    /** Two producers offer one element each into an empty queue. */
    @JCStressTest
    @Description("Injector offer vs offer: both elements arrive exactly once.")
    @Outcome(id = "12, 0", expect = ACCEPTABLE, desc = "producer 1 first")
    @Outcome(id = "21, 0", expect = ACCEPTABLE, desc = "producer 2 first")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(expect = FORBIDDEN, desc = "not a legal outcome")
    @State
    public static class OfferVsOffer {
        final Injector<Object> q = injectorOf(0);

        @Actor
        public void producer1() {
            q.offer(new Box(1));
        }

        @Actor
        public void producer2() {
            q.offer(new Box(2));
        }

        @Arbiter
        public void arbiter(II_Result r) {
            Side left = drain(q);
            r.r1 = left.seq;
            r.r2 = Tally.verdict(Tally.upTo(2), left);
        }
    }

    /** Two elements, two consumers polling once each. */
    @JCStressTest
    @Description("Injector poll vs poll on two elements: each gets a different one, none gets null.")
    @Outcome(id = "1, 2, 0, 0", expect = ACCEPTABLE, desc = "consumer 1 claimed first")
    @Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE, desc = "consumer 2 claimed first")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: both got the same element")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but a poll returned null with an element queued")
    @State
    public static class PollVsPoll {
        final Injector<Object> q = injectorOf(2);
        final Side c1 = new Side();
        final Side c2 = new Side();

        @Actor
        public void consumer1() {
            c1.add(q.poll());
        }

        @Actor
        public void consumer2() {
            c2.add(q.poll());
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            Side left = drain(q);
            r.r1 = c1.seq;
            r.r2 = c2.seq;
            r.r3 = left.seq;
            r.r4 = Tally.verdict(Tally.upTo(2), c1, c2, left);
        }
    }

    /** Three elements; one consumer takes a batch into its deque while another polls. */
    @JCStressTest
    @Description("Injector pollBatch (into the caller's deque) vs poll on three elements.")
    @Outcome(id = "123, 0, 0, 0", expect = ACCEPTABLE, desc = "the batch claimed all three first; the poll found nothing")
    @Outcome(id = "23, 1, 0, 0", expect = ACCEPTABLE, desc = "the poll claimed the oldest; the batch took the other two in order")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not FIFO")
    @State
    public static class PollBatchVsPoll {
        final Injector<Object> q = injectorOf(3);
        final WorkStealingDeque<Object> dest = new WorkStealingDeque<>(2, 1 << 10);
        final Side batch = new Side();
        final Side poller = new Side();

        @Actor
        public void batch() {
            batch.add(q.pollBatch(dest, 8));
            for (Object x; (x = dest.stealOrNull()) != null; ) {
                batch.add(x);                  // the rest of the batch, oldest first
            }
        }

        @Actor
        public void poller() {
            poller.add(q.poll());
        }

        @Arbiter
        public void arbiter(IIII_Result r) {
            Side left = drain(q);
            left.add(dest.pop());
            r.r1 = batch.seq;
            r.r2 = poller.seq;
            r.r3 = left.seq;
            r.r4 = Tally.verdict(Tally.upTo(3), batch, poller, left);
        }
    }

    /**
     * The head segment has two free slots left; a producer offers three elements (the third
     * opens a new segment, or the second does if a consumer spoiled a slot) while a consumer
     * polls three times.
     */
    @JCStressTest
    @Description("Injector offer x3 vs poll x3 across a segment boundary.")
    @Outcome(id = "0, 123, 0", expect = ACCEPTABLE, desc = "consumer saw nothing yet")
    @Outcome(id = "1, 23, 0", expect = ACCEPTABLE, desc = "consumer got one")
    @Outcome(id = "12, 3, 0", expect = ACCEPTABLE, desc = "consumer got two")
    @Outcome(id = "123, 0, 0", expect = ACCEPTABLE, desc = "consumer got all three")
    @Outcome(id = ".*, 1", expect = FORBIDDEN, desc = "LOST: an element was taken by nobody")
    @Outcome(id = ".*, 2", expect = FORBIDDEN, desc = "DUPLICATED: an element was taken twice")
    @Outcome(id = ".*, 3", expect = FORBIDDEN, desc = "lost and duplicated")
    @Outcome(expect = FORBIDDEN, desc = "nothing lost or duplicated, but not FIFO")
    @State
    public static class SegmentBoundary {
        static final int FILL = 1022;          // Injector.SEGMENT_SIZE - 2
        static final Object FILLER = new Object();
        final Injector<Object> q = new Injector<>();
        final Side consumer = new Side();

        {
            for (int i = 0; i < FILL; i++) {
                q.offer(FILLER);
            }
            for (int i = 0; i < FILL; i++) {
                q.poll();
            }
        }

        @Actor
        public void producer() {
            q.offer(new Box(1));
            q.offer(new Box(2));
            q.offer(new Box(3));
        }

        @Actor
        public void consumer() {
            consumer.add(q.poll());
            consumer.add(q.poll());
            consumer.add(q.poll());
        }

        @Arbiter
        public void arbiter(III_Result r) {
            Side left = drain(q);
            r.r1 = consumer.seq;
            r.r2 = left.seq;
            r.r3 = Tally.verdict(Tally.upTo(3), consumer, left);
        }
    }
}
