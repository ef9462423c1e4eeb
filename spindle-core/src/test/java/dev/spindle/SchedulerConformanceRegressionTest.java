/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle;

import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.PinnedPool;
import dev.spindle.pool.PriorityPool;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.Function;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One contract battery, run against every {@link Scheduler} of spindle-core, each built as a
 * user builds it (its builder, default and one-worker sizes): what {@link Scheduler} and
 * {@link ExecutorService} promise must hold for all of them alike, since code written against
 * the interface (actors, async runtimes) runs on any of them.
 */
class SchedulerConformanceRegressionTest {

    /** How one scheduler is built; {@code handler} gets the failures of executed tasks. */
    interface Kind {
        ExecutorService build(Thread.UncaughtExceptionHandler handler);

        /** Builder calls with a bad argument, each with the parameter name its message must contain. */
        Map<ThrowingCallable, String> badBuilderCalls();
    }

    private static Kind kind(Function<Thread.UncaughtExceptionHandler, ExecutorService> build,
                             Map<ThrowingCallable, String> bad) {
        return new Kind() {
            @Override
            public ExecutorService build(Thread.UncaughtExceptionHandler handler) {
                return build.apply(handler);
            }

            @Override
            public Map<ThrowingCallable, String> badBuilderCalls() {
                return bad;
            }
        };
    }

    private static Map<ThrowingCallable, String> poolBuilderChecks(java.util.function.Supplier<?> builder) {
        Map<ThrowingCallable, String> m = new java.util.LinkedHashMap<>();
        m.put(() -> invokeSetter(builder.get(), "workers", int.class, 0), "workers");
        m.put(() -> invokeSetter(builder.get(), "workers", int.class, 0x8000), "workers");
        m.put(() -> invokeSetter(builder.get(), "name", String.class, " "), "name");
        return m;
    }

