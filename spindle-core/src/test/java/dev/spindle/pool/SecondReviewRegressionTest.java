/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The caller-runs {@code invokeAll} of the work-sharing and priority pools (a worker of the pool
 * queues the tasks and runs every one nobody else started): the queued copies of tasks the caller
 * ran must not come back from {@code shutdownNow} as never started, and tasks still running on a
 * peer when the call gives up are cancelled as the JDK's {@code invokeAll} cancels them, with an
 * interrupt.
 */
class SecondReviewRegressionTest {

    static Stream<Named<Supplier<ExecutorService>>> oneWorker() {
        return Stream.of(
                Named.of("WorkSharingPool 1 worker", () -> WorkSharingPool.builder().workers(1).build()),
                Named.of("PriorityPool 1 worker", () -> PriorityPool.builder().workers(1).build()),
                Named.of("WorkSharingPool 2 workers", () -> WorkSharingPool.builder().workers(2).build()),
                Named.of("PriorityPool 2 workers", () -> PriorityPool.builder().workers(2).build()));
    }

    static Stream<Named<Supplier<ExecutorService>>> callerRuns() {
        return Stream.of(
                Named.of("WorkSharingPool 1 worker", () -> WorkSharingPool.builder().workers(1).build()),
                Named.of("PriorityPool 1 worker", () -> PriorityPool.builder().workers(1).build()),
                Named.of("PinnedPool 1 worker", () -> PinnedPool.builder().workers(1).build()),
                Named.of("union of a 1-worker WorkSharingPool",
                        () -> SchedulerUnion.owning(WorkSharingPool.builder().workers(1).build())));
    }

    static Stream<Named<Supplier<ExecutorService>>> twoWorkers() {
        return Stream.of(
                Named.of("WorkSharingPool 2 workers", () -> WorkSharingPool.builder().workers(2).build()),
                Named.of("PriorityPool 2 workers", () -> PriorityPool.builder().workers(2).build()));
    }

    /** Runs {@code c} as a task of {@code s} and returns what it returned or threw. */
    private static Object inside(ExecutorService s, Callable<?> c) throws InterruptedException {
        LinkedBlockingQueue<Object> out = new LinkedBlockingQueue<>();
        s.execute(() -> {
            try {
                out.add(c.call());
            } catch (Throwable e) {
                out.add(e);
            }
        });
        Object v = out.poll(20, SECONDS);
        assertThat(v).as("the task inside the pool finished (no hang)").isNotNull();
        return v;
    }

    /** A test's body, given the pool it runs against. */
    @FunctionalInterface
    interface PoolTest {
        void run(ExecutorService pool) throws Exception;
    }

