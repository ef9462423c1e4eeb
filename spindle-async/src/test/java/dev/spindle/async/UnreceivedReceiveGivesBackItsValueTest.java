/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.internal.DroppedValues;
import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@link AsyncChannel#receive()} that completed inside an {@code all}, or won a
 * {@code select} or an {@code any}, has taken its value out of the channel. An {@code all} that
 * then failed or was cancelled, or whose list the runtime dropped, and a selection the runtime
 * dropped, dropped that value with the rest: nobody received it, and the message was gone (a
 * connection sent through the channel was closed besides). Such a value now goes back to the
 * channel, ahead of what is buffered, so the next receive gets it; a delivered one stays the
 * caller's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class UnreceivedReceiveGivesBackItsValueTest {

    private static final AsyncTask<Object> FAILS = cx -> {
        throw new IllegalStateException("test: the last child fails");
    };

    /** A value the runtime closes when it drops one, as it closes a connection of the library. */
    static final class Conn {
        static {
            DroppedValues.closeWhenDropped(Conn.class, c -> c.closed = true);
        }

        final String name;
        volatile boolean closed;

        Conn(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    @AfterEach
    void clearSeam() {
        Async.beforeResultContainer = null;
    }

    private static <T> AsyncChannel<T> holding(int capacity, List<T> values) {
        AsyncChannel<T> ch = new AsyncChannel<>(capacity);
        for (T v : values) {
            assertThat(ch.send(v).poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
        }
        return ch;
    }

    private static <T> T receiveNow(AsyncChannel<T> ch) {
        Poll<T> p = ch.receive().poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.isReady()).as("a value to receive").isTrue();
        return p.value();
    }

    @Test
    void aFailedAllGivesBackTheValueItsReceiveTook() {
        Conn a = new Conn("a");
        AsyncChannel<Conn> ch = holding(1, List.of(a));
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(ch.receive(), FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(ch.size()).as("the value the failed all's receive took").isEqualTo(1);
        Async.cancel(all);                     // dropped again: given back once only
        assertThat(ch.size()).isEqualTo(1);
        assertThat(receiveNow(ch)).isSameAs(a);
        assertThat(a.closed).as("a value given back to the channel is not closed").isFalse();
    }

    @Test
    void aCancelledAllGivesBackItsReceivedValuesInOrderAheadOfTheBufferedOnes() {
        AsyncChannel<String> ch = holding(3, List.of("a", "b", "c"));
        AsyncTask<List<String>> all = Async.all(List.of(ch.receive(), new AsyncPromise<String>(), ch.receive()));
        assertThat(all.poll(new AsyncCombinatorTest.HandContext()).isPending()).isTrue();
        assertThat(ch.size()).isEqualTo(1);
        Async.cancel(all);
        assertThat(ch.size()).isEqualTo(3);
        assertThat(List.of(receiveNow(ch), receiveNow(ch), receiveNow(ch))).containsExactly("a", "b", "c");
    }

    @Test
    void valuesGivenBackAfterLeavingTheBufferKeepTheirOrderAcrossTheCountersWrap() throws Exception {
        // each value taken from the buffer is numbered as it leaves, the numbers wrapping between
        // them (MAX - 1, MAX, MIN, MIN + 1); given back in another order, they come out in the
        // channel's. Numbered by hand-overs alone, all four had one number and came out in the
        // order they were given back
        AsyncChannel<Integer> ch = holding(4, List.of(0, 1, 2, 3));
        java.lang.reflect.Field taken = AsyncChannel.class.getDeclaredField("taken");
        taken.setAccessible(true);
        taken.setInt(ch, Integer.MAX_VALUE - 1);
        List<AsyncTask<List<Integer>>> alls = new java.util.ArrayList<>();
        for (int i = 0; i < 4; i++) {
            AsyncTask<List<Integer>> all = Async.all(List.of(ch.receive(), new AsyncPromise<Integer>()));
            assertThat(all.poll(new AsyncCombinatorTest.HandContext()).isPending()).isTrue();
            alls.add(all);                     // the i-th holds value i
        }
        assertThat(ch.size()).isZero();
        for (int i : new int[] {3, 1, 2, 0}) {
            Async.cancel(alls.get(i));
        }
        assertThat(List.of(receiveNow(ch), receiveNow(ch), receiveNow(ch), receiveNow(ch)))
                .containsExactly(0, 1, 2, 3);
    }

    @Test
    void aValueGivenBackToAFullChannelIsKept() {
        // the failing child fills the channel after the receive took its value: the value given
        // back is held beyond the capacity, not dropped
        AsyncChannel<String> ch = holding(1, List.of("a"));
        AsyncTask<Object> fillsThenFails = cx -> {
            assertThat(ch.send("b").poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
            throw new IllegalStateException("test: fails after filling the channel");
        };
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(ch.receive(), fillsThenFails));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(ch.size()).isEqualTo(2);
        assertThat(List.of(receiveNow(ch), receiveNow(ch))).containsExactly("a", "b");
    }

    @Test
    void aValueGivenBackToAClosedChannelIsStillReceived() {
        AsyncChannel<String> ch = holding(1, List.of("a"));
        ch.close();
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(ch.receive(), FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(receiveNow(ch)).isEqualTo("a");
        assertThatThrownBy(() -> ch.receive().poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(ChannelClosedException.class);
    }

    @Test
    void aDeliveredAllsReceiveKeepsItsValue() {
        AsyncChannel<String> ch = holding(1, List.of("a"));
        AsyncTask<List<String>> all = Async.all(List.of(ch.receive()));
        Poll<List<String>> p = all.poll(new AsyncCombinatorTest.HandContext());
        assertThat(p.value()).containsExactly("a");
        Async.cancel(all);                     // too late: the caller has the value
        assertThat(ch.size()).isZero();
    }

    @Test
    void aListThatCannotBeMadeGivesBackItsReceivedValue() {
        Conn a = new Conn("a");
        AsyncChannel<Conn> ch = holding(1, List.of(a));
        AsyncTask<List<Conn>> all = Async.all(List.of(ch.receive()));
        Async.beforeResultContainer = () -> {
            throw new OutOfMemoryError("test: no room for the list");
        };
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(OutOfMemoryError.class);
        Async.beforeResultContainer = null;
        assertThat(receiveNow(ch)).isSameAs(a);
        assertThat(a.closed).isFalse();
    }

    @Test
    void aSelectionThatCannotBeMadeGivesBackItsReceivedValue() {
        AsyncChannel<String> ch = holding(1, List.of("a"));
        AsyncTask<Async.Selected<String>> select = Async.select(List.of(ch.receive()));
        Async.beforeResultContainer = () -> {
            throw new OutOfMemoryError("test: no room for the selection");
        };
        assertThatThrownBy(() -> select.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(OutOfMemoryError.class);
        Async.beforeResultContainer = null;
        assertThat(receiveNow(ch)).isEqualTo("a");
    }

    @Test
    void anAnyWhosePollCannotBeAllocatedGivesBackItsReceivedValue() {
        // polled by hand, the any wraps the winner's value in a Poll; should that fail, nobody
        // receives the value
        AsyncChannel<String> ch = holding(1, List.of("a"));
        AsyncTask<String> any = Async.any(List.of(ch.receive()));
        DirectTask.beforeWrap = t -> {
            if (t == any) {
                throw new OutOfMemoryError("test: the Poll cannot be allocated");
            }
        };
        try {
            assertThatThrownBy(() -> any.poll(new AsyncCombinatorTest.HandContext()))
                    .isInstanceOf(OutOfMemoryError.class);
        } finally {
            DirectTask.beforeWrap = null;
        }
        assertThat(receiveNow(ch)).isEqualTo("a");
    }

    @Test
    void aFailedAllGivesBackTheValueOfAReceiveAChildPassedOn() {
        // a then ending in the receive, a timeout over one, a recover a value passed through
        AsyncChannel<String> ch = holding(3, List.of("a", "b", "c"));
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(
                Async.then(Async.ready(0), x -> ch.receive()),
                Async.timeout(ch.receive(), Duration.ofMinutes(1)),
                Async.recover(ch.receive(), e -> "recovered"),
                FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(List.of(receiveNow(ch), receiveNow(ch), receiveNow(ch))).containsExactly("a", "b", "c");
    }

    @Test
    void aFailedAllGivesBackTheValueOfAReceiveAtTheEndOfALongChainOfRecovers() {
        // more than FLATTEN_DEPTH stages: run as a pipeline, which the value passed through
        AsyncChannel<String> ch = holding(1, List.of("a"));
        AsyncTask<String> chain = ch.receive();
        for (int i = 0; i < 2 * Async.FLATTEN_DEPTH; i++) {
            chain = Async.recover(chain, e -> "recovered");
        }
        AsyncTask<List<Object>> all = Async.all(List.<AsyncTask<?>>of(chain, FAILS));
        assertThatThrownBy(() -> all.poll(new AsyncCombinatorTest.HandContext()))
                .isInstanceOf(IllegalStateException.class);
        assertThat(receiveNow(ch)).isEqualTo("a");
    }

    @Test
    void aListTheRuntimeDropsGivesBackItsReceivedValue() throws Exception {
        Conn a = new Conn("a");
        AsyncChannel<Conn> ch = holding(1, List.of(a));
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<List<Object>> h = spawnCancelledDuringItsLastPoll(rt,
                    cancelSelf -> Async.all(List.<AsyncTask<?>>of(ch.receive(), cancelSelf)));
            assertThat(h.isCancelled()).isTrue();
            assertThat(a.closed).isFalse();
            assertThat(receiveNow(ch)).as("the value in the list nobody received").isSameAs(a);
        }
    }

    @Test
    void aSelectionTheRuntimeDropsGivesBackItsReceivedValue() throws Exception {
        AsyncChannel<String> ch = holding(1, List.of("a"));
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Async.Selected<String>> h = spawnCancelledByItsLoser(rt,
                    loser -> Async.select(List.<AsyncTask<? extends String>>of(ch.receive(), Async.map(loser, x -> "-"))));
            assertThat(h.isCancelled()).isTrue();
            assertThat(receiveNow(ch)).as("the value in the selection nobody received").isEqualTo("a");
        }
    }

    @Test
    void anAnyWhoseValueTheRuntimeDropsGivesBackItsReceivedValue() throws Exception {
        Conn a = new Conn("a");
        AsyncChannel<Conn> ch = holding(1, List.of(a));
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<Conn> h = spawnCancelledByItsLoser(rt,
                    loser -> Async.any(List.<AsyncTask<? extends Conn>>of(ch.receive(), Async.map(loser, x -> a))));
            assertThat(h.isCancelled()).isTrue();
            assertThat(a.closed).isFalse();
            assertThat(receiveNow(ch)).as("the value of the any nobody received").isSameAs(a);
        }
    }

    @Test
    void aDeliveredSelectionsReceiveKeepsItsValue() throws Exception {
        AsyncChannel<String> ch = holding(1, List.of("a"));
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            Async.Selected<String> s = rt.spawn(Async.select(List.of(ch.receive(), new AsyncPromise<String>())))
                    .get(20, TimeUnit.SECONDS);
            assertThat(s.value()).isEqualTo("a");
            assertThat(ch.size()).isZero();
        }
    }

    @Test
    void aDeliveredListKeepsNotTheTaskThatAwaitedItsReceives() throws Exception {
        // the list keeps the receives, for the runtime's drop; a receive that waited kept the
        // waker it waited with, the all's child, and through it the all and its task
        AsyncChannel<String> ch = new AsyncChannel<>(1);
        CountDownLatch queued = new CountDownLatch(1);
        AsyncTask<String> afterTheReceive = cx -> {
            queued.countDown();                // the all's first poll polled the receive before
            return Poll.ready("b");
        };
        List<String> list;
        WeakReference<JoinHandle<List<String>>> handle;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            JoinHandle<List<String>> h = rt.spawn(Async.all(List.of(ch.receive(), afterTheReceive)));
            handle = new WeakReference<>(h);
            assertThat(queued.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(ch.send("a").poll(new AsyncCombinatorTest.HandContext()).isReady()).isTrue();
            list = h.get(20, TimeUnit.SECONDS);
            h = null;
            assertThat(Gc.collected(handle)).as("the all's task, once its handle is dropped").isTrue();
            assertThat(list).containsExactly("a", "b");
        }
    }

    private static <T> JoinHandle<T> spawnCancelledDuringItsLastPoll(AsyncRuntime rt,
            Function<AsyncTask<Void>, AsyncTask<T>> body) throws Exception {
        return DroppedValueHeldByAHandleTest.spawnCancelledBy(rt, self -> cx -> {
            self.get().cancel(false);
            return Poll.ready(null);
        }, body);
    }

    private static <T> JoinHandle<T> spawnCancelledByItsLoser(AsyncRuntime rt,
            Function<AsyncTask<Void>, AsyncTask<T>> body) throws Exception {
        return UnreceivedAcquireGivesBackItsPermitTest.spawnCancelledByItsLoser(rt, body);
    }
}
