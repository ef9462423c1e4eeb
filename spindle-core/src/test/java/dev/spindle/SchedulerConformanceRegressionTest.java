/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle;

import static java.util.concurrent.TimeUnit.DAYS;
import static java.util.concurrent.TimeUnit.MILLISECONDS;
import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
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

    // ------------------------------------------------------------------ invokeAll / invokeAny: failures, interrupts, timeouts

    /**
     * Tasks that each wait until interrupted (or {@link #letGo}), counting starts and the
     * interrupts that end them: one that ends otherwise within 20 s was neither cancelled nor let
     * go, and holds a worker past the checks' time limits. An interrupt is kept for the caller of
     * an {@code invokeAll} or {@code invokeAny} that runs the task itself, as a well-behaved task
     * keeps it.
     */
    private static final class Blockers {
        final AtomicInteger started = new AtomicInteger();
        final AtomicInteger interrupted = new AtomicInteger();
        final CountDownLatch firstStarted = new CountDownLatch(1);
        final CountDownLatch letGo = new CountDownLatch(1);

        List<Callable<Integer>> tasks(int n) {
            List<Callable<Integer>> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int id = i;
                out.add(() -> {
                    started.incrementAndGet();
                    firstStarted.countDown();
                    try {
                        letGo.await(20, SECONDS);
                    } catch (InterruptedException e) {
                        interrupted.incrementAndGet();
                        Thread.currentThread().interrupt();
                        return -1;
                    }
                    return id;
                });
            }
            return out;
        }

        /** After a call that must have cancelled every task: none runs on, and every one that started was interrupted. */
        void assertAllStoppedIn(ExecutorService s, String what) throws InterruptedException {
            s.shutdown();
            assertThat(s.awaitTermination(10, SECONDS)).as("%s: no task ran on (every one cancelled)", what).isTrue();
            assertThat(interrupted.get()).as("%s: tasks interrupted, of %s started", what, started.get())
                    .isEqualTo(started.get());
        }
    }

    /**
     * Runs {@code body} on a thread of its own ({@code inside} false) or as a task of {@code s},
     * and gives its thread; what it returns or throws completes {@code outcome}.
     */
    private static Thread startCaller(ExecutorService s, boolean inside, CompletableFuture<Object> outcome,
                                      Callable<Object> body) throws InterruptedException {
        AtomicReference<Thread> thread = new AtomicReference<>();
        CountDownLatch known = new CountDownLatch(1);
        Runnable r = () -> {
            thread.set(Thread.currentThread());
            known.countDown();
            try {
                outcome.complete(body.call());
            } catch (Throwable e) {
                outcome.complete(e);
            }
        };
        if (inside) {
            s.execute(r);
        } else {
            new Thread(r, "caller").start();
        }
        assertThat(known.await(10, SECONDS)).as("the caller started").isTrue();
        return thread.get();
    }

    private static Object awaitOutcome(CompletableFuture<Object> outcome, String what) throws Exception {
        Object o = outcome.completeOnTimeout(Hang.HANG, 10, SECONDS).get();
        assertThat(o).as("%s: returned or threw (no hang)", what).isNotSameAs(Hang.HANG);
        return o;
    }

    private enum Hang { HANG }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void invokeAllWithAFailingTaskGivesEveryFutureItsOutcome(Kind kind) throws Exception {
        IllegalStateException boom = new IllegalStateException("second fails");
        List<Callable<Integer>> tasks = List.of(() -> 1, () -> {
            throw boom;
        }, () -> 3);
        for (boolean inside : new boolean[] {false, true}) {
            with(kind, s -> {
                Callable<List<Future<Integer>>> call = () -> s.invokeAll(tasks);
                List<Future<Integer>> fs = inside ? inside(s, call) : call.call();
                assertThat(fs).hasSize(3).allMatch(Future::isDone).noneMatch(Future::isCancelled);
                assertThat(fs.get(0).get()).isEqualTo(1);
                assertThatThrownBy(() -> fs.get(1).get()).isInstanceOf(ExecutionException.class).hasCause(boom);
                assertThat(fs.get(2).get()).isEqualTo(3);
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void anInvokeAllInterruptedMidwayCancelsTheRestAndThrows(Kind kind) throws Exception {
        for (boolean inside : new boolean[] {false, true}) {
            String what = inside ? "invokeAll from a task" : "invokeAll from outside";
            with(kind, s -> {
                Blockers b = new Blockers();
                CompletableFuture<Object> outcome = new CompletableFuture<>();
                Thread caller = startCaller(s, inside, outcome, () -> s.invokeAll(b.tasks(20)));
                assertThat(b.firstStarted.await(10, SECONDS)).as("%s: a task started", what).isTrue();
                caller.interrupt();
                assertThat(awaitOutcome(outcome, what)).as(what).isInstanceOf(InterruptedException.class);
                b.assertAllStoppedIn(s, what);
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void aTimedInvokeAllCancelsWhatDidNotFinish(Kind kind) throws Exception {
        with(kind, s -> {
            Blockers b = new Blockers();
            List<Future<Integer>> fs = s.invokeAll(b.tasks(20), 100, MILLISECONDS);
            assertThat(fs).hasSize(20);
            for (Future<Integer> f : fs) {
                assertThat(f.isDone() && f.isCancelled()).as("a task that cannot finish in time: cancelled").isTrue();
                assertThatThrownBy(f::get).isInstanceOf(java.util.concurrent.CancellationException.class);
            }
            b.assertAllStoppedIn(s, "timed invokeAll");
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void anInvokeAnyWhoseTasksAllFailThrowsExecutionException(Kind kind) throws Exception {
        List<IllegalStateException> failures = List.of(new IllegalStateException("a"),
                new IllegalStateException("b"), new IllegalStateException("c"));
        List<Callable<Integer>> tasks = new ArrayList<>();
        for (IllegalStateException e : failures) {
            tasks.add(() -> {
                throw e;
            });
        }
        for (boolean inside : new boolean[] {false, true}) {
            with(kind, s -> {
                for (boolean timed : new boolean[] {false, true}) {
                    Callable<Object> call = () -> catchThrowable(() -> {
                        if (timed) {
                            s.invokeAny(tasks, 10, SECONDS);
                        } else {
                            s.invokeAny(tasks);
                        }
                    });
                    Object thrown = inside ? inside(s, call) : call.call();
                    assertThat(thrown).as("%s invokeAny %s", timed ? "timed" : "untimed",
                            inside ? "from a task" : "from outside").isInstanceOf(ExecutionException.class);
                    assertThat(((Throwable) thrown).getCause()).isIn(failures.toArray());
                }
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void aTimedInvokeAnyThatRunsOutThrowsTimeoutAndCancelsTheRest(Kind kind) throws Exception {
        with(kind, s -> {
            Blockers b = new Blockers();
            assertThatThrownBy(() -> s.invokeAny(b.tasks(10), 100, MILLISECONDS))
                    .isInstanceOf(TimeoutException.class);
            b.assertAllStoppedIn(s, "timed invokeAny");
        });
        for (boolean inside : new boolean[] {false, true}) {
            String what = inside ? "invokeAny from a task" : "invokeAny from outside";
            with(kind, s -> {
                Blockers b = new Blockers();
                CompletableFuture<Object> outcome = new CompletableFuture<>();
                Thread caller = startCaller(s, inside, outcome, () -> s.invokeAny(b.tasks(10)));
                assertThat(b.firstStarted.await(10, SECONDS)).as("%s: a task started", what).isTrue();
                caller.interrupt();
                // the task interrupted may return (-1) first, and be the one that succeeds
                Object o = awaitOutcome(outcome, what);
                assertThat(o instanceof InterruptedException || Integer.valueOf(-1).equals(o))
                        .as("%s, interrupted: %s", what, o).isTrue();
                b.assertAllStoppedIn(s, what);
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void theLongestTimeoutsOfInvokeAndGetWaitAsLongAsNeeded(Kind kind) throws Exception {
        // a deadline of now + Long.MAX_VALUE ns wraps around: code that compared deadlines
        // rather than their differences would time out at once, or never
        for (boolean inside : new boolean[] {false, true}) {
            with(kind, s -> {
                Callable<Object> call = () -> {
                    List<Future<Integer>> all = s.invokeAll(List.of(() -> 1, () -> 2), Long.MAX_VALUE, NANOSECONDS);
                    assertThat(all).allMatch(f -> f.isDone() && !f.isCancelled());
                    assertThat(all.get(1).get(Long.MAX_VALUE, DAYS)).isEqualTo(2);
                    Integer any = s.invokeAny(List.of(() -> 3), Long.MAX_VALUE, DAYS);
                    assertThat(any).isEqualTo(3);
                    if (!inside) {
                        // from a task, a one-worker (or pinned) pool's submit(inner).get() waits
                        // for good, as documented, whatever the timeout
                        assertThat(s.submit(() -> 4).get(Long.MAX_VALUE, NANOSECONDS)).isEqualTo(4);
                    }
                    return null;
                };
                if (inside) {
                    inside(s, call);
                } else {
                    call.call();
                }
            });
        }
    }

    // ------------------------------------------------------------------ shutdownNow: nothing lost, nothing run twice

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void tasksShutdownNowReturnsRunOnceWhenRunByHandAndNoneRunLater(Kind kind) throws Exception {
        with(kind, s -> {
            int n = 400;
            int holders = 16;                    // at least as many as any kind's workers here
            Blockers b = new Blockers();
            for (Callable<Integer> h : b.tasks(holders)) {
                s.submit(h);
            }
            assertThat(b.firstStarted.await(10, SECONDS)).isTrue();
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            Map<Object, Integer> ids = new IdentityHashMap<>();
            List<Future<Integer>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int id = i;
                if (i % 2 == 0) {
                    Tracked t = new Tracked(id, runs);
                    s.execute(t);
                    ids.put(t, id);
                } else {
                    Future<Integer> f = s.submit(() -> {
                        runs.incrementAndGet(id);
                        return id;
                    });
                    futures.add(f);
                    ids.put(f, id);
                }
            }
            List<Runnable> returned = s.shutdownNow();
            b.letGo.countDown();                 // a holder that never started runs at once by hand
            assertThat(s.awaitTermination(10, SECONDS)).as("terminates after shutdownNow").isTrue();
            Set<Runnable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Runnable r : returned) {
                assertThat(seen.add(r)).as("returned once: %s", r).isTrue();
                Integer id = ids.get(r);
                if (id != null) {
                    assertThat(runs.get(id)).as("task %d: returned as never started, yet it ran", id).isZero();
                }
            }
            for (Runnable r : returned) {
                r.run();
            }
            assertThat(b.started).as("holders started, by the pool or by hand").hasValue(holders);
            for (int i = 0; i < n; i++) {
                assertThat(runs.get(i)).as("task %d: runs by the pool and by hand", i).isEqualTo(1);
            }
            for (Future<Integer> f : futures) {
                assertThat(f.isDone()).isTrue();
                assertThat(f.get()).isEqualTo(ids.get(f));
            }
        });
    }

    // ------------------------------------------------------------------ awaitTermination, close

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void awaitTerminationWithTheLongestTimeoutsWaitsAndReturnsTrue(Kind kind) throws Exception {
        for (TimeUnit unit : new TimeUnit[] {NANOSECONDS, DAYS}) {
            with(kind, s -> {
                CountDownLatch started = new CountDownLatch(1);
                CountDownLatch release = new CountDownLatch(1);
                s.execute(() -> {
                    started.countDown();
                    try {
                        release.await(20, SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                assertThat(started.await(10, SECONDS)).isTrue();
                s.shutdown();
                CompletableFuture<Object> outcome = new CompletableFuture<>();
                startCaller(s, false, outcome, () -> s.awaitTermination(Long.MAX_VALUE, unit));
                release.countDown();
                assertThat(awaitOutcome(outcome, "awaitTermination(Long.MAX_VALUE, " + unit + ")")).isEqualTo(true);
                assertThat(s.awaitTermination(Long.MAX_VALUE, unit)).isTrue();
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("schedulers")
    void closeFromATaskLetsEveryQueuedTaskRunAndThePoolTerminate(Kind kind) throws Exception {
        with(kind, s -> {
            int n = 200;
            CountDownLatch ran = new CountDownLatch(n);
            inside(s, () -> {                    // fails if the close never returns
                for (int i = 0; i < n; i++) {
                    s.execute(ran::countDown);   // queued behind this task, on its worker for some kinds
                }
                ((AutoCloseable) s).close();     // from inside: shuts down, cannot wait for itself
                return null;
            });
            assertThat(ran.await(10, SECONDS)).as("tasks queued before the close all ran").isTrue();
            assertThat(s.awaitTermination(10, SECONDS)).isTrue();
            assertThatThrownBy(() -> s.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
        });
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
