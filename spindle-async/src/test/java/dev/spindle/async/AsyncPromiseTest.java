/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link AsyncPromise}: one outcome of many racing completers, awaiting tasks woken once each,
 * values, failures and cancellation as a {@link JoinHandle} reports them, on a runtime and by
 * hand.
 */
class AsyncPromiseTest {

    @Test
    void classExample() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncPromise<Integer> reply = new AsyncPromise<>();
            JoinHandle<String> client = rt.spawn(Async.map(reply, r -> "got " + r));
            rt.spawn(cx -> {
                reply.complete(42);
                return Poll.ready(null);
            });
            assertThat(client.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("got 42");
        }
    }

    @Test
    void aTaskAwaitingAPromiseIsPendingUntilItIsCompletedThenReadyWithTheValue() {
        AsyncPromise<String> p = new AsyncPromise<>();
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        AsyncTask<Integer> length = Async.map(p, String::length);

        assertThat(length.poll(cx).isPending()).isTrue();
        assertThat(length.poll(cx).isPending()).as("polled again").isTrue();
        assertThat(cx.wakes.get()).isZero();
        assertThat(p.isDone()).isFalse();

        assertThat(p.complete("four")).isTrue();
        assertThat(cx.wakes.get()).as("the waker registered once, woken once").isEqualTo(1);
        Poll<Integer> r = length.poll(cx);
        assertThat(r.isReady()).isTrue();
        assertThat(r.value()).isEqualTo(4);
    }

    @Test
    void aPromiseCompletedBeforeItIsAwaitedIsReadyAtOnceWithoutAWakeUp() throws Exception {
        AsyncPromise<Integer> p = new AsyncPromise<>();
        assertThat(p.complete(7)).isTrue();
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        Poll<Integer> r = p.poll(cx);
        assertThat(r.isReady()).isTrue();
        assertThat(r.value()).isEqualTo(7);
        assertThat(cx.wakes.get()).isZero();
        assertThat(p.get()).isEqualTo(7);
        assertThat(p.isDone()).isTrue();
        assertThat(p.isCancelled()).isFalse();
    }

    @Test
    void onlyTheFirstOutcomeCountsAndLaterCallsChangeNothing() throws Exception {
        AsyncPromise<Integer> p = new AsyncPromise<>();
        assertThat(p.complete(1)).isTrue();
        assertThat(p.complete(2)).isFalse();
        assertThat(p.completeExceptionally(new IllegalStateException("late"))).isFalse();
        assertThat(p.cancel(false)).isFalse();
        assertThat(p.get()).isEqualTo(1);
        assertThat(p.isCancelled()).isFalse();
    }

    @Test
    void nullIsAValue() throws Exception {
        AsyncPromise<Object> p = new AsyncPromise<>();
        assertThat(p.complete(null)).isTrue();
        assertThat(p.isDone()).isTrue();
        assertThat(p.get()).isNull();
        assertThat(p.complete("second")).isFalse();
        assertThat(p.get()).isNull();
    }

    @Test
    void aFailedPromiseFailsItsAwaitersAndItsGet() {
        AsyncPromise<Integer> p = new AsyncPromise<>();
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        assertThat(p.poll(cx).isPending()).isTrue();
        IllegalStateException boom = new IllegalStateException("boom");
        assertThat(p.completeExceptionally(boom)).isTrue();
        assertThat(cx.wakes.get()).isEqualTo(1);
        assertThatThrownBy(() -> p.poll(cx)).isInstanceOf(CompletionException.class).hasCause(boom);
        assertThatThrownBy(p::get).isInstanceOf(ExecutionException.class).hasCause(boom);
        assertThat(p.complete(3)).isFalse();
        assertThat(p.isCancelled()).isFalse();
    }

    @Test
    void aNullFailureIsRefusedByNameAndLeavesThePromiseOpen() throws Exception {
        AsyncPromise<Integer> p = new AsyncPromise<>();
        assertThatThrownBy(() -> p.completeExceptionally(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("error");
        assertThat(p.isDone()).isFalse();
        assertThat(p.complete(5)).isTrue();
        assertThat(p.get()).isEqualTo(5);
    }

    @Test
    void cancellingWakesAwaitersWithACancellationAndRefusesLaterValues() {
        AsyncPromise<Integer> p = new AsyncPromise<>();
        AsyncCombinatorTest.HandContext cx = new AsyncCombinatorTest.HandContext();
        assertThat(p.poll(cx).isPending()).isTrue();
        assertThat(p.cancel(true)).isTrue();
        assertThat(cx.wakes.get()).isEqualTo(1);
        assertThat(p.isCancelled()).isTrue();
        assertThat(p.isDone()).isTrue();
        assertThat(p.complete(1)).isFalse();
        assertThatThrownBy(() -> p.poll(cx)).isInstanceOf(CancellationException.class);
        assertThatThrownBy(p::get).isInstanceOf(CancellationException.class);
    }

    @Test
    void aTimedGetTimesOutWhileOpenAndAFutureFollowsTheOutcome() throws Exception {
        AsyncPromise<String> p = new AsyncPromise<>();
        assertThatThrownBy(() -> p.get(10, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
        CompletableFuture<String> before = p.toCompletableFuture();
        assertThat(before).isNotDone();
        p.complete("v");
        assertThat(before.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo("v");
        assertThat(p.toCompletableFuture().getNow(null)).as("asked for after").isEqualTo("v");
        assertThat(p.toString()).contains("AsyncPromise", "done");
    }

    @Test
    void aThreadOutsideTheRuntimeCompletesWhatTasksAwaitAndEveryAwaiterGetsTheValue() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncPromise<Integer> p = new AsyncPromise<>();
            List<JoinHandle<Integer>> awaiters = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                int k = i;
                awaiters.add(rt.spawn(Async.map(p, v -> v + k)));
            }
            Thread.sleep(20);                  // most of them pending by now (not required)
            assertThat(p.complete(100)).isTrue();
            for (int i = 0; i < awaiters.size(); i++) {
                assertThat(awaiters.get(i).get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(100 + i);
            }
        }
    }

    /** Tokio's ping_pong shape: promises completed by tasks, a blocked thread waiting for the last. */
    @Test
    void pairsOfTasksExchangeValuesThroughPromises() throws Exception {
        int pairs = 2_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AtomicLong sum = new AtomicLong();
            AtomicInteger left = new AtomicInteger(pairs);
            AsyncPromise<Long> all = new AsyncPromise<>();
            for (int i = 0; i < pairs; i++) {
                int ping = i;
                rt.spawn(Async.then(Async.ready(null), ignored -> {
                    AsyncPromise<Integer> toPonger = new AsyncPromise<>();
                    AsyncPromise<Integer> toPinger = new AsyncPromise<>();
                    rt.spawn(Async.map(toPonger, v -> toPinger.complete(v + 1)));
                    toPonger.complete(ping);
                    return Async.map(toPinger, pong -> {
                        sum.addAndGet(pong);
                        if (left.decrementAndGet() == 0) {
                            all.complete(sum.get());
                        }
                        return null;
                    });
                }));
            }
            assertThat(all.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo((long) pairs * (pairs + 1) / 2);
        }
    }

    /** Many threads race to complete each promise: one wins, and every observer sees its value. */
    @Test
    void racingCompletersHaveExactlyOneWinnerWhoseValueEveryoneSees() throws Exception {
        int rounds = 2_000;
        int racers = 4;
        for (int round = 0; round < rounds; round++) {
            AsyncPromise<Integer> p = new AsyncPromise<>();
            AtomicInteger winners = new AtomicInteger();
            int[] won = new int[1];
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < racers; t++) {
                int value = t;
                threads.add(new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    boolean ok = value == racers - 1
                            ? p.completeExceptionally(new IllegalStateException("racer " + value))
                            : p.complete(value);
                    if (ok) {
                        winners.incrementAndGet();
                        won[0] = value;            // published by join() below
                    }
                }));
            }
            threads.forEach(Thread::start);
            start.countDown();
            for (Thread t : threads) {
                t.join();
            }
            assertThat(winners.get()).as("round %d: winners", round).isEqualTo(1);
            if (won[0] == racers - 1) {
                assertThatThrownBy(p::get).hasCauseInstanceOf(IllegalStateException.class);
            } else {
                assertThat(p.get()).as("round %d", round).isEqualTo(won[0]);
            }
        }
    }
}
