/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.BlockedGetFixture.WORKERS;
import static dev.spindle.async.BlockedGetFixture.await;
import static dev.spindle.async.BlockedGetFixture.outcomeOfGet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Workers blocked in a {@code get} of a task of their own runtime (AsyncWorker's <i>Blocking
 * gets</i>) meeting a shutdown, timers and timed-out or interrupted waits; found by review
 * (session 31).
 */
class BlockingGetShutdownRegressionTest {

    /**
     * One worker waits in {@code get()} for a child that is pending (a long sleep), the other is
     * free. {@code shutdown()} lets each worker finish its current poll, then joins them and
     * cancels what is left: but the blocked worker's poll ends only with the child, which is
     * cancelled only after every worker has exited, so the shutdown waited for good.
     */
    @Test
    void shutdownEndsAWorkersGetOfAPendingChild() throws Exception {
        try (BlockedGetFixture f = new BlockedGetFixture()) {
            AsyncRuntime rt = f.rt;
            AtomicReference<JoinHandle<Void>> pending = new AtomicReference<>();
            JoinHandle<String> parent = f.track(rt.spawn(cx -> {
                JoinHandle<Void> child = f.spawnForever();
                pending.set(child);
                try {
                    return Poll.ready(outcomeOfGet(child));
                } catch (Exception e) {
                    throw Async.unchecked(e);
                }
            }));
            await(() -> rt.blockedInGet.get() == 1, "the parent's worker to block in get");

            assertTimeoutPreemptively(Duration.ofSeconds(30), rt::shutdown, "shutdown with a worker blocked in get");

            assertThat(rt.isTerminated()).isTrue();
            assertThat(parent.get(10, TimeUnit.SECONDS)).isEqualTo("child cancelled");
            assertThat(pending.get().isCancelled()).as("the pending child").isTrue();
        }
    }

    /**
     * Every worker waits in {@code get()} for a pending child, so they help (and find nothing
     * to run); {@code shutdown()} turns helping off and joined them for good.
     */
    @ParameterizedTest(name = "shutdown from inside a task: {0}")
    @ValueSource(booleans = {false, true})
    void shutdownEndsGetsWhileEveryWorkerIsBlocked(boolean fromInside) throws Exception {
        try (BlockedGetFixture f = new BlockedGetFixture()) {
            AsyncRuntime rt = f.rt;
            List<JoinHandle<String>> parents = f.onEveryWorker(n -> outcomeOfGet(f.spawnForever()));
            await(() -> rt.blockedInGet.get() == WORKERS, "every worker to block in get");

            if (fromInside) {
                // a timer's task runs on the only threads there are: the blocked ones, helping
                f.track(rt.spawn(cx -> {
                    rt.shutdown();
                    return Poll.ready(null);
                }));
                await(rt::isShutdown, "the task to shut the runtime down");
            }
            assertTimeoutPreemptively(Duration.ofSeconds(30), rt::shutdown, "shutdown with every worker blocked in get");

            assertThat(rt.isTerminated()).isTrue();
            for (JoinHandle<String> p : parents) {
                assertThat(p.isDone()).isTrue();
            }
        }
    }

    /**
     * Every worker waits for a child that sleeps a moment: the sleep's timer must fire though no
     * worker parks, with the runtime's own timer thread and with workers that drive timers.
     */
    @ParameterizedTest(name = "driveIo: {0}")
    @ValueSource(booleans = {false, true})
    void aTimerFiresWhileEveryWorkerIsBlocked(boolean driveIo) throws Exception {
        AsyncRuntime.Builder b = AsyncRuntime.builder().workers(WORKERS);
        if (driveIo) {
            b.driveIo(List.of());
        }
        try (BlockedGetFixture f = new BlockedGetFixture(b)) {
            List<JoinHandle<Integer>> parents = f.onEveryWorker(
                    n -> f.track(f.rt.spawn(Async.map(Async.sleep(Duration.ofMillis(20)), v -> n))).get());
            for (int i = 0; i < WORKERS; i++) {
                assertThat(parents.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(i);
            }
        }
    }

    /**
     * Timed-out and interrupted gets, and a get helping a task that throws, leave the count of
     * blocked workers where it was: a count left high would turn helping on for good.
     */
    @Test
    void theBlockedCountReturnsToZero() throws Exception {
        try (BlockedGetFixture f = new BlockedGetFixture()) {
            List<JoinHandle<String>> parents = f.onEveryWorker(n -> {
                JoinHandle<Void> child = f.spawnForever();
                JoinHandle<Void> thrower = f.track(f.rt.spawn(c2 -> {
                    throw new IllegalStateException("helped and failed");
                }));
                try {
                    child.get(50, TimeUnit.MILLISECONDS);
                    return "no timeout";
                } catch (TimeoutException expected) {
                    // and now an interrupted one
                }
                Thread.currentThread().interrupt();
                try {
                    child.get();
                    return "no interrupt";
                } catch (InterruptedException expected) {
                    // fine
                }
                try {
                    thrower.get();
                    return "no failure";
                } catch (ExecutionException expected) {
                    return "ok " + n;
                }
            });
            for (int i = 0; i < WORKERS; i++) {
                assertThat(parents.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("ok " + i);
            }
            await(() -> f.rt.blockedInGet.get() == 0, "the blocked count to return to 0");
        }
    }

    /**
     * An interrupt of a worker blocked in {@code get()} ends the get with an
     * {@link InterruptedException}, as {@link java.util.concurrent.Future#get()} promises, even
     * when it arrives while the worker runs a queued task from within that wait: the interrupt
     * status a helped poll leaves was cleared after it (so that no park returns at once) and the
     * get then waited for good.
     */
    @Test
    void anInterruptDuringAHelpedPollEndsTheGet() throws Exception {
        try (BlockedGetFixture f = new BlockedGetFixture()) {
            AsyncRuntime rt = f.rt;
            List<JoinHandle<String>> parents = f.onEveryWorker(n -> {
                JoinHandle<Void> child = f.spawnForever();
                try {
                    child.get();
                    return "child done";
                } catch (InterruptedException e) {
                    return "interrupted";
                }
            });
            await(() -> rt.blockedInGet.get() == WORKERS, "every worker to block in get");

            AtomicReference<Thread> helper = new AtomicReference<>();
            JoinHandle<Void> helped = f.track(rt.spawn(cx -> {
                helper.set(Thread.currentThread());
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!Thread.currentThread().isInterrupted() && System.nanoTime() < deadline) {
                    Thread.onSpinWait();       // the interrupt meant for the get below this poll
                }
                return Poll.ready(null);
            }));
            await(() -> helper.get() != null, "a blocked worker to run the task");
            helper.get().interrupt();
            helped.get(10, TimeUnit.SECONDS);

            await(() -> parents.stream().anyMatch(JoinHandle::isDone), "the interrupted get to end");
            long interrupted = 0;
            for (JoinHandle<String> p : parents) {
                if (p.isDone() && "interrupted".equals(p.get())) {
                    interrupted++;
                }
            }
            assertThat(interrupted).as("gets ended by the interrupt of their worker").isEqualTo(1);
        }
    }
}