    /**
     * Runs {@code test} against a new pool of {@code kind}, then stops the pool with
     * {@code shutdownNow} and asserts that it terminates within {@code terminationSeconds}: the
     * set-up and tear-down the tests of this class share, so that a failing test leaves no worker
     * of its pool behind.
     */
    static void withPool(Supplier<ExecutorService> kind, long terminationSeconds, PoolTest test) throws Exception {
        ExecutorService pool = kind.get();
        try {
            test.run(pool);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(terminationSeconds, SECONDS)).isTrue();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneWorker")
    void shutdownNowAfterInvokeAllFromWorkerReturnsNoTaskThatRan(Supplier<ExecutorService> kind) throws Exception {
        withPool(kind, 10, pool -> {
            AtomicInteger runs = new AtomicInteger();
            Callable<Integer> task = runs::incrementAndGet;
            Object v = inside(pool, () -> {
                List<Future<Integer>> fs = pool.invokeAll(List.of(task, task, task));
                for (Future<Integer> f : fs) {
                    f.get();
                }
                return pool.shutdownNow();
            });
            assertThat(v).isInstanceOf(List.class);
            // every task ran (invokeAll returned them all done): none of them "never commenced"
            assertThat((List<?>) v).as("shutdownNow's never-started tasks after all ran").isEmpty();
            assertThat(runs).hasValue(3);
        });
    }

    /**
     * Three tasks of one body: on the calling worker it waits until a peer has started one, then
     * returns; on a peer it blocks until interrupted (at most 10 s). So exactly one runs on a peer
     * when the caller gives up on it.
     */
    private static final class Peered {
        final CountDownLatch peerStarted = new CountDownLatch(1);
        final CountDownLatch peerInterrupted = new CountDownLatch(1);
        final CountDownLatch peerEnded = new CountDownLatch(1);
        volatile Thread caller;

        Callable<String> task(Runnable onCaller) {
            return () -> {
                if (Thread.currentThread() == caller) {
                    peerStarted.await(10, SECONDS);
                    onCaller.run();
                    return "caller";
                }
                peerStarted.countDown();
                try {
                    new CountDownLatch(1).await(10, SECONDS);
                } catch (InterruptedException e) {
                    peerInterrupted.countDown();
                } finally {
                    peerEnded.countDown();
                }
                return "peer";
            };
        }

        /**
         * From a task of {@code pool}, recorded as the caller, hands three tasks of this body
         * (running {@code onCaller} on the caller) to {@code invokeAll}; returns what it returned
         * or threw.
         */
        Object invokeAllFromWorker(ExecutorService pool, Runnable onCaller, InvokeAll invokeAll)
                throws InterruptedException {
            Callable<String> t = task(onCaller);
            return inside(pool, () -> {
                caller = Thread.currentThread();
                return invokeAll.call(List.of(t, t, t));
            });
        }
    }

    /** One of the pool's {@code invokeAll} methods, applied to {@code tasks}. */
    @FunctionalInterface
    interface InvokeAll {
        Object call(List<Callable<String>> tasks) throws Exception;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("twoWorkers")
    void timedInvokeAllFromWorkerInterruptsTaskRunningOnPeerAtDeadline(Supplier<ExecutorService> kind)
            throws Exception {
        withPool(kind, 15, pool -> {
            Peered p = new Peered();
            Object v = p.invokeAllFromWorker(pool, () -> { }, ts -> pool.invokeAll(ts, 200, MILLISECONDS));
            assertThat(v).isInstanceOf(List.class);
            assertThat(p.peerStarted.getCount()).as("one task ran on a peer").isZero();
            // On a loaded machine the peer may start late, past the deadline, and the caller's
            // remaining task is then cancelled unstarted as well: what must hold is that nothing
            // the peer ran completed, and that every task not cancelled was the caller's.
            List<?> futures = (List<?>) v;
            assertThat(futures.stream().filter(f -> ((Future<?>) f).isCancelled()))
                    .as("the task still running on the peer at the deadline is cancelled").isNotEmpty();
            for (Object f : futures) {
                if (!((Future<?>) f).isCancelled()) {
                    assertThat(((Future<?>) f).get()).as("a task that completed ran on the caller").isEqualTo("caller");
                }
            }
            assertThat(p.peerInterrupted.await(5, SECONDS))
                    .as("the cancelled task running on a peer is interrupted, as the JDK's invokeAll cancels")
                    .isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("twoWorkers")
    void interruptedInvokeAllFromWorkerInterruptsTaskRunningOnPeer(Supplier<ExecutorService> kind)
            throws Exception {
        withPool(kind, 15, pool -> {
            Peered p = new Peered();
            Object v = p.invokeAllFromWorker(pool, () -> Thread.currentThread().interrupt(), pool::invokeAll);
            assertThat(v).isInstanceOf(InterruptedException.class);
            assertThat(p.peerStarted.getCount()).as("one task ran on a peer").isZero();
            assertThat(p.peerInterrupted.await(5, SECONDS))
                    .as("the task running on a peer when the caller was interrupted is cancelled with an interrupt")
                    .isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("callerRuns")
    void shutdownNowInsideInvokeAllStartsNoTaskItReturnedAsNeverStarted(Supplier<ExecutorService> kind)
            throws Exception {
        withPool(kind, 10, pool -> {
            List<Runnable> returned = new ArrayList<>();
            AtomicInteger laterRuns = new AtomicInteger();
            Callable<Integer> stopper = () -> {
                returned.addAll(pool.shutdownNow());
                Thread.interrupted();          // a task that swallows the interrupt
                return 0;
            };
            Callable<Integer> later = laterRuns::incrementAndGet;
            inside(pool, () -> pool.invokeAll(List.of(stopper, later, later)));
            // a stopped pool starts no task; and a task it returned as never started did not run
            assertThat(laterRuns).as("tasks started after shutdownNow (returned as never started: %s)", returned)
                    .hasValue(0);
        });
    }

    // ------------------------------------------------------------------ what held

    @ParameterizedTest(name = "{0}")
    @MethodSource("callerRuns")
    void invokeAnyFromWorkerFollowsTheContract(Supplier<ExecutorService> kind) throws Exception {
        withPool(kind, 10, pool -> {
            AtomicInteger afterSuccess = new AtomicInteger();
            Callable<String> fails = () -> {
                throw new IllegalStateException("first");
            };
            Callable<String> failsLast = () -> {
                throw new IllegalStateException("last");
            };
            Callable<String> ok = () -> "ok";
            Callable<String> never = () -> "" + afterSuccess.incrementAndGet();
            assertThat(inside(pool, () -> pool.invokeAny(List.of(fails, ok, never)))).isEqualTo("ok");
            Object all = inside(pool, () -> pool.invokeAny(List.of(fails, failsLast)));
            assertThat(all).isInstanceOf(ExecutionException.class);
            assertThat(((Throwable) all).getCause()).hasMessage("last");
            assertThat(inside(pool, () -> pool.invokeAny(List.of()))).isInstanceOf(IllegalArgumentException.class);
            assertThat(inside(pool, () -> pool.invokeAny(List.of(ok), 10, SECONDS))).isEqualTo("ok");
            assertThat(afterSuccess).as("no task starts after one succeeded").hasValue(0);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("callerRuns")
    void invokeAllFromWorkerRunsAfterShutdownAndIsRejectedAfterShutdownNow(Supplier<ExecutorService> kind)
            throws Exception {
        ExecutorService pool = kind.get();
        try {
            AtomicInteger runs = new AtomicInteger();
            Callable<Integer> task = runs::incrementAndGet;
            Object afterShutdown = inside(pool, () -> {
                pool.shutdown();               // accepted work may still submit: its invokeAll runs
                List<Future<Integer>> fs = pool.invokeAll(List.of(task, task));
                return fs.stream().allMatch(Future::isDone);
            });
            assertThat(afterShutdown).isEqualTo(true);
            assertThat(runs).hasValue(2);
            assertThat(pool.awaitTermination(10, SECONDS)).as("terminates, the queued copies drained").isTrue();
        } finally {
            pool.shutdownNow();
        }
        withPool(kind, 10, stopped -> {
            Object afterStop = inside(stopped, () -> {
                stopped.shutdownNow();
                Thread.interrupted();
                return stopped.invokeAll(List.of(() -> 1));
            });
            assertThat(afterStop).isInstanceOf(RejectedExecutionException.class);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("callerRuns")
    void invokeAllFromWorkerRunsInOrderAndCompletesAll(Supplier<ExecutorService> kind) throws Exception {
        ExecutorService pool = kind.get();
        try {
            List<Integer> order = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Callable<Integer>> tasks = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                int n = i;
                tasks.add(() -> {
                    order.add(n);
                    return n;
                });
            }
            inside(pool, () -> pool.invokeAll(tasks));
            assertThat(order).as("a one-worker pool's caller runs them in order, once each")
                    .containsExactly(0, 1, 2, 3, 4);
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(10, SECONDS)).isTrue();
        }
    }
}
