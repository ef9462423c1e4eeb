/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Workers blocked in a {@code get} of a task of their own runtime (AsyncWorker's <i>Blocking
 * gets</i>) meeting a shutdown, timers and timed-out or interrupted waits; found by review
 * (session 31).
 */
class BlockingGetShutdownRegressionTest {

    private static final int WORKERS = 2;

    /** A child that stays pending well past any test: a blocked get on it ends only by shutdown. */
    private static AsyncTask<Void> forever() {
        return Async.sleep(Duration.ofHours(1));
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(1);
        }
    }

    /** Cancels the handles so that a worker a failing test left blocked is released. */
    private static void release(List<JoinHandle<?>> handles, AsyncRuntime rt) {
        handles.forEach(h -> h.cancel(false));
        Thread closer = new Thread(rt::shutdown, "release-" + rt);
        closer.setDaemon(true);
        closer.start();
    }

    /**
     * One worker waits in {@code get()} for a child that is pending (a long sleep), the other is
     * free. {@code shutdown()} lets each worker finish its current poll, then joins them and
     * cancels what is left: but the blocked worker's poll ends only with the child, which is
     * cancelled only after every worker has exited, so the shutdown waited for good.
     */
    @Test
    void shutdownEndsAWorkersGetOfAPendingChild() throws Exception {
        List<JoinHandle<?>> handles = new CopyOnWriteArrayList<>();
        AsyncRuntime rt = AsyncRuntime.builder().workers(WORKERS).build();
        try {
            AtomicReference<JoinHandle<Void>> pending = new AtomicReference<>();
            JoinHandle<String> parent = rt.spawn(cx -> {
                JoinHandle<Void> child = rt.spawn(forever());
                pending.set(child);
                handles.add(child);
                try {
                    child.get();
                    return Poll.ready("child done");
                } catch (CancellationException e) {
                    return Poll.ready("child cancelled");
                } catch (Exception e) {
                    throw Async.unchecked(e);
                }
            });
            handles.add(parent);
            await(() -> rt.blockedInGet.get() == 1, "the parent's worker to block in get");

            assertTimeoutPreemptively(Duration.ofSeconds(30), rt::shutdown, "shutdown with a worker blocked in get");

            assertThat(rt.isTerminated()).isTrue();
            assertThat(parent.get(10, TimeUnit.SECONDS)).isEqualTo("child cancelled");
            assertThat(pending.get().isCancelled()).as("the pending child").isTrue();
        } finally {
            release(handles, rt);
        }
    }

    /**
     * Every worker waits in {@code get()} for a pending child, so they help (and find nothing
     * to run); {@code shutdown()} turns helping off and joined them for good.
     */
    @ParameterizedTest(name = "shutdown from inside a task: {0}")
    @ValueSource(booleans = {false, true})
    void shutdownEndsGetsWhileEveryWorkerIsBlocked(boolean fromInside) throws Exception {
        List<JoinHandle<?>> handles = new CopyOnWriteArrayList<>();
        AsyncRuntime rt = AsyncRuntime.builder().workers(WORKERS).build();
        try {
            CyclicBarrier together = new CyclicBarrier(WORKERS);
            List<JoinHandle<String>> parents = new CopyOnWriteArrayList<>();
            for (int i = 0; i < WORKERS; i++) {
                JoinHandle<String> parent = rt.spawn(cx -> {
                    try {
                        together.await(10, TimeUnit.SECONDS);  // one parent per worker
                        JoinHandle<Void> child = rt.spawn(forever());
                        handles.add(child);
                        child.get();
                        return Poll.ready("child done");
                    } catch (CancellationException e) {
                        return Poll.ready("child cancelled");
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                });
                parents.add(parent);
                handles.add(parent);
            }
            await(() -> rt.blockedInGet.get() == WORKERS, "every worker to block in get");

            if (fromInside) {
                // a timer's task runs on the only threads there are: the blocked ones, helping
                JoinHandle<Void> closer = rt.spawn(cx -> {
                    rt.shutdown();
                    return Poll.ready(null);
                });
                handles.add(closer);
                await(rt::isShutdown, "the task to shut the runtime down");
            }
            assertTimeoutPreemptively(Duration.ofSeconds(30), rt::shutdown, "shutdown with every worker blocked in get");

            assertThat(rt.isTerminated()).isTrue();
            for (JoinHandle<String> p : parents) {
                assertThat(p.isDone()).isTrue();
            }
        } finally {
            release(handles, rt);
        }
    }

    /**
     * Every worker waits for a child that sleeps a moment: the sleep's timer must fire though no
     * worker parks, with the runtime's own timer thread and with workers that drive timers.
     */
    @ParameterizedTest(name = "driveIo: {0}")
    @ValueSource(booleans = {false, true})
    void aTimerFiresWhileEveryWorkerIsBlocked(boolean driveIo) throws Exception {
        List<JoinHandle<?>> handles = new CopyOnWriteArrayList<>();
        AsyncRuntime.Builder b = AsyncRuntime.builder().workers(WORKERS);
        if (driveIo) {
            b.driveIo(List.of());
        }
        AsyncRuntime rt = b.build();
        try {
            CyclicBarrier together = new CyclicBarrier(WORKERS);
            List<JoinHandle<Integer>> parents = new CopyOnWriteArrayList<>();
            for (int i = 0; i < WORKERS; i++) {
                int n = i;
                JoinHandle<Integer> parent = rt.spawn(cx -> {
                    try {
                        together.await(10, TimeUnit.SECONDS);
                        JoinHandle<Integer> child = rt.spawn(Async.map(Async.sleep(Duration.ofMillis(20)), v -> n));
                        handles.add(child);
                        return Poll.ready(child.get());
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                });
                parents.add(parent);
                handles.add(parent);
            }
            for (int i = 0; i < WORKERS; i++) {
                assertThat(parents.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(i);
            }
        } finally {
            release(handles, rt);
        }
    }

    /**
     * Timed-out and interrupted gets, and a get helping a task that throws, leave the count of
     * blocked workers where it was: a count left high would turn helping on for good.
     */
    @Test
    void theBlockedCountReturnsToZero() throws Exception {
        List<JoinHandle<?>> handles = new CopyOnWriteArrayList<>();
        AsyncRuntime rt = AsyncRuntime.builder().workers(WORKERS).build();
        try {
            CyclicBarrier together = new CyclicBarrier(WORKERS);
            List<JoinHandle<String>> parents = new CopyOnWriteArrayList<>();
            for (int i = 0; i < WORKERS; i++) {
                int n = i;
                JoinHandle<String> parent = rt.spawn(cx -> {
                    try {
                        together.await(10, TimeUnit.SECONDS);
                        JoinHandle<Void> child = rt.spawn(forever());
                        handles.add(child);
                        JoinHandle<Void> thrower = rt.spawn(c2 -> {
                            throw new IllegalStateException("helped and failed");
                        });
                        handles.add(thrower);
                        try {
                            child.get(50, TimeUnit.MILLISECONDS);
                            return Poll.ready("no timeout");
                        } catch (TimeoutException expected) {
                            // and now an interrupted one
                        }
                        Thread.currentThread().interrupt();
                        try {
                            child.get();
                            return Poll.ready("no interrupt");
                        } catch (InterruptedException expected) {
                            // fine
                        }
                        try {
                            thrower.get();
                            return Poll.ready("no failure");
                        } catch (ExecutionException expected) {
                            return Poll.ready("ok " + n);
                        }
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                });
                parents.add(parent);
                handles.add(parent);
            }
            for (int i = 0; i < WORKERS; i++) {
                assertThat(parents.get(i).get(10, TimeUnit.SECONDS)).isEqualTo("ok " + i);
            }
            await(() -> rt.blockedInGet.get() == 0, "the blocked count to return to 0");
        } finally {
            release(handles, rt);
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
        List<JoinHandle<?>> handles = new CopyOnWriteArrayList<>();
        AsyncRuntime rt = AsyncRuntime.builder().workers(WORKERS).build();
        try {
            CyclicBarrier together = new CyclicBarrier(WORKERS);
            List<JoinHandle<String>> parents = new CopyOnWriteArrayList<>();
            for (int i = 0; i < WORKERS; i++) {
                JoinHandle<String> parent = rt.spawn(cx -> {
                    try {
                        together.await(10, TimeUnit.SECONDS);
                        JoinHandle<Void> child = rt.spawn(forever());
                        handles.add(child);
                        child.get();
                        return Poll.ready("child done");
                    } catch (InterruptedException e) {
                        return Poll.ready("interrupted");
                    } catch (Exception e) {
                        throw Async.unchecked(e);
                    }
                });
                parents.add(parent);
                handles.add(parent);
            }
            await(() -> rt.blockedInGet.get() == WORKERS, "every worker to block in get");

            AtomicReference<Thread> helper = new AtomicReference<>();
            JoinHandle<Void> helped = rt.spawn(cx -> {
                helper.set(Thread.currentThread());
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!Thread.currentThread().isInterrupted() && System.nanoTime() < deadline) {
                    Thread.onSpinWait();       // the interrupt meant for the get below this poll
                }
                return Poll.ready(null);
            });
            handles.add(helped);
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
        } finally {
            release(handles, rt);
        }
    }
}
