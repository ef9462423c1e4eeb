/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The handle's completion protocol (the outcome in the cell's state word, the waiter stack):
 * every observer sees the one outcome, every waiter is released exactly once, no wake-up is
 * lost, however blocked {@code get}s, joining tasks, {@code toCompletableFuture}, {@code cancel}
 * and the completing worker interleave.
 */
class JoinHandleCompletionTest {

    /** Pending until {@link #release}; then ready with its value. */
    static final class Gate implements AsyncTask<Integer> {
        final int value;
        volatile boolean open;
        final AtomicReference<Waker> waker = new AtomicReference<>();
        final CountDownLatch polled = new CountDownLatch(1);

        Gate(int value) {
            this.value = value;
        }

        @Override
        public Poll<Integer> poll(Context cx) {
            if (open) {
                return Poll.ready(value);
            }
            waker.set(cx.waker());
            polled.countDown();
            return open ? Poll.ready(value) : Poll.pending();
        }

        void release() {
            open = true;
            Waker w = waker.get();
            if (w != null) {
                w.wake();
            }
        }
    }

    /** What one observer saw: the value, or {@code "cancelled"}. */
    private static Object outcome(Future<Integer> f) throws Exception {
        try {
            return f.get(WAIT_S, TimeUnit.SECONDS);
        } catch (CancellationException e) {
            return "cancelled";
        } catch (TimeoutException e) {
            return "lost wake-up: never completed";
        }
    }

