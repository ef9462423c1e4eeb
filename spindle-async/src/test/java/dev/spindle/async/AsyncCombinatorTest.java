/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AsyncCombinatorTest {

    /** A task that is pending until {@link #complete} (from any thread) and counts its polls. */
    static final class Gate<T> implements AsyncTask<T>, Cancellable {
        volatile Waker waker;
        volatile boolean open;
        volatile T value;
        volatile RuntimeException failure;
        final AtomicInteger polls = new AtomicInteger();
        volatile boolean cancelled;

        @Override
        public Poll<T> poll(Context cx) {
            polls.incrementAndGet();
            waker = cx.waker();
            if (!open) {
                return Poll.pending();
            }
            if (failure != null) {
                throw failure;
            }
            return Poll.ready(value);
        }

        void complete(T v) {
            value = v;
            open = true;
            Waker w = waker;
            if (w != null) {
                w.wake();
            }
        }

        void fail(RuntimeException e) {
            failure = e;
            complete(null);
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    /** A context for polling by hand: counts wakes. */
    static class HandContext implements Context, Waker {
        final AtomicInteger wakes = new AtomicInteger();

        @Override
        public Waker waker() {
            return this;
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }

        @Override
        public void wake() {
            wakes.incrementAndGet();
        }
    }

    /**
     * A poll of {@code all} looks only at the children woken since its previous poll: joining n
     * tasks woken one at a time costs O(n) child looks, not O(n²) (a scan of every remaining child
     * at every poll made 10,000 spawned tasks joined on one worker take about 250 ms; ~1 ms now).
     */
    @Test
    void allLooksOnlyAtTheChildrenWokenSinceItsLastPoll() {
        int n = 1_000;
        List<Gate<Integer>> gates = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            gates.add(new Gate<>());
        }
        HandContext cx = new HandContext();
        AsyncTask<List<Integer>> all = Async.all(gates);
        assertThat(all.poll(cx).isPending()).isTrue();
        assertThat(Async.childrenExamined(all)).isEqualTo(n);          // the first poll: each once
        for (int i = n - 1; i > 0; i--) {                               // newest last, oldest first: any order
            gates.get(i).complete(i);
            long before = Async.childrenExamined(all);
            assertThat(all.poll(cx).isPending()).isTrue();
            assertThat(Async.childrenExamined(all) - before).as("looks at poll %d", n - i).isEqualTo(1);
        }
        assertThat(all.poll(cx).isPending()).as("a poll with nothing woken").isTrue();
        gates.get(0).complete(0);
        gates.get(0).complete(0);                                      // a second wake: still one look
        List<Integer> result = all.poll(cx).value();
        assertThat(result).hasSize(n);
        for (int i = 0; i < n; i++) {
            assertThat(result.get(i)).isEqualTo(i);
        }
        assertThat(Async.childrenExamined(all)).isEqualTo(2L * n);
        assertThat(cx.wakes.get()).isEqualTo(n);                        // one parent wake per child
        for (Gate<Integer> g : gates) {
            assertThat(g.polls.get()).isEqualTo(2);                     // pending once, ready once
        }
    }

    /**
     * Children that are handles wake the parent once, when the last of them completes: joining n
     * spawned tasks that finish on the parent's worker polled the parent after each (it is woken
     * and runs next), n polls for one result. Polled after every completion as a runtime would
     * poll it if woken, the parent is woken only by the last, and its polls look at each child
     * once in all, at the first poll (the wakes store the values of those still pending there).
     */
    @Test
    void allOfHandlesWakesTheParentOnlyWhenTheLastCompletes() {
        int n = 100;
        List<AsyncPromise<Integer>> promises = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            promises.add(new AsyncPromise<>());
        }
        promises.get(7).complete(7);                                   // done before the first poll
        HandContext cx = new HandContext();
        AsyncTask<List<Integer>> all = Async.all(promises);
        assertThat(all.poll(cx).isPending()).isTrue();
        for (int i = n - 1; i > 0; i--) {                               // any order
            if (i != 7) {
                promises.get(i).complete(i);
                assertThat(all.poll(cx).isPending()).isTrue();
            }
        }
        assertThat(cx.wakes.get()).as("wakes before the last child").isZero();
        promises.get(0).complete(0);
        assertThat(cx.wakes.get()).isEqualTo(1);
        List<Integer> result = all.poll(cx).value();
        for (int i = 0; i < n; i++) {
            assertThat(result.get(i)).isEqualTo(i);
        }
        assertThat(Async.childrenExamined(all)).isEqualTo(n);
    }

    /**
     * A handle that fails reaches the parent at once, while other handles are still pending and
     * some have completed without waking it: the parent fails with that cause. (Awaiting a handle
     * does not own its task: the handle still pending is left alone, not cancelled.)
     */
    @Test
    void allOfHandlesFailsAtTheFirstFailureAfterQuietCompletions() {
        List<AsyncPromise<Integer>> promises = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            promises.add(new AsyncPromise<>());
        }
        HandContext cx = new HandContext();
        AsyncTask<List<Integer>> all = Async.all(promises);
        assertThat(all.poll(cx).isPending()).isTrue();
        promises.get(0).complete(0);
        promises.get(3).complete(3);
        assertThat(cx.wakes.get()).isZero();
        IllegalStateException boom = new IllegalStateException("boom");
        promises.get(2).completeExceptionally(boom);
        assertThat(cx.wakes.get()).isEqualTo(1);
        assertThatThrownBy(() -> all.poll(cx)).hasRootCauseInstanceOf(IllegalStateException.class)
                .hasRootCauseMessage("boom");
        assertThat(promises.get(1).isDone()).as("the pending handle").isFalse();
    }

    /**
     * A child that is not a handle still wakes the parent at once while handles complete without
     * waking it (had the quiet completions left the ready stack's wake rule thinking a wake was
     * under way, this wake would be skipped and the parent would wait for the handles for good:
     * here the last handle's completion depends on the parent having seen the other child).
     */
    @Test
    void allWithHandlesAndOtherTasksWakesForTheOthersAtOnce() {
        AsyncPromise<Integer> first = new AsyncPromise<>();
        AsyncPromise<Integer> last = new AsyncPromise<>();
        Gate<Integer> gate = new Gate<>();
        HandContext cx = new HandContext();
        AsyncTask<List<Integer>> all = Async.all(List.of(first, gate, last));
        assertThat(all.poll(cx).isPending()).isTrue();
        first.complete(1);
        assertThat(cx.wakes.get()).isZero();
        gate.complete(2);
        assertThat(cx.wakes.get()).isEqualTo(1);
        assertThat(all.poll(cx).isPending()).isTrue();
        assertThat(gate.polls.get()).isEqualTo(2);                      // the parent saw it done
        last.complete(3);
        assertThat(cx.wakes.get()).isEqualTo(2);
        assertThat(all.poll(cx).value()).containsExactly(1, 2, 3);
    }

    /**
     * {@code all} on a runtime, its children completed from two outside threads in interleaved
     * order while the parent is polled on the workers: every child's value arrives in its place,
     * once, and the parent finishes (a wake lost between the ready stack's drain and a child's
     * clear would leave it pending until the bound).
     */
    @Test
    void allOnARuntimeCollectsEveryChildCompletedConcurrently() throws Exception {
        int n = 2_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            for (int round = 0; round < 20; round++) {
                List<AsyncPromise<Integer>> promises = new ArrayList<>();
                List<JoinHandle<Integer>> children = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    AsyncPromise<Integer> p = new AsyncPromise<>();
                    promises.add(p);
                    children.add(rt.spawn(Async.map(p, v -> v * 2)));
                }
                JoinHandle<List<Integer>> parent = rt.spawn(Async.all(children));
                Thread[] completers = new Thread[2];
                for (int t = 0; t < 2; t++) {
                    int first = t;
                    completers[t] = new Thread(() -> {
                        for (int i = first; i < n; i += 2) {
                            promises.get(i).complete(i);
                        }
                    });
                    completers[t].start();
                }
                for (Thread t : completers) {
                    t.join();
                }
                List<Integer> got = parent.get(10, java.util.concurrent.TimeUnit.SECONDS);
                assertThat(got).hasSize(n);
                for (int i = 0; i < n; i++) {
                    assertThat(got.get(i)).isEqualTo(2 * i);
                }
            }
        }
    }

    /**
     * {@code all} of bare promises on a runtime, completed from two outside threads while the
     * parent's first poll may still be registering with them (a completion can then wake a
     * child that the poll also finds done: it must be counted once, or the parent finishes
     * early with missing values or never finishes), some failing in one round in four.
     */
    @Test
    void allOfPromisesOnARuntimeCountsEveryCompletionOnce() throws Exception {
        int n = 1_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            for (int round = 0; round < 40; round++) {
                List<AsyncPromise<Integer>> promises = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    promises.add(new AsyncPromise<>());
                }
                int failAt = round % 4 == 3 ? n / 2 + round : -1;
                Thread[] completers = new Thread[2];
                for (int t = 0; t < 2; t++) {
                    int first = t;
                    completers[t] = new Thread(() -> {
                        for (int i = first; i < n; i += 2) {
                            if (i == failAt) {
                                promises.get(i).completeExceptionally(new IllegalStateException("child " + i));
                            } else {
                                promises.get(i).complete(i);
                            }
                        }
                    });
                }
                completers[0].start();
                JoinHandle<List<Integer>> parent = rt.spawn(Async.all(promises));
                completers[1].start();
                for (Thread t : completers) {
                    t.join();
                }
                if (failAt >= 0) {
                    assertThatThrownBy(() -> parent.get(10, java.util.concurrent.TimeUnit.SECONDS))
                            .hasRootCauseMessage("child " + failAt);
                } else {
                    List<Integer> got = parent.get(10, java.util.concurrent.TimeUnit.SECONDS);
                    assertThat(got).hasSize(n);
                    for (int i = 0; i < n; i++) {
                        assertThat(got.get(i)).isEqualTo(i);
                    }
                }
            }
        }
    }

    @Test
    void readyMapAndThenCompose() {
        AsyncTask<Integer> t = Async.then(Async.map(Async.ready("four"), String::length),
                n -> Async.map(Async.yieldNow(), x -> n * 10));
        assertThat(TestExecutor.run(t)).isEqualTo(40);
    }

    @Test
    void uncheckedKeepsRuntimeExceptionsWrapsCheckedOnesAndRefusesNullByName() {
        IllegalStateException ise = new IllegalStateException("as is");
        assertThat(Async.unchecked(ise)).isSameAs(ise);
        IOException io = new IOException("reset");
        assertThat(Async.unchecked(io)).isInstanceOf(CompletionException.class).hasCause(io);
        assertThatThrownBy(() -> Async.unchecked(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("throwable");
    }

    @Test
    void readyNullIsOneSharedStatelessTaskThatCanRunAnyNumberOfTimes() {
        AsyncTask<String> a = Async.ready(null);
        AsyncTask<Integer> b = Async.ready(null);
        assertThat((Object) a).isSameAs(b); // allocates nothing per call
        TestExecutor ex = new TestExecutor();
        ex.spawn(a);
        ex.spawn(Async.map(a, v -> v == null ? null : "not null"));
        int got = ex.blockOn(Async.then(b, v -> Async.ready(v == null ? 1 : 2)));
        assertThat(got).isEqualTo(1);
        assertThat(TestExecutor.run(a)).isNull();
        assertThat(ex.failures).isEmpty();
    }

    @Test
    void yieldNowWakesItselfAndIsPendingExactlyOnce() {
        HandContext cx = new HandContext();
        AsyncTask<Void> y = Async.yieldNow();
        assertThat(y.poll(cx).isPending()).isTrue();
        assertThat(cx.wakes.get()).isEqualTo(1);
        assertThat(y.poll(cx).isReady()).isTrue();
        assertThat(cx.wakes.get()).isEqualTo(1);
    }

    @Test
    void failuresPassThroughMapAndThen() {
        AsyncTask<Integer> t = Async.map(
                Async.then(Async.ready(1), n -> Async.<Integer>failed(new IllegalStateException("boom"))),
                n -> n + 1);
        assertThatThrownBy(() -> TestExecutor.run(t))
                .isInstanceOf(IllegalStateException.class).hasMessage("boom");
        AsyncTask<Integer> checked = Async.failed(new IOException("io"));
        assertThatThrownBy(() -> TestExecutor.run(checked))
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(IOException.class);
        AsyncTask<Integer> fnThrows = Async.map(Async.ready(1), n -> {
            throw new ArithmeticException("fn");
        });
        assertThatThrownBy(() -> TestExecutor.run(fnThrows)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void combinatorsReadTheirOwnTasksValuesDirectlyAndAnswerAsBefore() {
        HandContext cx = new HandContext();
        AsyncChannel<Integer> ch = new AsyncChannel<>(1);
        // a map of a map of a receive: the receive and the inner map answer without a Poll
        AsyncTask<String> mapped = Async.map(Async.map(ch.receive(), n -> n * 2), n -> "v" + n);
        assertThat(mapped.poll(cx).isPending()).isTrue();
        assertThat(ch.send(21).poll(cx).isReady()).isTrue();   // handed to the waiting receive
        assertThat(cx.wakes.get()).isEqualTo(1);
        assertThat(mapped.poll(cx).value()).isEqualTo("v42");

        // a then whose first task is a then, and whose second is a map: each value passes on
        AsyncTask<Integer> chained = Async.then(Async.then(Async.ready(1), a -> ch.receive()),
                b -> Async.map(Async.ready(b), x -> x + 1));
        assertThat(chained.poll(cx).isPending()).isTrue();
        assertThat(ch.send(5).poll(cx).isReady()).isTrue();
        assertThat(chained.poll(cx).value()).isEqualTo(6);

        // a null value is a value, not "pending"
        AsyncChannel<String> strings = new AsyncChannel<>(1);
        assertThat(strings.send("x").poll(cx).isReady()).isTrue();
        AsyncTask<Object> toNull = Async.map(Async.map(strings.receive(), s -> null), v -> v == null ? "null" : v);
        assertThat(toNull.poll(cx).value()).isEqualTo("null");

        // a user's task that answers null instead of a Poll still fails the combinator
        AsyncTask<Integer> broken = c -> null;
        assertThatThrownBy(() -> Async.map(broken, x -> x).poll(cx)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> Async.then(broken, x -> Async.ready(x)).poll(cx))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void combinatorsOverJoinHandlesPassValuesAndFailures() {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("direct-handles").build()) {
            JoinHandle<Integer> ok = rt.spawn(Async.ready(7));
            JoinHandle<Integer> bad = rt.spawn(Async.failed(new IllegalStateException("child")));
            int plusOne = rt.run(Async.map(ok, v -> v + 1));
            int squared = rt.run(Async.then(ok, v -> Async.map(ok, w -> v * w)));
            assertThat(plusOne).isEqualTo(8);
            assertThat(squared).isEqualTo(49);
            assertThatThrownBy(() -> rt.run(Async.map(bad, v -> v + 1)))
                    .isInstanceOf(CompletionException.class)
                    .hasRootCauseInstanceOf(IllegalStateException.class)
                    .hasRootCauseMessage("child");
        }
    }

    @Test
    void fromCompletionStageCompletedLaterOnAnotherThread() throws Exception {
        CompletableFuture<String> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            f.complete("later");
        });
        t.start();
        assertThat(TestExecutor.run(Async.map(Async.from(f), String::length))).isEqualTo(5);
        t.join();
        assertThat(TestExecutor.run(Async.from(CompletableFuture.completedFuture(7)))).isEqualTo(7);
    }

    @Test
    void fromCompletionStageFailures() {
        CompletableFuture<String> unchecked = CompletableFuture.failedFuture(new IllegalArgumentException("bad"));
        assertThatThrownBy(() -> TestExecutor.run(Async.from(unchecked)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("bad");
        // a dependent stage sees the failure wrapped in CompletionException: unwrapped once
        CompletableFuture<String> derived = CompletableFuture.<String>failedFuture(new IOException("io"))
                .thenApply(s -> s + "!");
        assertThatThrownBy(() -> TestExecutor.run(Async.from(derived)))
                .isInstanceOf(CompletionException.class).hasCauseInstanceOf(IOException.class);
        CompletableFuture<String> async = new CompletableFuture<>();
        new Thread(() -> async.completeExceptionally(new IllegalStateException("late"))).start();
        assertThatThrownBy(() -> TestExecutor.run(Async.from(async)))
                .isInstanceOf(IllegalStateException.class).hasMessage("late");
    }

    @Test
    void loopRunsUntilDoneAndYieldsWhenTheBudgetIsSpent() {
        AsyncTask<Integer> sum = Async.loop(0, (Integer i) -> i == 1000
                ? Async.ready(Async.Step.<Integer, Integer>done(i * 2))
                : Async.ready(Async.Step.<Integer, Integer>next(i + 1)));
        TestExecutor budgeted = new TestExecutor(10, 20_000);
        assertThat(budgeted.blockOn(sum)).isEqualTo(2000);
        // 1001 turns at 10 per poll: the loop gave its thread back about a hundred times
        assertThat(budgeted.polls.get()).isGreaterThanOrEqualTo(100);

        AtomicInteger turns = new AtomicInteger();
        AsyncTask<Void> w = Async.whileTrue(() -> Async.map(Async.yieldNow(), x -> turns.incrementAndGet() < 5));
        TestExecutor.run(w);
        assertThat(turns.get()).isEqualTo(5);
    }

    @Test
    void allCollectsInListOrderWhateverTheCompletionOrder() throws Exception {
        List<Gate<Integer>> gates = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            gates.add(new Gate<>());
        }
        TestExecutor ex = new TestExecutor();
        Thread completer = new Thread(() -> {
            for (int i = 4; i >= 0; i--) {
                while (gates.get(i).waker == null) {
                    Thread.onSpinWait();
                }
                gates.get(i).complete(i * i);
            }
        });
        completer.start();
        List<Integer> r = ex.blockOn(Async.all(gates));
        completer.join();
        assertThat(r).containsExactly(0, 1, 4, 9, 16);
        assertThat(TestExecutor.run(Async.all(List.<AsyncTask<Integer>>of()))).isEmpty();
    }

    @Test
    void allRepollsOnlyWokenChildren() {
        HandContext cx = new HandContext();
        Gate<Integer> a = new Gate<>();
        Gate<Integer> b = new Gate<>();
        Gate<Integer> c = new Gate<>();
        AsyncTask<List<Integer>> all = Async.all(List.of(a, b, c));
        assertThat(all.poll(cx).isPending()).isTrue();
        assertThat(List.of(a.polls.get(), b.polls.get(), c.polls.get())).containsExactly(1, 1, 1);
        b.complete(2);
        assertThat(cx.wakes.get()).isEqualTo(1); // the child's wake reached the parent
        assertThat(all.poll(cx).isPending()).isTrue();
        assertThat(List.of(a.polls.get(), b.polls.get(), c.polls.get())).containsExactly(1, 2, 1);
        a.complete(1);
        c.complete(3);
        Poll<List<Integer>> p = all.poll(cx);
        assertThat(p.value()).containsExactly(1, 2, 3);
        assertThat(b.polls.get()).isEqualTo(2);
    }

    @Test
    void allFailsWithTheFirstFailureAndCancelsTheRest() {
        Gate<Integer> a = new Gate<>();
        Gate<Integer> b = new Gate<>();
        Gate<Integer> c = new Gate<>();
        b.fail(new IllegalStateException("b failed"));
        assertThatThrownBy(() -> TestExecutor.run(Async.all(List.of(a, b, c))))
                .isInstanceOf(IllegalStateException.class).hasMessage("b failed");
        assertThat(a.cancelled).isTrue();
        assertThat(c.cancelled).isTrue();
    }

    @Test
    void selectReturnsTheFirstReadyAndCancelsTheLosers() {
        Gate<String> a = new Gate<>();
        Gate<String> b = new Gate<>();
        Gate<String> c = new Gate<>();
        new Thread(() -> {
            while (b.waker == null) {
                Thread.onSpinWait();
            }
            b.complete("b");
        }).start();
        Async.Selected<String> s = TestExecutor.run(Async.select(List.of(a, b, c)));
        assertThat(s.index()).isEqualTo(1);
        assertThat(s.value()).isEqualTo("b");
        assertThat(a.cancelled).isTrue();
        assertThat(c.cancelled).isTrue();
        assertThat(b.cancelled).isFalse();

        String fastest = TestExecutor.run(Async.any(List.of(
                Async.map(Async.sleep(Duration.ofSeconds(30)), x -> "slow"),
                Async.map(Async.sleep(Duration.ofMillis(5)), x -> "fast"))));
        assertThat(fastest).isEqualTo("fast");

        Gate<String> d = new Gate<>();
        d.fail(new IllegalStateException("d"));
        assertThatThrownBy(() -> TestExecutor.run(Async.any(List.of(new Gate<String>(), d))))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> Async.any(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void childrenShareTheParentBudget() {
        AtomicInteger taken = new AtomicInteger();
        Context cx = new Context() {
            @Override
            public Waker waker() {
                return () -> { };
            }

            @Override
            public boolean consumeBudget() {
                return taken.incrementAndGet() <= 3;
            }
        };
        AsyncTask<Boolean> spender = c -> Poll.ready(c.consumeBudget());
        Poll<List<Boolean>> p = Async.all(List.of(spender, spender, spender, spender, spender)).poll(cx);
        assertThat(p.value()).containsExactly(true, true, true, false, false);
    }

    /**
     * A task that polls {@code inner} and then, before it answers, runs {@code meanwhile}: what
     * another thread could do between this poll and the next step of the caller. It passes
     * cancels on, as a hand-written task should.
     */
    private static final class ThenMeanwhile<T> implements AsyncTask<T>, Cancellable {
        final AsyncTask<T> inner;
        Runnable meanwhile;

        ThenMeanwhile(AsyncTask<T> inner, Runnable meanwhile) {
            this.inner = inner;
            this.meanwhile = meanwhile;
        }

        @Override
        public Poll<T> poll(Context cx) {
            Poll<T> p = inner.poll(cx);
            Runnable r = meanwhile;
            meanwhile = null;
            if (r != null) {
                r.run();
            }
            return p;
        }

        @Override
        public void cancel() {
            Async.cancel(inner);
        }

        @Override
        public boolean cancelUnlessDone() {
            return Async.cancelUnlessDone(inner);
        }
    }

    /** Receives one value from {@code channel} by hand; it must be there. */
    private static <T> T receiveNow(AsyncChannel<T> channel) {
        Poll<T> p = channel.receive().poll(new HandContext());
        assertThat(p.isReady()).as("a value to receive").isTrue();
        return p.value();
    }

    /**
     * A waiting send that a receiver takes after the timeout's last poll of it and before the
     * deadline's cancel was delivered: the timeout must say so, not report a timeout (a caller
     * would send the value again). Until {@link Cancellable#cancelUnlessDone()} the cancel found
     * the send complete, marked it finished, and the timeout failed.
     */
    @Test
    void aTimeoutOverASendThatAReceiverTookMeanwhileReportsTheSend() {
        for (boolean mapped : new boolean[] {false, true}) {
            AsyncChannel<String> channel = new AsyncChannel<>(1);
            assertThat(channel.send("first").poll(new HandContext()).isReady()).isTrue();     // full
            ThenMeanwhile<Void> send = new ThenMeanwhile<>(channel.send("second"),
                    () -> assertThat(receiveNow(channel)).isEqualTo("first"));            // makes room: "second" is in
            Poll<?> p = mapped ? Async.timeout(Async.map(send, v -> "sent"), Duration.ZERO).poll(new HandContext())
                    : Async.timeout(send, Duration.ZERO).poll(new HandContext());
            assertThat(p.isReady()).as("the send completed (mapped: %s)", mapped).isTrue();
            assertThat(p.value()).isEqualTo(mapped ? "sent" : null);
            assertThat(receiveNow(channel)).isEqualTo("second");
        }
    }

    /** A send that times out was withdrawn: its value never arrives, so a retry sends it once. */
    @Test
    void aSendThatTimesOutIsNotDelivered() {
        AsyncChannel<String> channel = new AsyncChannel<>(1);
        assertThat(channel.send("first").poll(new HandContext()).isReady()).isTrue();
        AsyncTask<Void> bounded = Async.timeout(channel.send("second"), Duration.ZERO);
        assertThatThrownBy(() -> bounded.poll(new HandContext())).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);
        assertThat(receiveNow(channel)).isEqualTo("first");
        assertThat(channel.receive().poll(new HandContext()).isPending()).as("nothing more").isTrue();
    }
}
