/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.spindle.async.AsyncCombinatorTest.HandContext;
import dev.spindle.async.io.AsyncTcpListener;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Defects found by review (session 31, the contracts of {@link Async}'s combinators), each test
 * failing before its fix.
 */
class AsyncContractRegressionTest {

    private static AsyncRuntime runtime() {
        return AsyncRuntime.builder().workers(2).name("contract").build();
    }

    /** Spins until {@link System#nanoTime()} has moved past {@code t}. */
    private static void afterNanoTime(long t) {
        while (System.nanoTime() - t <= 0) {
            Thread.onSpinWait();
        }
    }

    // ---------------------------------------------------------------- sleepUntil

    /**
     * {@code sleepUntil(Long.MIN_VALUE)}: the deadline lies in the past, but
     * {@code nanoTime() - deadline} overflows, so the sleep read it as almost 292 years ahead and
     * scheduled a timer entry 73 years out: the "ready at once" sleep never ended.
     */
    @Test
    void sleepUntilTheMostNegativeDeadlineIsReadyAtOnce() {
        AsyncTask<Void> sleep = Async.sleepUntil(Long.MIN_VALUE);
        Poll<Void> p = sleep.poll(new HandContext());
        Async.cancel(sleep);                    // no 73-year timer entry left behind on failure
        assertThat(p.isReady()).as("sleepUntil(Long.MIN_VALUE), polled").isTrue();
    }

    /** The same for a deadline 2^63 ns ago, computed as a caller would, from nanoTime(). */
    @Test
    void sleepUntilADeadlineWhoseDistanceOverflowsIsReadyAtOnce() {
        long t = System.nanoTime();
        AsyncTask<Void> sleep = Async.sleepUntil(t + Long.MIN_VALUE);
        afterNanoTime(t);
        Poll<Void> p = sleep.poll(new HandContext());
        Async.cancel(sleep);
        assertThat(p.isReady()).as("sleepUntil(now - 2^63), polled").isTrue();
    }

    /** A deadline in the near future is still waited for (the fix must not make every sleep ready). */
    @Test
    void sleepUntilANearFutureDeadlineStillWaits() {
        AsyncTask<Void> sleep = Async.sleepUntil(System.nanoTime() + TimeUnit.HOURS.toNanos(1));
        Poll<Void> p = sleep.poll(new HandContext());
        Async.cancel(sleep);
        assertThat(p.isReady()).isFalse();
    }

    // ---------------------------------------------------------------- owning a spawned task

    /** A task that is pending for an hour: a spawned copy runs on unless it is cancelled. */
    private static <T> AsyncTask<T> anHourThen(T value) {
        return Async.map(Async.sleep(Duration.ofHours(1)), x -> value);
    }

    /**
     * Wraps of a spawned task's handle that document "the returned task owns it (cancelling one
     * cancels the other)" / "cancelling it cancels whichever of the two is running" / "cancels
     * the turn in progress".
     */
    private static List<Function<JoinHandle<Integer>, AsyncTask<Integer>>> owners() {
        return owners(new CountDownLatch(1));
    }

    /**
     * As {@link #owners()}; {@code owning} is counted down once the wrap owns the handle: at once
     * for map, then and recover, at the first poll for loop, whose turn is made then.
     */
    private static List<Function<JoinHandle<Integer>, AsyncTask<Integer>>> owners(CountDownLatch owning) {
        return List.of(
                h -> owned(owning, Async.map(h, x -> x + 1)),
                h -> owned(owning, Async.then(h, x -> Async.ready(x))),
                h -> owned(owning, Async.recover(h, e -> -1)),
                h -> Async.loop(0, s -> {
                    owning.countDown();
                    return Async.map(h, x -> Async.Step.<Integer, Integer>done(x));
                }));
    }

    private static <T> T owned(CountDownLatch owning, T wrap) {
        owning.countDown();
        return wrap;
    }

    /**
     * Cancelling map/then/recover/loop around a spawned task's handle left the spawned task
     * running: {@code Async.cancel} of a {@link JoinHandle} does nothing, and those combinators
     * passed their cancel on with it, not as {@code select} and {@code timeout} do.
     */
    @Test
    void cancellingAWrapOfASpawnedHandleCancelsTheSpawnedTask() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (AsyncRuntime rt = runtime()) {
                SoftAssertions soft = new SoftAssertions();  // one failure per wrap
                int i = 0;
                for (Function<JoinHandle<Integer>, AsyncTask<Integer>> owner : owners()) {
                    JoinHandle<Integer> inner = rt.spawn(anHourThen(1));
                    AsyncTask<Integer> outer = owner.apply(inner);
                    assertThat(outer.poll(new HandContext()).isReady()).isFalse();
                    Async.cancel(outer);
                    soft.assertThat(inner.isCancelled()).as("the spawned task owned by wrap #" + i + " (map, then, recover, loop)").isTrue();
                    inner.cancel(false);
                    i++;
                }
                soft.assertAll();
            }
        });
    }

    /**
     * The way a user meets it: the wrap is spawned and its handle cancelled; the runtime then
     * cancels the wrap, which must cancel the spawned task it owns rather than leave it running
     * (here holding an hour's timer entry) with nobody awaiting it.
     */
    @Test
    void cancellingTheSpawnedWrapCancelsTheTaskItOwns() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (AsyncRuntime rt = runtime()) {
                SoftAssertions soft = new SoftAssertions();  // one failure per wrap
                for (int i = 0; i < owners().size(); i++) {
                    CountDownLatch owning = new CountDownLatch(1);
                    JoinHandle<Integer> inner = rt.spawn(anHourThen(1));
                    JoinHandle<Integer> outer = rt.spawn(owners(owning).get(i).apply(inner));
                    assertThat(owning.await(10, TimeUnit.SECONDS)).isTrue();
                    assertThat(outer.cancel(false)).isTrue();
                    // the worker that retires the cancelled wrap cancels it: wait for that
                    soft.assertThatThrownBy(() -> inner.get(3, TimeUnit.SECONDS))
                            .as("the spawned task owned by cancelled spawned wrap #" + i + " (map, then, recover, loop)")
                            .isInstanceOf(CancellationException.class);
                    inner.cancel(false);
                }
                soft.assertAll();
            }
        });
    }

    /**
     * And through {@code any}/{@code select}/{@code timeout}, which do cancel a spawned handle
     * they give up on, but left it running once it was wrapped in a map (to tag or convert its
     * value, the common case).
     */
    @Test
    void aMappedSpawnedLoserOrTimedOutTaskIsCancelled() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (AsyncRuntime rt = runtime()) {
                JoinHandle<Integer> loser = rt.spawn(anHourThen(0));
                int first = rt.run(Async.any(List.of(Async.map(loser, x -> x * 2), Async.ready(1))));
                assertThat(first).isEqualTo(1);
                assertThat(loser.isCancelled()).as("a mapped spawned loser of any").isTrue();

                JoinHandle<Integer> slow = rt.spawn(anHourThen(0));
                assertThatThrownBy(() -> rt.run(Async.timeout(Async.map(slow, x -> x * 2), Duration.ofMillis(20))))
                        .hasRootCauseInstanceOf(TimeoutException.class);
                assertThat(slow.isCancelled()).as("a mapped spawned task the timeout gave up on").isTrue();
            }
        });
    }

    /** A promise stays a promise under map: only no longer awaited, as select leaves it. */
    @Test
    void cancellingAMapOfAPromiseLeavesThePromiseAlone() {
        AsyncPromise<Integer> shared = new AsyncPromise<>();
        AsyncTask<Integer> m = Async.map(shared, x -> x);
        assertThat(m.poll(new HandContext()).isReady()).isFalse();
        Async.cancel(m);
        assertThat(shared.isDone()).isFalse();
        assertThat(shared.complete(3)).isTrue();
    }

    /** A done handle under a timed-out map still gives its value (cancelUnlessDone passes through). */
    @Test
    void aTimeoutOfAMappedHandleThatCompletedReportsItsValue() {
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            try (AsyncRuntime rt = runtime()) {
                JoinHandle<Integer> done = rt.spawn(Async.ready(7));
                assertThat(done.get()).isEqualTo(7);
                int v = rt.run(Async.timeout(Async.map(done, x -> x + 1), Duration.ZERO));
                assertThat(v).isEqualTo(8);
                assertThat(done.isCancelled()).isFalse();
            }
        });
    }

    // ---------------------------------------------------------------- accept loops

    /**
     * What an accept loop asks when an accept fails (see README's echo server): open until
     * closed, so that one failed accept is skipped and the close ends the loop.
     */
    @Test
    void aListenerSaysWhetherItIsOpen() throws Exception {
        AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        try {
            assertThat(listener.isOpen()).isTrue();
        } finally {
            listener.close();
        }
        assertThat(listener.isOpen()).isFalse();
    }
}
