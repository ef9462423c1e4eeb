/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ChannelTest {

    private static final class Ctx implements Context, Waker {
        int wakes;
        int budget = Integer.MAX_VALUE;

        @Override
        public Waker waker() {
            return this;
        }

        @Override
        public boolean consumeBudget() {
            if (budget == 0) {
                return false;
            }
            budget--;
            return true;
        }

        @Override
        public synchronized void wake() {
            wakes++;
        }
    }

    /** Receives until the channel is closed and drained; the values in order. */
    private static AsyncTask<List<Integer>> drain(AsyncChannel<Integer> ch) {
        List<Integer> got = new ArrayList<>();
        return Async.loop(got, (List<Integer> acc) -> Async.recover(
                Async.map(ch.receive(), (Integer v) -> {
                    acc.add(v);
                    return Async.Step.<List<Integer>, List<Integer>>next(acc);
                }),
                e -> {
                    if (e instanceof ChannelClosedException) {
                        return Async.Step.done(acc);
                    }
                    throw Async.unchecked(e);
                }));
    }

    private static AsyncTask<Void> sendRange(AsyncChannel<Integer> ch, int from, int to) {
        return Async.loop(from, (Integer i) -> i == to
                ? Async.ready(Async.Step.<Integer, Void>done(null))
                : Async.map(ch.send(i), x -> Async.Step.<Integer, Void>next(i + 1)));
    }

    @Test
    void fifoThroughASmallBufferWithOneProducerAndOneConsumer() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(2);
        TestExecutor ex = new TestExecutor();
        ex.spawn(Async.map(sendRange(ch, 0, 500), x -> {
            ch.close();
            return null;
        }));
        List<Integer> got = ex.blockOn(drain(ch));
        assertThat(got).hasSize(500);
        for (int i = 0; i < 500; i++) {
            assertThat(got.get(i)).isEqualTo(i);
        }
        assertThat(ex.failures).isEmpty();
    }

    @Test
    void sendWaitsWhileFullAndReceiveWhileEmpty() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        Ctx cx = new Ctx();
        AsyncTask<Integer> r = ch.receive();
        assertThat(r.poll(cx).isPending()).isTrue();
        assertThat(ch.send(1).poll(cx).isReady()).isTrue(); // handed to the waiting receiver
        assertThat(cx.wakes).isEqualTo(1);
        assertThat(ch.size()).isZero();
        assertThat(r.poll(cx).value()).isEqualTo(1);

        assertThat(ch.send(2).poll(cx).isReady()).isTrue();
        AsyncTask<Void> blocked = ch.send(3);
        assertThat(blocked.poll(cx).isPending()).isTrue();
        assertThat(ch.receive().poll(cx).value()).isEqualTo(2);
        assertThat(cx.wakes).isEqualTo(2); // the waiting sender was woken, its value accepted
        assertThat(blocked.poll(cx).isReady()).isTrue();
        assertThat(ch.receive().poll(cx).value()).isEqualTo(3);
    }

    /**
     * The oldest buffered value lives in a field and the rest in a queue: a waiting sender that
     * moves in when a receive makes room goes behind the values already buffered, whichever of
     * the two holds them.
     */
    @Test
    void aWaitingSenderMovesInBehindTheBufferedValues() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(3);
        Ctx cx = new Ctx();
        for (int i = 1; i <= 3; i++) {
            assertThat(ch.send(i).poll(cx).isReady()).isTrue();
        }
        AsyncTask<Void> fourth = ch.send(4);
        assertThat(fourth.poll(cx).isPending()).isTrue();
        assertThat(ch.size()).isEqualTo(3);
        List<Integer> got = new java.util.ArrayList<>();
        got.add(ch.receive().poll(cx).value());      // makes room: 4 moves in behind 2 and 3
        assertThat(fourth.poll(cx).isReady()).isTrue();
        assertThat(ch.send(5).poll(cx).isPending()).isTrue();  // full again
        for (int i = 0; i < 4; i++) {
            got.add(ch.receive().poll(cx).value());
        }
        assertThat(got).containsExactly(1, 2, 3, 4, 5);
        assertThat(ch.size()).isZero();
        assertThat(ch.receive().poll(cx).isPending()).isTrue();
    }

    @Test
    void aSpentBudgetMakesTheOperationYieldWithoutTouchingTheChannel() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(4);
        Ctx cx = new Ctx();
        cx.budget = 0;
        AsyncTask<Void> s = ch.send(7);
        assertThat(s.poll(cx).isPending()).isTrue();
        assertThat(cx.wakes).isEqualTo(1);
        assertThat(ch.size()).isZero();
        cx.budget = 1;
        assertThat(s.poll(cx).isReady()).isTrue();
        assertThat(ch.size()).isEqualTo(1);
    }

    @Test
    void closeFailsSendersAndLetsReceiversDrainFirst() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        Ctx cx = new Ctx();
        assertThat(ch.send(1).poll(cx).isReady()).isTrue();
        AsyncTask<Void> waitingSender = ch.send(2);
        assertThat(waitingSender.poll(cx).isPending()).isTrue();
        ch.close();
        ch.close();
        assertThat(cx.wakes).isEqualTo(1);
        assertThatThrownBy(() -> waitingSender.poll(cx)).isInstanceOf(ChannelClosedException.class);
        assertThatThrownBy(() -> ch.send(3).poll(cx)).isInstanceOf(ChannelClosedException.class);
        assertThat(ch.receive().poll(cx).value()).isEqualTo(1);
        assertThatThrownBy(() -> ch.receive().poll(cx))
                .isInstanceOf(ChannelClosedException.class).hasMessageContaining("closed");

        AsyncChannel<Integer> empty = new AsyncChannel<>(1);
        AsyncTask<Integer> waitingReceiver = empty.receive();
        assertThat(waitingReceiver.poll(cx).isPending()).isTrue();
        empty.close();
        assertThat(cx.wakes).isEqualTo(2);
        assertThatThrownBy(() -> waitingReceiver.poll(cx)).isInstanceOf(ChannelClosedException.class);
    }

    @Test
    void cancelledReceiversLoseNoValue() {
        AsyncChannel<Integer> ch = new AsyncChannel<>(2);
        Ctx cx = new Ctx();
        AsyncTask<Integer> a = ch.receive();
        AsyncTask<Integer> b = ch.receive();
        assertThat(a.poll(cx).isPending()).isTrue();
        assertThat(b.poll(cx).isPending()).isTrue();
        Async.cancel(a); // waiting: leaves the queue, so b gets the next value
        assertThat(ch.send(10).poll(cx).isReady()).isTrue();
        assertThat(b.poll(cx).value()).isEqualTo(10);

        AsyncTask<Integer> c = ch.receive();
        AsyncTask<Integer> d = ch.receive();
        assertThat(c.poll(cx).isPending()).isTrue();
        assertThat(d.poll(cx).isPending()).isTrue();
        assertThat(ch.send(20).poll(cx).isReady()).isTrue(); // handed to c
        assertThat(ch.send(21).poll(cx).isReady()).isTrue(); // handed to d
        Async.cancel(c); // c had 20 but never returned it: it goes back to the head
        Async.cancel(d);
        assertThat(ch.receive().poll(cx).value()).isEqualTo(20);
        assertThat(ch.receive().poll(cx).value()).isEqualTo(21);

        assertThat(ch.send(1).poll(cx).isReady()).isTrue();
        assertThat(ch.send(2).poll(cx).isReady()).isTrue();
        AsyncTask<Void> waiting = ch.send(4);
        assertThat(waiting.poll(cx).isPending()).isTrue();
        Async.cancel(waiting); // never accepted: 4 is not delivered
        ch.close();
        assertThat(TestExecutor.run(drain(ch))).containsExactly(1, 2);
    }

    @Test
    void cancellingWaitersAnywhereInTheQueueKeepsTheOthersInOrder() {
        // The wait queues are linked through the operations: unlinking the head, a middle one
        // and the tail must leave the rest served first come, first served.
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        Ctx cx = new Ctx();
        List<AsyncTask<Integer>> rs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            AsyncTask<Integer> r = ch.receive();
            assertThat(r.poll(cx).isPending()).isTrue();
            rs.add(r);
        }
        Async.cancel(rs.get(2)); // middle
        Async.cancel(rs.get(0)); // head
        Async.cancel(rs.get(4)); // tail
        assertThat(ch.send(7).poll(cx).isReady()).isTrue();
        assertThat(ch.send(8).poll(cx).isReady()).isTrue();
        assertThat(rs.get(1).poll(cx).value()).isEqualTo(7);
        assertThat(rs.get(3).poll(cx).value()).isEqualTo(8);
        assertThat(ch.size()).isZero();

        assertThat(ch.send(0).poll(cx).isReady()).isTrue(); // fills the buffer
        List<AsyncTask<Void>> ss = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            AsyncTask<Void> s = ch.send(i);
            assertThat(s.poll(cx).isPending()).isTrue();
            ss.add(s);
        }
        Async.cancel(ss.get(1)); // 2: middle, never delivered
        Async.cancel(ss.get(3)); // 4: tail, never delivered
        List<Integer> got = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            got.add(ch.receive().poll(cx).value());
        }
        assertThat(got).containsExactly(0, 1, 3);
        assertThat(ss.get(0).poll(cx).isReady()).isTrue();
        assertThat(ss.get(2).poll(cx).isReady()).isTrue();
        AsyncTask<Integer> last = ch.receive(); // the queues are empty again: a fresh wait works
        assertThat(last.poll(cx).isPending()).isTrue();
        assertThat(ch.send(9).poll(cx).isReady()).isTrue();
        assertThat(last.poll(cx).value()).isEqualTo(9);
    }

    @Test
    void closeRacingWithSendsAndReceivesLosesAndDuplicatesNothing() throws Exception {
        for (int round = 0; round < 20; round++) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1 + round % 4);
            int producers = 3;
            ConcurrentLinkedQueue<Integer> accepted = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<List<Integer>> received = new ConcurrentLinkedQueue<>();
            ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int base = p * 1_000_000;
                threads.add(new Thread(() -> {
                    // send until the channel is closed; remember what was accepted
                    AsyncTask<Integer> sendAll = Async.loop(base, (Integer i) -> Async.recover(
                            Async.map(ch.send(i), x -> {
                                accepted.add(i);
                                return Async.Step.<Integer, Integer>next(i + 1);
                            }),
                            e -> {
                                if (e instanceof ChannelClosedException) {
                                    return Async.Step.done(i);
                                }
                                throw Async.unchecked(e);
                            }));
                    try {
                        new TestExecutor(7, 30_000).blockOn(sendAll);
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                }));
            }
            for (int c = 0; c < 2; c++) {
                threads.add(new Thread(() -> {
                    try {
                        received.add(new TestExecutor(7, 30_000).blockOn(drain(ch)));
                    } catch (Throwable t) {
                        errors.add(t);
                    }
                }));
            }
            threads.forEach(Thread::start);
            Thread.sleep(2 + round % 5);
            ch.close();
            for (Thread t : threads) {
                t.join(30_000);
                assertThat(t.isAlive()).isFalse();
            }
            assertThat(errors).isEmpty();
            List<Integer> all = new ArrayList<>();
            received.forEach(all::addAll);
            assertThat(all).doesNotHaveDuplicates();
            assertThat(all).containsExactlyInAnyOrderElementsOf(accepted);
        }
    }

    @Test
    void exactlyOnceWithSeveralProducersAndConsumersUnderStress() throws Exception {
        int producers = 4;
        int consumers = 4;
        int perProducer = 25_000;
        AsyncChannel<Integer> ch = new AsyncChannel<>(8);
        ConcurrentLinkedQueue<List<Integer>> received = new ConcurrentLinkedQueue<>();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch producersDone = new CountDownLatch(producers);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = p * perProducer;
            threads.add(new Thread(() -> {
                try {
                    // budget 3: exercise the yield path as well
                    new TestExecutor(3, 30_000).blockOn(sendRange(ch, base, base + perProducer));
                } catch (Throwable t) {
                    errors.add(t);
                } finally {
                    producersDone.countDown();
                }
            }));
        }
        for (int c = 0; c < consumers; c++) {
            threads.add(new Thread(() -> {
                try {
                    received.add(new TestExecutor(5, 30_000).blockOn(drain(ch)));
                } catch (Throwable t) {
                    errors.add(t);
                }
            }));
        }
        threads.forEach(Thread::start);
        assertThat(producersDone.await(30, TimeUnit.SECONDS)).isTrue();
        ch.close();
        for (Thread t : threads) {
            t.join(30_000);
            assertThat(t.isAlive()).isFalse();
        }
        assertThat(errors).isEmpty();
        assertThat(received).hasSize(consumers);
        BitSet seen = new BitSet();
        int total = 0;
        for (List<Integer> got : received) {
            int[] lastOfProducer = new int[producers];
            java.util.Arrays.fill(lastOfProducer, -1);
            for (int v : got) {
                assertThat(seen.get(v)).as("value %d received twice", v).isFalse();
                seen.set(v);
                int p = v / perProducer;
                assertThat(v).as("per-producer order").isGreaterThan(lastOfProducer[p]);
                lastOfProducer[p] = v;
                total++;
            }
        }
        assertThat(total).isEqualTo(producers * perProducer);
        assertThat(seen.cardinality()).isEqualTo(producers * perProducer);
    }
}
