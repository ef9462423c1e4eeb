/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.BlockedGetFixture.WORKERS;
import static dev.spindle.async.BlockedGetFixture.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.spindle.async.AsyncCombinatorTest.HandContext;
import dev.spindle.async.io.AsyncTcpListener;
import dev.spindle.async.io.Reactor;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Defects found by the second review of session 31's fixes, each test failing before its fix.
 */
class SecondReviewRegressionTest {

    /**
     * {@code sleepUntil(Long.MAX_VALUE)} is the usual "no deadline" (as {@code awaitNanos} and
     * {@code parkNanos} read {@code Long.MAX_VALUE}): it must wait, not be taken for an
     * overflowed past deadline such as {@code Long.MIN_VALUE}, whose distance from the clock
     * reads almost the same.
     */
    @Test
    void sleepUntilTheLargestDeadlineWaits() {
        AsyncTask<Void> sleep = Async.sleepUntil(Long.MAX_VALUE);
        Poll<Void> p = sleep.poll(new HandContext());
        Async.cancel(sleep);
        assertThat(p.isReady()).as("sleepUntil(Long.MAX_VALUE), polled").isFalse();
    }

    /** A deadline a little more than 2^62 ns ahead, computed from the clock, lies ahead too. */
    @Test
    void sleepUntilADeadlineJustBeyondTwoToTheSixtyTwoAheadWaits() {
        AsyncTask<Void> sleep = Async.sleepUntil(System.nanoTime() + (1L << 62) + 1_000_000_000L);
        Poll<Void> p = sleep.poll(new HandContext());
        Async.cancel(sleep);
        assertThat(p.isReady()).as("sleepUntil(now + 2^62 + 1 s), polled").isFalse();
    }

    // ---------------------------------------------------------------- shutdown and blocking gets

    /**
     * As in {@code BlockingGetCycleRegressionTest}, Z runs from within T1's blocked get, on T1's
     * worker, and waits for T1, whose poll lies beneath it; but Z waits with a timeout, and what
     * T1 waits for (X) is done. So Z's get ends by itself, T1's poll then resumes and T1
     * completes with X's value: a shutdown meanwhile, which lets polls under way finish, must
     * not cancel T1 and drop that value, as it must for an untimed get that never ends.
     *
     * <p>Once both workers block, both help: the worker blocked beside (in T2's get) may take Z
     * from T1's worker before T1's own wait does (CI saw it once). Z then does not lie above T1,
     * the case under test never formed, and that attempt is dropped for a fresh runtime; a few
     * attempts always see Z on T1's worker (the usual schedule), and the test fails if none does.
     */
    @Test
    void shutdownLetsATaskBeneathATimedGetCompleteOnceThatGetEnds() throws Exception {
        int attempts = 5;
        for (int i = 0; i < attempts; i++) {
            if (timedGetAboveATaskThenShutdown()) {
                return;
            }
        }
        throw new AssertionError("Z never ran from within T1's wait on T1's worker in "
                + attempts + " attempts: the case under test never formed");
    }

    /**
     * One attempt of {@link #shutdownLetsATaskBeneathATimedGetCompleteOnceThatGetEnds}: false
     * if Z ran on the other worker (nothing checked), else true once every check passed.
     */
    private static boolean timedGetAboveATaskThenShutdown() throws Exception {
        try (BlockedGetFixture f = new BlockedGetFixture()) {
            AsyncRuntime rt = f.rt;
            f.spawnBlockedOnForever();
            await(() -> rt.blockedInGet.get() == 1, "T2's worker to block in get");

            AsyncPromise<String> p = new AsyncPromise<>();
            AtomicReference<JoinHandle<String>> x = new AtomicReference<>();
            AtomicReference<JoinHandle<String>> z = new AtomicReference<>();
            AtomicReference<Thread> t1Thread = new AtomicReference<>();
            CompletableFuture<Thread> zThread = new CompletableFuture<>();
            CompletableFuture<JoinHandle<String>> t1Handle = new CompletableFuture<>();
            JoinHandle<String> t1 = f.track(rt.spawn(cx -> {
                t1Thread.set(Thread.currentThread());
                x.set(f.track(rt.spawn(Async.map(p, v -> v))));
                z.set(f.track(rt.spawn(cz -> {
                    zThread.complete(Thread.currentThread());
                    try {
                        return Poll.ready("z got " + t1Handle.get(10, TimeUnit.SECONDS).get(3, TimeUnit.SECONDS));
                    } catch (TimeoutException e) {
                        return Poll.ready("z timed out");
                    } catch (CancellationException e) {
                        return Poll.ready("z: t1 cancelled");
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                })));
                try {
                    return Poll.ready("t1 got " + x.get().get());
                } catch (Exception e) {
                    throw Async.unchecked(e);
                }
            }));
            t1Handle.complete(t1);
            Thread zRanOn = zThread.get(10, TimeUnit.SECONDS);
            if (zRanOn != t1Thread.get()) {
                return false;                  // the fixture's close releases both workers
            }
            await(() -> rt.blockedInGet.get() == WORKERS, "every worker to block in get");
            p.complete("x's value");
            await(() -> x.get().isDone(), "X to complete (a helping worker polls it)");

            assertTimeoutPreemptively(Duration.ofSeconds(10), rt::shutdown, "shutdown");

            assertThat(z.get().get(10, TimeUnit.SECONDS)).isEqualTo("z timed out");
            assertThat(t1.isCancelled()).as("T1, whose poll could resume once Z's timed get ended").isFalse();
            assertThat(t1.get(10, TimeUnit.SECONDS)).isEqualTo("t1 got x's value");
            return true;
        }
    }

    // ---------------------------------------------------------------- accept loops

    /**
     * The accept loop of the README (and {@link AsyncTcpListener#isOpen}'s Javadoc) goes on
     * after a failed accept while the listener says it is open. A listener whose reactor was
     * closed can never accept again (every accept fails at once), yet said it was open: the loop
     * spun through failed accepts for good, a worker busy until the runtime closed, instead of
     * ending.
     */
    @Test
    void anAcceptLoopEndsOnceTheListenersReactorIsClosed() throws Exception {
        Reactor reactor = Reactor.open();
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build();
                AsyncTcpListener listener = AsyncTcpListener.bind(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), reactor)) {
            JoinHandle<Void> loop = rt.spawn(Async.whileTrue(() -> Async.recover(
                    Async.map(listener.accept(), stream -> true), error -> listener.isOpen())));
            reactor.close();
            assertThat(loop.get(10, TimeUnit.SECONDS)).as("the loop's end").isNull();
            assertThat(listener.isOpen()).as("a listener whose reactor is closed: open?").isFalse();
        } finally {
            reactor.close();
        }
    }
}
