/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Sizes a long-running service reaches: chains of 100,000 stages (map, then, recover, and a then
 * that recurses through its function), 100,000 handles in one combinator or waiting on one
 * promise or channel, and the extreme durations.
 */
@Timeout(60)
class ScaleEdgeRegressionTest {

    private static final int N = 100_000;

    /** A task that never completes; latches mark its first poll and its cancel. */
    private static final class LatchGate implements AsyncTask<Integer>, Cancellable {
        final CountDownLatch polled = new CountDownLatch(1);
        final CountDownLatch cancelled = new CountDownLatch(1);

        @Override
        public Poll<Integer> poll(Context cx) {
            polled.countDown();
            return Poll.pending();
        }

        @Override
        public void cancel() {
            cancelled.countDown();
        }
    }

    @Test
    void aChainOfSpawnedTasksEachAwaitingThePreviousCompletes() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncPromise<Integer> root = new AsyncPromise<>();
            JoinHandle<Integer> h = root;
            for (int i = 0; i < N; i++) {
                h = rt.spawn(Async.map(h, x -> x + 1));
            }
            root.complete(0);
            assertThat(h.get(30, TimeUnit.SECONDS)).isEqualTo(N);
        }
    }

    @Test
    void aChainOfPromisesEachAwaitingThePreviousCompletes() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            List<AsyncPromise<Integer>> ps = new ArrayList<>();
            for (int i = 0; i <= N; i++) {
                ps.add(new AsyncPromise<>());
            }
            for (int i = 0; i < N; i++) {
                AsyncPromise<Integer> from = ps.get(i);
                AsyncPromise<Integer> to = ps.get(i + 1);
                rt.spawn(Async.map(from, x -> to.complete(x + 1)));
            }
            ps.get(0).complete(0);
            assertThat(ps.get(N).get(30, TimeUnit.SECONDS)).isEqualTo(N);
        }
    }

    @Test
    void aHundredThousandTasksAwaitOnePromiseHalfOfThemCancelled() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncPromise<Integer> p = new AsyncPromise<>();
            List<JoinHandle<Integer>> hs = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                hs.add(rt.spawn(Async.map(p, x -> x + 1)));
            }
            for (int i = 0; i < N; i += 2) {
                hs.get(i).cancel(false);
            }
            p.complete(1);
            for (int i = 1; i < N; i += 2) {
                assertThat(hs.get(i).get(15, TimeUnit.SECONDS)).isEqualTo(2);
            }
        }
    }

    @Test
    void aHundredThousandWaitingReceiversEachGetOneValue() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncChannel<Integer> ch = new AsyncChannel<>(1);
            List<JoinHandle<Integer>> receivers = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                receivers.add(rt.spawn(ch.receive()));
            }
            List<JoinHandle<Void>> senders = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                senders.add(rt.spawn(ch.send(i)));
            }
            boolean[] seen = new boolean[N];
            for (JoinHandle<Integer> r : receivers) {
                int v = r.get(15, TimeUnit.SECONDS);
                assertThat(seen[v]).as("value %d received twice", v).isFalse();
                seen[v] = true;
            }
            for (JoinHandle<Void> s : senders) {
                assertThat(s.get(15, TimeUnit.SECONDS)).isNull();
            }
        }
    }

    @Test
    void allOverAHundredThousandHandles() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            List<JoinHandle<Integer>> hs = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                int v = i;
                hs.add(rt.spawn(Async.map(Async.yieldNow(), x -> v)));
            }
            List<Integer> out = rt.run(Async.all(hs));
            assertThat(out).hasSize(N);
            assertThat(out.get(N - 1)).isEqualTo(N - 1);
        }
    }

    @Test
    void allOverAHundredThousandPromisesCompletedLater() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            List<AsyncPromise<Integer>> ps = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                ps.add(new AsyncPromise<>());
            }
            JoinHandle<List<Integer>> all = rt.spawn(Async.all(ps));
            for (int i = N - 1; i >= 0; i--) {
                ps.get(i).complete(i);
            }
            assertThat(all.get(30, TimeUnit.SECONDS)).hasSize(N);
        }
    }

    @Test
    void selectOverAHundredThousandPromises() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            List<AsyncPromise<Integer>> ps = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                ps.add(new AsyncPromise<>());
            }
            JoinHandle<Async.Selected<Integer>> sel = rt.spawn(Async.select(ps));
            ps.get(N - 1).complete(7);
            assertThat(sel.get(30, TimeUnit.SECONDS).index()).isEqualTo(N - 1);
        }
    }

    // ---------------------------------------------------------------- long chains of stages
    // Each combinator polls the task it wraps, so a chain built stage by stage nested one poll
    // per stage: 100,000 maps or thens threw StackOverflowError at their first poll, and a then
    // whose function returned another then (an asynchronous recursion) nested one poll deeper per
    // turn, so 100,000 turns took quadratic time (over 30 s) before the stack would overflow.

    @Test
    void aChainOfAHundredThousandMapsCompletes() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncPromise<Integer> source = new AsyncPromise<>();
            AsyncTask<Integer> t = source;
            for (int i = 0; i < N; i++) {
                t = Async.map(t, x -> x + 1);
            }
            JoinHandle<Integer> h = rt.spawn(t);
            source.complete(0);
            assertThat(h.get(15, TimeUnit.SECONDS)).isEqualTo(N);
        }
    }

    @Test
    void aChainOfAHundredThousandThensCompletes() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncTask<Integer> t = Async.ready(0);
            for (int i = 0; i < N; i++) {
                // every other stage awaits a yield, so the chain is polled more than once
                t = i % 2 == 0
                        ? Async.then(t, x -> Async.ready(x + 1))
                        : Async.then(t, x -> Async.map(Async.yieldNow(), y -> x + 1));
            }
            assertThat(rt.spawn(t).get(15, TimeUnit.SECONDS)).isEqualTo(N);
        }
    }

    @Test
    void aThenWhoseFunctionReturnsAThenRecursesAHundredThousandTurns() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            JoinHandle<Integer> h = rt.spawn(turn(0));
            try {
                assertThat(h.get(15, TimeUnit.SECONDS)).isEqualTo(N);
            } finally {
                h.cancel(false);               // so that close() does not wait for it if it failed
            }
        }
    }

    private static AsyncTask<Integer> turn(int i) {
        return i == N ? Async.ready(i) : Async.then(Async.yieldNow(), x -> turn(i + 1));
    }

    @Test
    void aChainOfAHundredThousandRecoversCompletes() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncTask<Integer> t = Async.failed(new IllegalStateException("0"));
            for (int i = 1; i <= N; i++) {
                int k = i;
                // each recover rethrows what it caught, renumbered, but the last one; anything
                // else (an error) passes through unchanged
                t = Async.recover(t, e -> {
                    if (!(e instanceof IllegalStateException)) {
                        throw Async.unchecked(e);
                    }
                    assertThat(e.getMessage()).isEqualTo(String.valueOf(k - 1));
                    if (k == N) {
                        return k;
                    }
                    throw new IllegalStateException(String.valueOf(k));
                });
            }
            assertThat(rt.spawn(t).get(15, TimeUnit.SECONDS)).isEqualTo(N);
        }
    }

    @Test
    void aLongMixedChainFailsAndRecoversWhereTheStagesSay() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            // per five stages: recover, then (+1 after a yield), then (fails), map (skipped: its
            // task failed), map that throws (skipped too); so each recover resumes at 2 per round
            // and the failure out of the last round reads "at 2 * rounds". A chain of 50 stages
            // is polled nested, as built; one of 100,000 is flattened: both must agree
            assertThat(rt.spawn(mixedChain(50)).get(15, TimeUnit.SECONDS)).isEqualTo(-2 * 50 / 5);
            assertThat(rt.spawn(mixedChain(N)).get(15, TimeUnit.SECONDS)).isEqualTo(-2 * N / 5);
        }
    }

    private static AsyncTask<Integer> mixedChain(int n) {
        AsyncTask<Integer> t = Async.ready(0);
        for (int i = 1; i <= n; i++) {
            int k = i;
            switch (i % 5) {
                case 0 -> t = Async.map(t, x -> {
                    throw new IllegalStateException("at " + k);
                });
                case 1 -> t = Async.recover(t, ScaleEdgeRegressionTest::at);
                case 2 -> t = Async.then(t, x -> Async.map(Async.yieldNow(), y -> x + 1));
                case 3 -> t = Async.then(t, x -> Async.failed(new IllegalStateException("at " + (x + 1))));
                default -> t = Async.map(t, x -> x + 1);
            }
        }
        return Async.recover(t, e -> -at(e));
    }

    /** The number in an "at n" failure; anything else (an error) is thrown on unchanged. */
    private static int at(Throwable e) {
        if (!(e instanceof IllegalStateException)) {
            throw Async.unchecked(e);
        }
        return Integer.parseInt(e.getMessage().substring(3));
    }

    @Test
    void cancellingALongChainCancelsTheTaskItAwaits() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            LatchGate gate = new LatchGate();
            AsyncTask<Integer> t = gate;
            for (int i = 0; i < 1_000; i++) {
                t = i % 3 == 0 ? Async.map(t, x -> x + 1)
                        : i % 3 == 1 ? Async.recover(t, e -> -1) : Async.then(t, Async::ready);
            }
            JoinHandle<Integer> h = rt.spawn(t);
            assertThat(gate.polled.await(15, TimeUnit.SECONDS)).isTrue();
            h.cancel(false);
            assertThat(h.isCancelled()).isTrue();
            assertThat(gate.cancelled.await(15, TimeUnit.SECONDS))
                    .as("the gate under 1,000 stages was cancelled").isTrue();
        }
    }

    @Test
    void cancellingAHundredThousandStagesNeverPolledCancelsTheTaskTheyWrap() {
        // cancel passes through the stages as poll does: a chain dropped before its first poll
        // (a task cancelled or shut down while queued) nested one cancel per stage
        for (int kind = 0; kind < 3; kind++) {
            AsyncCombinatorTest.Gate<Integer> gate = new AsyncCombinatorTest.Gate<>();
            AsyncTask<Integer> t = gate;
            for (int i = 0; i < N; i++) {
                t = kind == 0 ? Async.map(t, x -> x + 1)
                        : kind == 1 ? Async.then(t, Async::ready) : Async.recover(t, e -> -1);
            }
            Async.cancel(t);
            assertThat(gate.cancelled).as("kind %d", kind).isTrue();
        }
    }

    @Test
    void aTimeoutOverALongChainGivesUpAndCancelsWhatItAwaits() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncCombinatorTest.Gate<Integer> gate = new AsyncCombinatorTest.Gate<>();
            AsyncTask<Integer> t = gate;
            for (int i = 0; i < 1_000; i++) {
                t = Async.map(t, x -> x + 1);
            }
            JoinHandle<Integer> h = rt.spawn(Async.timeout(t, Duration.ofMillis(1)));
            assertThatThrownBy(() -> h.get(15, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(TimeoutException.class);
            assertThat(gate.cancelled).isTrue();
        }
    }

    @Test
    void aLoopOfAHundredThousandReadySteps() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncTask<Integer> loop = Async.loop(0, (Integer i) -> Async.ready(
                    i == N ? Async.Step.<Integer, Integer>done(i) : Async.Step.<Integer, Integer>next(i + 1)));
            assertThat(rt.spawn(loop).get(30, TimeUnit.SECONDS)).isEqualTo(N);
        }
    }

    @Test
    void extremeSleepsAndTimeouts() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            assertThat(rt.spawn(Async.sleep(Duration.ZERO)).get(10, TimeUnit.SECONDS)).isNull();
            assertThat(rt.spawn(Async.sleep(Duration.ofNanos(-1))).get(10, TimeUnit.SECONDS)).isNull();
            assertThat(rt.spawn(Async.timeout(Async.ready(1), Duration.ofSeconds(Long.MAX_VALUE))).get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(rt.spawn(Async.timeout(Async.ready(1), Duration.ofSeconds(Long.MIN_VALUE))).get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(rt.spawn(Async.sleepUntil(Long.MIN_VALUE)).get(10, TimeUnit.SECONDS)).isNull();
            JoinHandle<Void> never = rt.spawn(Async.sleep(Duration.ofSeconds(Long.MAX_VALUE)));
            JoinHandle<Void> never2 = rt.spawn(Async.sleep(Duration.ofNanos(Long.MAX_VALUE)));
            JoinHandle<Void> never3 = rt.spawn(Async.sleepUntil(Long.MAX_VALUE));
            JoinHandle<Void> soon = rt.spawn(Async.sleep(Duration.ofMillis(5)));
            assertThat(soon.get(10, TimeUnit.SECONDS)).isNull();
            assertThat(never.isDone()).isFalse();
            assertThat(never2.isDone()).isFalse();
            assertThat(never3.isDone()).isFalse();
            never.cancel(false);
            never2.cancel(false);
            never3.cancel(false);
        }
    }
}