    @Test
    void everyObserverSeesTheOneOutcomeAndEveryWaiterIsReleasedOnce() {
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            List<AsyncCombinatorTest.HandContext> pendingPollers = new ArrayList<>();
            List<AsyncCombinatorTest.HandContext> readyPollers = new ArrayList<>();
            int rounds = 300;
            int cancelsWon = 0;
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).name("completion-stress").build()) {
                for (int round = 0; round < rounds; round++) {
                    Gate gate = new Gate(round);
                    JoinHandle<Integer> h = rt.spawn(gate);
                    assertThat(gate.polled.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
                    boolean withCancel = round % 2 == 1;
                    CountDownLatch start = new CountDownLatch(1);
                    ConcurrentLinkedQueue<Object> seen = new ConcurrentLinkedQueue<>();
                    ConcurrentLinkedQueue<CompletableFuture<Integer>> futures = new ConcurrentLinkedQueue<>();
                    AtomicReference<Boolean> cancelResult = new AtomicReference<>();
                    AsyncCombinatorTest.HandContext[] pollers = {new AsyncCombinatorTest.HandContext(), new AsyncCombinatorTest.HandContext()};
                    boolean[] pollerPending = new boolean[pollers.length];
                    // a task joining the handle, polled by a worker, as tasks await tasks
                    JoinHandle<Object> joiner = rt.spawn(cx -> {
                        try {
                            Poll<Integer> p = h.poll(cx);
                            return p.isReady() ? Poll.ready(p.value()) : Poll.pending();
                        } catch (CancellationException e) {
                            return Poll.ready("cancelled");
                        }
                    });
                    List<Thread> threads = new ArrayList<>();
                    for (int i = 0; i < 2; i++) {
                        threads.add(new Thread(() -> {
                            await(start);
                            try {
                                seen.add(outcome(h));
                            } catch (Exception e) {
                                seen.add(e);
                            }
                        }));
                    }
                    for (int i = 0; i < pollers.length; i++) {
                        int k = i;
                        threads.add(new Thread(() -> {
                            await(start);
                            try {
                                Poll<Integer> p = h.poll(pollers[k]);
                                pollerPending[k] = p.isPending();
                                if (p.isReady()) {
                                    seen.add(p.value());
                                }
                            } catch (CancellationException e) {
                                seen.add("cancelled");
                            }
                        }));
                    }
                    threads.add(new Thread(() -> {
                        await(start);
                        futures.add(h.toCompletableFuture());
                    }));
                    threads.add(new Thread(() -> {
                        await(start);
                        gate.release();
                    }));
                    if (withCancel) {
                        threads.add(new Thread(() -> {
                            await(start);
                            cancelResult.set(h.cancel(false));
                        }));
                    }
                    threads.forEach(Thread::start);
                    start.countDown();
                    for (Thread t : threads) {
                        t.join(TimeUnit.SECONDS.toMillis(2 * WAIT_S));
                        assertThat(t.isAlive()).as("an observer of round %d is stuck", round).isFalse();
                    }
                    futures.add(h.toCompletableFuture());      // asked for after completion
                    for (CompletableFuture<Integer> f : futures) {
                        seen.add(outcome(f));
                    }
                    seen.add(joiner.get(WAIT_S, TimeUnit.SECONDS));

                    Object expected = Boolean.TRUE.equals(cancelResult.get()) ? "cancelled" : round;
                    if (expected.equals("cancelled")) {
                        cancelsWon++;
                        assertThat(h.isCancelled()).isTrue();
                    } else {
                        assertThat(h.isCancelled()).isFalse();
                    }
                    assertThat(h.isDone()).isTrue();
                    assertThat(seen).as("round %d", round).containsOnly(expected);
                    for (int i = 0; i < pollers.length; i++) {
                        (pollerPending[i] ? pendingPollers : readyPollers).add(pollers[i]);
                    }
                    WakerSemanticsTest.await(() -> h.state() == TaskCell.DONE, "the task to retire");
                }
            }
            // every worker has exited: no release is under way any more
            assertThat(pendingPollers).allSatisfy(w -> assertThat(w.wakes.get())
                    .as("a pending poller is woken exactly once").isEqualTo(1));
            assertThat(readyPollers).allSatisfy(w -> assertThat(w.wakes.get())
                    .as("a poller that saw the outcome is never woken").isZero());
            assertThat(pendingPollers).as("some polls raced ahead of the completion").isNotEmpty();
            assertThat(cancelsWon).as("cancels that won").isLessThanOrEqualTo(rounds / 2);
        });
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void toCompletableFutureCompletesOnceWhenAskedBeforeOrAfterCompletion() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            Gate gate = new Gate(7);
            JoinHandle<Integer> h = rt.spawn(gate);
            assertThat(gate.polled.await(WAIT_S, TimeUnit.SECONDS)).isTrue();
            CompletableFuture<Integer> before = h.toCompletableFuture();
            AtomicInteger completions = new AtomicInteger();
            before.whenComplete((v, e) -> completions.incrementAndGet());
            assertThat(before).isNotDone();
            gate.release();
            assertThat(before.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(7);
            CompletableFuture<Integer> after = h.toCompletableFuture();
            assertThat(after).isCompletedWithValue(7);
            assertThat(before).isNotSameAs(after);
            assertThat(before.complete(8)).as("nothing completed it a second time").isFalse();
            // its dependents run after get() returns, on the completing thread
            WakerSemanticsTest.await(() -> completions.get() == 1, "the future's dependent");
            after.complete(9);                                  // the caller's future, not the task's
            assertThat(h.get()).isEqualTo(7);
            assertThat(h.toCompletableFuture()).isCompletedWithValue(7);
        }
    }

    @Test
    void toCompletableFutureCarriesACancellationOrTheTasksOwnException() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            Gate gate = new Gate(1);
            JoinHandle<Integer> h = rt.spawn(gate);
            CompletableFuture<Integer> before = h.toCompletableFuture();
            assertThat(h.cancel(false)).isTrue();
            assertThat(before).isCancelled();
            assertThat(h.toCompletableFuture()).isCancelled();

            IllegalStateException boom = new IllegalStateException("boom");
            JoinHandle<Integer> failed = rt.spawn(cx -> {
                throw boom;
            });
            assertThatThrownBy(() -> failed.toCompletableFuture().join())
                    .isInstanceOf(CompletionException.class).hasCause(boom);
            assertThatThrownBy(failed::get).isInstanceOf(ExecutionException.class).hasCause(boom);
            assertThat(failed.isCancelled()).isFalse();
        }
    }

    @Test
    void timedOutAndInterruptedGetsDoNotPileUpWaiters() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
                Gate gate = new Gate(3);
                JoinHandle<Integer> h = rt.spawn(gate);
                for (int i = 0; i < 1000; i++) {
                    assertThatThrownBy(() -> h.get(1, TimeUnit.MICROSECONDS))
                            .isInstanceOf(TimeoutException.class);
                }
                assertThat(h.waiterCount()).as("waiters left by gets that gave up").isLessThanOrEqualTo(1);

                Thread.currentThread().interrupt();
                assertThatThrownBy(h::get).isInstanceOf(InterruptedException.class);
                assertThat(Thread.interrupted()).as("the interrupt is consumed, as Future.get does").isFalse();

                CountDownLatch blocked = new CountDownLatch(1);
                AtomicReference<Object> got = new AtomicReference<>();
                Thread t = new Thread(() -> {
                    blocked.countDown();
                    try {
                        got.set(h.get());
                    } catch (Exception e) {
                        got.set(e);
                    }
                });
                t.start();
                blocked.await();
                gate.release();
                t.join(TimeUnit.SECONDS.toMillis(WAIT_S));
                assertThat(got.get()).isEqualTo(3);
            }
        });
    }
}