    /** The pools' builders share their setters through a package-private base: reach them by name. */
    private static void invokeSetter(Object builder, String setter, Class<?> type, Object arg) throws Throwable {
        try {
            builder.getClass().getMethod(setter, type).invoke(builder, arg);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * Every scheduler, built as a user builds it. A union is built owning its members: a borrowing
     * one ({@link SchedulerUnion#of}) documents a deliberate difference ("shutting the union down
     * only makes the union reject new tasks; the members keep running and their owner shuts them
     * down", and it "counts as terminated once it is shut down and every member ... has
     * terminated"), so the shutdown, close and termination items do not hold for it by design.
     */
    static Stream<Named<Kind>> schedulers() {
        Map<ThrowingCallable, String> stealing = poolBuilderChecks(WorkStealingPool::builder);
        stealing.put(() -> WorkStealingPool.builder().localQueueCapacity(1), "localQueueCapacity");
        stealing.put(() -> WorkStealingPool.builder().stealAttempts(0), "stealAttempts");
        stealing.put(() -> WorkStealingPool.builder().maxSpareWorkers(-1), "maxSpareWorkers");
        stealing.put(() -> WorkStealingPool.builder().spareKeepAlive(Duration.ZERO), "spareKeepAlive");
        Map<ThrowingCallable, String> union = new java.util.LinkedHashMap<>();
        union.put(() -> SchedulerUnion.builder().build(), "member");
        union.put(() -> SchedulerUnion.owning(), "member");
        return Stream.of(
                Named.of("WorkStealingPool default", kind(h -> WorkStealingPool.builder()
                        .uncaughtExceptionHandler(h).build(), stealing)),
                Named.of("WorkStealingPool 1 worker", kind(h -> WorkStealingPool.builder().workers(1)
                        .uncaughtExceptionHandler(h).build(), stealing)),
                Named.of("WorkStealingPool 1 worker, no spares", kind(h -> WorkStealingPool.builder().workers(1)
                        .maxSpareWorkers(0).uncaughtExceptionHandler(h).build(), stealing)),
                Named.of("WorkStealingPool 2 workers, no spares", kind(h -> WorkStealingPool.builder().workers(2)
                        .maxSpareWorkers(0).uncaughtExceptionHandler(h).build(), stealing)),
                Named.of("WorkSharingPool default", kind(h -> WorkSharingPool.builder()
                        .uncaughtExceptionHandler(h).build(), poolBuilderChecks(WorkSharingPool::builder))),
                Named.of("WorkSharingPool 1 worker", kind(h -> WorkSharingPool.builder().workers(1)
                        .uncaughtExceptionHandler(h).build(), poolBuilderChecks(WorkSharingPool::builder))),
                Named.of("PriorityPool default", kind(h -> PriorityPool.builder()
                        .uncaughtExceptionHandler(h).build(), poolBuilderChecks(PriorityPool::builder))),
                Named.of("PriorityPool 1 worker", kind(h -> PriorityPool.builder().workers(1)
                        .uncaughtExceptionHandler(h).build(), poolBuilderChecks(PriorityPool::builder))),
                Named.of("PinnedPool default", kind(h -> PinnedPool.builder()
                        .uncaughtExceptionHandler(h).build(), poolBuilderChecks(PinnedPool::builder))),
                Named.of("PinnedPool 1 worker", kind(h -> PinnedPool.builder().workers(1)
                        .uncaughtExceptionHandler(h).build(), poolBuilderChecks(PinnedPool::builder))),
                Named.of("SchedulerUnion owning (sharing 1, stealing 2)", kind(h -> SchedulerUnion.builder()
                        .add(WorkSharingPool.builder().workers(1).uncaughtExceptionHandler(h).build())
                        .add(WorkStealingPool.builder().workers(2).uncaughtExceptionHandler(h).build())
                        .owning(true).build(), union)),
                Named.of("SchedulerUnion owning (pinned 1)", kind(h -> SchedulerUnion.owning(
                        PinnedPool.builder().workers(1).uncaughtExceptionHandler(h).build()), union)));
    }

    private static final Thread.UncaughtExceptionHandler IGNORE = (t, e) -> { };

    /** Runs {@code body} on a fresh scheduler and stops it whatever happens. */
    private interface Body {
        void run(ExecutorService s) throws Exception;
    }

    private static void with(Kind kind, Body body) throws Exception {
        with(kind, IGNORE, body);
    }

    private static void with(Kind kind, Thread.UncaughtExceptionHandler h, Body body) throws Exception {
        ExecutorService s = kind.build(h);
        try {
            body.run(s);
        } finally {
            s.shutdownNow();
            assertThat(s.awaitTermination(10, SECONDS)).as("terminates after shutdownNow").isTrue();
        }
    }

    /** Runs {@code c} as a task of {@code s} and returns its result, failing on a hang. */
    private static <T> T inside(ExecutorService s, Callable<T> c) throws Exception {
        LinkedBlockingQueue<Object> out = new LinkedBlockingQueue<>();
        s.execute(() -> {
            try {
                T v = c.call();
                out.add(v == null ? out : v);
            } catch (Throwable e) {
                out.add(new Failure(e));
            }
        });
        Object v = out.poll(10, SECONDS);
        assertThat(v).as("the task inside the scheduler finished (no deadlock)").isNotNull();
        if (v instanceof Failure f) {
            throw new ExecutionException(f.e);
        }
        @SuppressWarnings("unchecked")
        T t = v == out ? null : (T) v;
        return t;
    }

    private record Failure(Throwable e) {
    }

    // ------------------------------------------------------------------ arguments

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void nullTasksAndBadBuilderArgumentsAreNamed(Kind kind) throws Exception {
        for (Map.Entry<ThrowingCallable, String> e : kind.badBuilderCalls().entrySet()) {
            assertThatThrownBy(e.getKey()).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(e.getValue());
        }
        with(kind, s -> {
            Scheduler sch = (Scheduler) s;
            assertThatThrownBy(() -> s.execute(null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("task");
            assertThatThrownBy(() -> s.submit((Runnable) null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("task");
            assertThatThrownBy(() -> s.submit((Runnable) null, 1)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("task");
            assertThatThrownBy(() -> s.submit((Callable<Object>) null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("task");
            assertThatThrownBy(() -> sch.execute(null, Hints.DEFAULT)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("task");
            assertThatThrownBy(() -> sch.execute(() -> { }, null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("hints");
            assertThatThrownBy(() -> s.invokeAll(null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("tasks");
            assertThatThrownBy(() -> s.invokeAny(null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("tasks");
        });
    }

    // ------------------------------------------------------------------ shutdown

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void tasksAfterShutdownAreRejectedAndNeverRun(Kind kind) throws Exception {
        with(kind, s -> {
            AtomicInteger ran = new AtomicInteger();
            s.shutdown();
            assertThatThrownBy(() -> s.execute(ran::incrementAndGet)).isInstanceOf(RejectedExecutionException.class);
            assertThatThrownBy(() -> s.submit(ran::incrementAndGet)).isInstanceOf(RejectedExecutionException.class);
            assertThatThrownBy(() -> ((Scheduler) s).execute(ran::incrementAndGet, Hints.DEFAULT))
                    .isInstanceOf(RejectedExecutionException.class);
            assertThatThrownBy(() -> s.invokeAll(List.of(ran::incrementAndGet)))
                    .isInstanceOf(RejectedExecutionException.class);
            assertThat(s.awaitTermination(10, SECONDS)).isTrue();
            assertThat(ran).as("rejected tasks never run").hasValue(0);
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void everyTaskAcceptedBeforeShutdownRunsExactlyOnce(Kind kind) throws Exception {
        with(kind, s -> {
            int threads = 4;
            int perThread = 1000;
            AtomicIntegerArray runs = new AtomicIntegerArray(threads * perThread);
            AtomicIntegerArray childRuns = new AtomicIntegerArray(threads * perThread);
            CountDownLatch start = new CountDownLatch(1);
            List<Thread> submitters = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int base = t * perThread;
                Thread th = new Thread(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perThread; i++) {
                        int id = base + i;
                        Runnable task = () -> {
                            runs.incrementAndGet(id);
                            if (id % 3 == 0) {
                                // from inside: accepted even after shutdown, and must run too
                                s.execute(() -> childRuns.incrementAndGet(id));
                            }
                        };
                        if (i % 2 == 0) {
                            s.execute(task);
                        } else {
                            s.submit(task);
                        }
                    }
                });
                th.start();
                submitters.add(th);
            }
            start.countDown();
            for (Thread th : submitters) {
                th.join(20_000);
            }
            s.shutdown();
            assertThat(s.awaitTermination(20, SECONDS)).as("terminates after shutdown").isTrue();
            for (int i = 0; i < runs.length(); i++) {
                assertThat(runs.get(i)).as("runs of task %d", i).isEqualTo(1);
                assertThat(childRuns.get(i)).as("runs of child %d", i).isEqualTo(i % 3 == 0 ? 1 : 0);
            }
        });
    }

    /** A task that knows itself, so a task returned by shutdownNow can be matched to its runs. */
    private static class Tracked implements Runnable {
        final int id;
        final AtomicIntegerArray runs;

        Tracked(int id, AtomicIntegerArray runs) {
            this.id = id;
            this.runs = runs;
        }

        @Override
        public void run() {
            runs.incrementAndGet(id);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void shutdownNowReturnsExactlyTheTasksThatNeverRun(Kind kind) throws Exception {
        with(kind, s -> {
            int n = 3000;
            // ids n + i: the child that task i submits from inside, if i % 4 == 0 and it is accepted
            AtomicIntegerArray runs = new AtomicIntegerArray(2 * n);
            AtomicIntegerArray accepted = new AtomicIntegerArray(2 * n);
            AtomicInteger next = new AtomicInteger();
            CountDownLatch someRan = new CountDownLatch(200);
            List<Thread> submitters = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Thread th = new Thread(() -> {
                    for (int id; (id = next.getAndIncrement()) < n; ) {
                        int me = id;
                        Runnable task = new Tracked(me, runs) {
                            @Override
                            public void run() {
                                super.run();
                                someRan.countDown();
                                if (me % 4 == 0) {
                                    try {
                                        s.execute(new Tracked(n + me, runs));
                                        accepted.set(n + me, 1);
                                    } catch (RejectedExecutionException e) {
                                        // after shutdownNow: refused, and so never run
                                    }
                                }
                            }
                        };
                        try {
                            s.execute(task);
                            accepted.set(me, 1);
                        } catch (RejectedExecutionException e) {
                            return;
                        }
                    }
                });
                th.start();
                submitters.add(th);
            }
            assertThat(someRan.await(10, SECONDS)).isTrue();
            List<Runnable> returned = s.shutdownNow();
            for (Thread th : submitters) {
                th.join(10_000);
            }
            assertThat(s.awaitTermination(10, SECONDS)).isTrue();
            Set<Runnable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            AtomicIntegerArray back = new AtomicIntegerArray(2 * n);
            for (Runnable r : returned) {
                assertThat(seen.add(r)).as("returned once").isTrue();
                assertThat(r).isInstanceOf(Tracked.class);
                back.incrementAndGet(((Tracked) r).id);
            }
            for (int i = 0; i < 2 * n; i++) {
                assertThat(runs.get(i) + back.get(i)).as("task %d: runs %d, returned %d, accepted %d",
                        i, runs.get(i), back.get(i), accepted.get(i)).isEqualTo(accepted.get(i));
            }
        });
    }

    // ------------------------------------------------------------------ failures

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void aFailingTaskReachesItsCallerAndTheWorkerGoesOn(Kind kind) throws Exception {
        LinkedBlockingQueue<Throwable> handled = new LinkedBlockingQueue<>();
        with(kind, (Thread t, Throwable e) -> handled.add(e), s -> {
            IllegalStateException boom = new IllegalStateException("boom");
            Future<?> f = s.submit(() -> {
                throw boom;
            });
            assertThatThrownBy(() -> f.get(10, SECONDS)).isInstanceOf(ExecutionException.class).hasCause(boom);
            Future<Object> fc = s.submit((Callable<Object>) () -> {
                throw boom;
            });
            assertThatThrownBy(() -> fc.get(10, SECONDS)).isInstanceOf(ExecutionException.class).hasCause(boom);
            IllegalStateException bang = new IllegalStateException("bang");
            for (int i = 0; i < 5; i++) {
                s.execute(() -> {
                    throw bang;
                });
            }
            for (int i = 0; i < 5; i++) {
                assertThat(handled.poll(10, SECONDS)).as("the handler got the execute task's failure").isSameAs(bang);
            }
            CountDownLatch later = new CountDownLatch(20);
            for (int i = 0; i < 20; i++) {
                s.execute(later::countDown);
            }
            assertThat(later.await(10, SECONDS)).as("later tasks run").isTrue();
            assertThat(handled).as("submit's failures go to the Future only").isEmpty();
        });
    }

    // ------------------------------------------------------------------ close

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void closeFromOutsideWaitsForTasks(Kind kind) throws Exception {
        with(kind, s -> {
            AtomicBoolean done = new AtomicBoolean();
            CountDownLatch started = new CountDownLatch(1);
            s.execute(() -> {
                started.countDown();
                try {
                    Thread.sleep(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.set(true);
            });
            assertThat(started.await(10, SECONDS)).isTrue();
            runWithin(ignored -> ((AutoCloseable) s).close());
            assertThat(done).as("close waited for the running task").isTrue();
            assertThat(s.isTerminated()).isTrue();
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void shutdownOrCloseFromInsideDoesNotDeadlock(Kind kind) throws Exception {
        with(kind, s -> {
            inside(s, () -> {
                s.shutdown();
                return null;
            });
            assertThat(s.awaitTermination(10, SECONDS)).isTrue();
        });
        with(kind, s -> {
            AtomicBoolean after = new AtomicBoolean();
            inside(s, () -> {
                ((AutoCloseable) s).close();
                s.execute(() -> after.set(true));   // from inside: still accepted after shutdown
                return null;
            });
            assertThat(s.awaitTermination(10, SECONDS)).isTrue();
            assertThat(after).as("a task submitted from inside after close ran").isTrue();
        });
    }

    private static void runWithin(Body body) throws Exception {
        Thread t = new Thread(() -> {
            try {
                body.run(null);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        t.start();
        t.join(10_000);
        assertThat(t.isAlive()).as("finished within 10 s").isFalse();
    }

    // ------------------------------------------------------------------ lifecycle

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void lifecycleTransitionsAndZeroOrNegativeTimeouts(Kind kind) throws Exception {
        with(kind, s -> {
            assertThat(s.isShutdown()).isFalse();
            assertThat(s.isTerminated()).isFalse();
            assertThat(s.awaitTermination(0, SECONDS)).isFalse();
            assertThat(s.awaitTermination(-1, SECONDS)).isFalse();
            assertThat(s.awaitTermination(Long.MIN_VALUE, MILLISECONDS)).isFalse();
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(1);
            s.execute(() -> {
                started.countDown();
                try {
                    release.await(10, SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(started.await(10, SECONDS)).isTrue();
            s.shutdown();
            assertThat(s.isShutdown()).isTrue();
            assertThat(s.isTerminated()).as("a task still runs").isFalse();
            assertThat(s.awaitTermination(0, SECONDS)).isFalse();
            assertThat(s.awaitTermination(-5, SECONDS)).isFalse();
            release.countDown();
            assertThat(s.awaitTermination(10, SECONDS)).isTrue();
            assertThat(s.isTerminated()).isTrue();
            assertThat(s.awaitTermination(0, SECONDS)).isTrue();
            assertThat(s.awaitTermination(-5, SECONDS)).isTrue();
            s.shutdown();                        // idempotent
            assertThat(s.shutdownNow()).isEmpty();
            assertThat(s.isTerminated()).isTrue();
        });
    }

    // ------------------------------------------------------------------ invokeAll / invokeAny

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void invokeAllAndInvokeAnyEdgeCasesFromOutside(Kind kind) throws Exception {
        with(kind, s -> invokeEdgeCases(s));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void invokeAllAndInvokeAnyEdgeCasesFromInsideATask(Kind kind) throws Exception {
        with(kind, s -> inside(s, () -> {
            invokeEdgeCases(s);
            return null;
        }));
    }

    private static void invokeEdgeCases(ExecutorService s) throws Exception {
        assertThat(s.invokeAll(List.of())).isEmpty();
        assertThat(s.invokeAll(List.of(), 1, SECONDS)).isEmpty();
        assertThatThrownBy(() -> s.invokeAny(List.of())).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> s.invokeAny(List.of(), 1, SECONDS)).isInstanceOf(IllegalArgumentException.class);
        AtomicInteger ran = new AtomicInteger();
        Callable<Integer> counted = ran::incrementAndGet;
        // many tasks ahead of the null: a pool that queued them before it met the null would
        // have an idle worker run some of them
        List<Callable<Integer>> withNull = new ArrayList<>(Collections.nCopies(1000, counted));
        withNull.add(null);
        assertThatThrownBy(() -> s.invokeAll(withNull)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.invokeAll(withNull, 1, SECONDS)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.invokeAny(withNull)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> s.invokeAny(withNull, 1, SECONDS)).isInstanceOf(NullPointerException.class);
        Thread.sleep(20);
        assertThat(ran).as("no task of a list with a null element ran").hasValue(0);
        List<Future<Integer>> all = s.invokeAll(List.of(() -> 1, () -> 2, () -> 3));
        assertThat(all).hasSize(3);
        int sum = 0;
        for (Future<Integer> f : all) {
            assertThat(f.isDone()).isTrue();
            sum += f.get();
        }
        assertThat(sum).isEqualTo(6);
        List<Callable<Integer>> oneFails = List.of(() -> {
            throw new IllegalStateException("first fails");
        }, () -> 7);
        Integer any = s.invokeAny(oneFails);
        assertThat(any).isEqualTo(7);
    }

    // ------------------------------------------------------------------ nested submission

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void aTaskSubmittedFromInsideATaskRuns(Kind kind) throws Exception {
        with(kind, s -> {
            CountDownLatch ran = new CountDownLatch(3);
            s.execute(() -> {
                s.execute(ran::countDown);
                s.submit(ran::countDown);
                ((Scheduler) s).execute(ran::countDown, Hints.DEFAULT);
            });
            assertThat(ran.await(10, SECONDS)).as("nested tasks ran").isTrue();
            // a chain: each task submits the next, 1,000 deep
            CountDownLatch chain = new CountDownLatch(1);
            s.execute(new Runnable() {
                int left = 1000;

                @Override
                public void run() {
                    if (--left == 0) {
                        chain.countDown();
                    } else {
                        s.execute(this);
                    }
                }
            });
            assertThat(chain.await(10, SECONDS)).as("a chain of nested tasks ran").isTrue();
        });
    }
}
