/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The queue package used on its own, as a user building a scheduler would: the public methods
 * the existing unit, property and Lincheck tests do not drive ({@link WorkStealingDeque#takeOldest}
 * and {@link Injector#offerAll}), alone and against concurrent takers, with exactly-once counts;
 * what {@link WorkStealingDeque#stolenCount()} counts; and the release of stolen elements the
 * deque's overview promises.
 */
class QueueApiRegressionTest {

    // ------------------------------------------------------------------ WorkStealingDeque.takeOldest

    @Test
    void takeOldestMovesTheOldestInOrderAndLeavesTheRestForPopAndSteal() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(2, 64);
        for (int i = 0; i < 10; i++) {
            d.push(i);
        }
        Object[] out = new Object[16];
        assertThat(d.takeOldest(out, 0)).isZero();
        assertThat(d.size()).isEqualTo(10);
        assertThat(d.takeOldest(out, 4)).isEqualTo(4);
        assertThat(out).startsWith(0, 1, 2, 3);
        assertThat(out[4]).as("nothing written past the count").isNull();
        assertThat(d.size()).isEqualTo(6);
        assertThat(d.steal().value()).isEqualTo(4);
        assertThat(d.pop()).isEqualTo(9);
        assertThat(d.takeOldest(out, 16)).as("more than held: takes what there is").isEqualTo(4);
        assertThat(out).startsWith(5, 6, 7, 8);
        assertThat(d.isEmpty()).isTrue();
        assertThat(d.size()).isZero();
        assertThat(d.pop()).isNull();
        assertThat(d.steal().isEmpty()).isTrue();
        assertThat(d.takeOldest(out, 16)).isZero();
        d.push(42);                                // usable again, across the wrap of the ring
        assertThat(d.peekTop()).isEqualTo(42);
        assertThat(d.pop()).isEqualTo(42);
    }

    /**
     * {@code stolenCount()} promises the elements thieves took, the owner's own takes excluded;
     * the elements the owner moves out with {@code takeOldest} are its own, not a thief's.
     */
    @Test
    void stolenCountDoesNotCountTheOwnersTakeOldest() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(2, 64);
        for (int i = 0; i < 8; i++) {
            d.push(i);
        }
        assertThat(d.takeOldest(new Object[3], 3)).isEqualTo(3);
        assertThat(d.stolenCount()).as("after the owner's takeOldest of 3").isZero();
        assertThat(d.steal().value()).isEqualTo(3);
        assertThat(d.stolenCount()).as("after one steal").isEqualTo(1);
        assertThat(d.takeOldest(new Object[8], 8)).isEqualTo(4);
        assertThat(d.stolenCount()).as("after the owner emptied the deque with takeOldest").isEqualTo(1);
    }

    /**
     * An owner that pushes, pops and moves its oldest half out with {@code takeOldest} (as a
     * pool's overflow does), against thieves that steal one or a batch: every element is taken
     * exactly once.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void takeOldestAgainstThievesTakesEveryElementExactlyOnce() throws InterruptedException {
        for (int rep = 0; rep < 4; rep++) {
            takeOldestRound(2, 100_000, rep % 2 == 0 ? 64 : 1024, 77L + rep);
        }
    }

    private static void takeOldestRound(int thieves, int n, int maxCapacity, long seed)
            throws InterruptedException {
        WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(2, maxCapacity);
        AtomicIntegerArray taken = new AtomicIntegerArray(n);
        AtomicBoolean finished = new AtomicBoolean();
        AtomicLong thiefTakes = new AtomicLong();
        StressThreads ctl = new StressThreads(45, TimeUnit.SECONDS);
        CountDownLatch gate = new CountDownLatch(1 + thieves);
        ctl.start("owner", c -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            Object[] buf = new Object[maxCapacity];
            gate.countDown();
            gate.await();
            int next = 0;
            while (next < n && !c.expired()) {
                if (deque.offer(next)) {
                    next++;
                } else {
                    int half = Math.max(1, deque.size() / 2);
                    int moved = deque.takeOldest(buf, half);
                    int last = -1;
                    for (int k = 0; k < moved; k++) {
                        int x = (Integer) buf[k];
                        if (x <= last) {
                            throw new AssertionError("takeOldest out of order: " + x + " after " + last);
                        }
                        last = x;
                        taken.incrementAndGet(x);
                        buf[k] = null;
                    }
                }
                switch (rnd.nextInt(16)) {
                    case 0 -> {
                        Integer x = deque.pop();
                        if (x != null) {
                            taken.incrementAndGet(x);
                        }
                    }
                    case 1 -> {
                        int moved = deque.takeOldest(buf, 1 + rnd.nextInt(8));
                        for (int k = 0; k < moved; k++) {
                            taken.incrementAndGet((Integer) buf[k]);
                            buf[k] = null;
                        }
                    }
                    default -> { }
                }
            }
            for (Integer x; (x = deque.pop()) != null; ) {
                taken.incrementAndGet(x);
            }
            finished.set(true);
        });
        for (int t = 0; t < thieves; t++) {
            long thiefSeed = seed * 31 + t;
            ctl.start("thief-" + t, c -> {
                SplittableRandom rnd = new SplittableRandom(thiefSeed);
                WorkStealingDeque<Integer> own = new WorkStealingDeque<>(2, 16);
                gate.countDown();
                gate.await();
                while (!c.expired()) {
                    boolean done = finished.get();
                    Integer first = rnd.nextBoolean()
                            ? deque.stealOrNull()
                            : deque.stealBatchOrNull(own, 1 + rnd.nextInt(8));
                    tally(first, own, taken, thiefTakes);
                    if (first == null && done && deque.isEmpty()) {
                        break;
                    }
                }
            });
        }
        ctl.joinAll();
        for (int i = 0; i < n; i++) {
            assertThat(taken.get(i)).as("times element %d was taken (capacity %d)", i, maxCapacity)
                    .isEqualTo(1);
        }
        assertThat(deque.stolenCount()).as("stolenCount: the thieves' takes only").isEqualTo(thiefTakes.get());
    }

    // ------------------------------------------------------------------ WorkStealingDeque retention

    /** A payload the collector can reclaim once nothing but a weak reference holds it. */
    private record Payload(int id) { }

    private static WeakReference<Payload> stealOne(WorkStealingDeque<Payload> d) {
        return new WeakReference<>(d.steal().value());
    }

    /**
     * The class overview: "a stolen element is released once the owner pushes into a deque it
     * saw empty (its pop took the last element, or a thief did)". Here thieves take everything
     * and the owner's pop finds the deque empty; the owner's next push must clear the stolen
     * slots, as it does when its own pop took the last element.
     */
    @Test
    void stolenElementsAreNotRetainedAfterThePushIntoADequeThievesEmptied() throws InterruptedException {
        WorkStealingDeque<Payload> d = new WorkStealingDeque<>(4, 16);
        d.push(new Payload(1));
        d.push(new Payload(2));
        WeakReference<Payload> first = stealOne(d);
        WeakReference<Payload> second = stealOne(d);
        assertThat(d.pop()).as("the owner finds the deque empty").isNull();
        d.push(new Payload(3));                 // into the deque it saw empty
        assertThat(Gc.collected(first)).as("first stolen element collected").isTrue();
        assertThat(Gc.collected(second)).as("second stolen element collected").isTrue();
        assertThat(d.size()).isEqualTo(1);
        assertThat(d.pop().id()).isEqualTo(3);
    }

    // ------------------------------------------------------------------ Injector.offerAll

    @Test
    void offerAllAcrossSegmentBoundariesKeepsOrderSizeAndEmptiness() {
        Injector<Integer> q = new Injector<>();
        int seg = Injector.SEGMENT_SIZE;
        int next = 0;
        int expectedHead = 0;
        // Start part-way into a segment so that batches straddle one and two boundaries.
        for (int count : new int[] {seg - 3, 10, 2 * seg + 5, 1, seg, 0, 7}) {
            Object[] batch = new Object[count + 2];   // longer than n: the tail must be ignored
            for (int k = 0; k < count; k++) {
                batch[k] = next++;
            }
            batch[count] = -1;
            q.offerAll(batch, count);
            assertThat(q.size()).isEqualTo(next - expectedHead);
            assertThat(q.isEmpty()).isEqualTo(next == expectedHead);
            // take a few each round, so the head moves into later segments too
            for (int k = 0; k < 3 && expectedHead < next; k++) {
                assertThat(q.poll()).isEqualTo(expectedHead++);
            }
        }
        List<Integer> rest = new ArrayList<>();
        assertThat(q.drain(rest::add)).isEqualTo(next - expectedHead);
        for (int i = 0; i < rest.size(); i++) {
            assertThat(rest.get(i)).isEqualTo(expectedHead + i);
        }
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
        assertThat(q.poll()).isNull();
    }

    /** offerAll mixed with every way of taking, single-threaded, against a FIFO model. */
    @Test
    void offerAllMixedWithPollsMatchesAFifoModel() {
        SplittableRandom rnd = new SplittableRandom(2026);
        Injector<Integer> q = new Injector<>();
        java.util.ArrayDeque<Integer> model = new java.util.ArrayDeque<>();
        int next = 0;
        for (int step = 0; step < 1500; step++) {
            switch (rnd.nextInt(5)) {
                case 0, 1 -> {
                    int n = rnd.nextInt(16) == 0 ? rnd.nextInt(2500) : rnd.nextInt(20);
                    Object[] batch = new Object[n + rnd.nextInt(3)];
                    for (int k = 0; k < n; k++) {
                        model.addLast(next);
                        batch[k] = next++;
                    }
                    q.offerAll(batch, n);
                }
                case 2 -> assertThat(q.poll()).isEqualTo(model.pollFirst());
                case 3 -> {
                    WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, 64);
                    Integer first = rnd.nextBoolean()
                            ? q.pollBatch(dest, 1 + rnd.nextInt(100))
                            : q.pollShare(dest, 1 + rnd.nextInt(4));
                    assertThat(first).isEqualTo(model.pollFirst());
                    for (Integer x; (x = dest.stealOrNull()) != null; ) {
                        assertThat(x).isEqualTo(model.pollFirst());
                    }
                }
                default -> {
                    OwnerFifo<Integer> dest = new OwnerFifo<>(32);
                    Integer first = q.pollShare(dest, 1 + rnd.nextInt(4));
                    assertThat(first).isEqualTo(model.pollFirst());
                    for (Integer x; (x = dest.poll()) != null; ) {
                        assertThat(x).isEqualTo(model.pollFirst());
                    }
                }
            }
            assertThat(q.size()).as("size at step %d", step).isEqualTo(model.size());
            assertThat(q.isEmpty()).isEqualTo(model.isEmpty());
        }
        List<Integer> rest = new ArrayList<>();
        q.drain(rest::add);
        assertThat(rest).containsExactlyElementsOf(model);
    }

    /**
     * Two producers appending runs with {@code offerAll} (often across a segment's end) and one
     * with {@code offer}, against consumers that poll, batch into a deque and take shares into an
     * {@link OwnerFifo}: every element leaves exactly once, and each consumer sees each
     * producer's elements in the order it appended them.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void offerAllAgainstConsumersDeliversEveryElementOnceInProducerOrder() throws InterruptedException {
        for (int rep = 0; rep < 3; rep++) {
            offerAllRound(3, 60_000, 500L + rep);
        }
    }

    private static void offerAllRound(int consumers, int perProducer, long seed) throws InterruptedException {
        int producers = 3;
        Injector<Integer> q = new Injector<>();
        AtomicIntegerArray taken = new AtomicIntegerArray(producers * perProducer);
        CountDownLatch producersDone = new CountDownLatch(producers);
        StressThreads ctl = new StressThreads(45, TimeUnit.SECONDS);
        CountDownLatch gate = new CountDownLatch(producers + consumers);
        for (int p = 0; p < producers; p++) {
            int producer = p;
            ctl.start("producer-" + p, c -> {
                SplittableRandom rnd = new SplittableRandom(seed * 7 + producer);
                Object[] buf = new Object[3000];
                gate.countDown();
                gate.await();
                int i = 0;
                while (i < perProducer && !c.expired()) {
                    if (producer == 2) {
                        q.offer(producer * perProducer + i++);
                        continue;
                    }
                    int run = rnd.nextInt(8) == 0 ? 1 + rnd.nextInt(3000) : 1 + rnd.nextInt(40);
                    run = Math.min(perProducer - i, run);
                    for (int k = 0; k < run; k++) {
                        buf[k] = producer * perProducer + i++;
                    }
                    q.offerAll(buf, run);
                }
                producersDone.countDown();
            });
        }
        for (int k = 0; k < consumers; k++) {
            int consumer = k;
            ctl.start("consumer-" + k, c -> {
                SplittableRandom rnd = new SplittableRandom(seed * 13 + consumer);
                WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(2, 64);
                OwnerFifo<Integer> fifo = new OwnerFifo<>(64);
                int[] last = new int[producers];
                java.util.Arrays.fill(last, -1);
                gate.countDown();
                gate.await();
                while (!c.expired()) {
                    boolean done = producersDone.getCount() == 0;
                    List<Integer> got = new ArrayList<>();
                    Integer first;
                    switch (rnd.nextInt(4)) {
                        case 0 -> first = q.poll();
                        case 1 -> first = q.pollBatch(deque, 1 + rnd.nextInt(40));
                        case 2 -> first = q.pollShare(deque, consumers);
                        default -> first = q.pollShare(fifo, consumers);
                    }
                    if (first != null) {
                        got.add(first);
                    }
                    for (Integer x; (x = deque.stealOrNull()) != null; ) {   // oldest first
                        got.add(x);
                    }
                    for (Integer x; (x = fifo.poll()) != null; ) {
                        got.add(x);
                    }
                    for (int x : got) {
                        int p = x / perProducer;
                        if (x <= last[p]) {
                            throw new AssertionError("consumer " + consumer + " took " + x + " after " + last[p]);
                        }
                        last[p] = x;
                        taken.incrementAndGet(x);
                    }
                    if (first == null && done && q.isEmpty()) {
                        break;
                    }
                }
            });
        }
        ctl.joinAll();
        for (int i = 0; i < taken.length(); i++) {
            assertThat(taken.get(i)).as("times element %d was taken", i).isEqualTo(1);
        }
        assertThat(q.size()).isZero();
    }

    /**
     * A thief's round: counts {@code first} (what its steal returned, if anything) and every
     * element a batch steal moved into its own deque {@code own}, once each in {@code taken}
     * and in {@code thiefTakes}.
     */
    static void tally(Integer first, WorkStealingDeque<Integer> own, AtomicIntegerArray taken, AtomicLong thiefTakes) {
        if (first != null) {
            taken.incrementAndGet(first);
            thiefTakes.incrementAndGet();
        }
        for (Integer x; (x = own.pop()) != null; ) {
            taken.incrementAndGet(x);
            thiefTakes.incrementAndGet();
        }
    }
}
