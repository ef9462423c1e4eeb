/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Spindle;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The pools and {@code Spindle.blocking} as a {@code java.util.concurrent} user drives them: the
 * threads a pool makes while it runs (spare workers) look like the ones it was built with, and
 * a blocking section runs on a stopping {@link ForkJoinPool} of a newer JDK.
 */
class PoolThirdReviewRegressionTest {

    /** A loader with no URLs, only to tell whether a thread carries it. */
    private static final class MarkerLoader extends URLClassLoader {
        MarkerLoader() {
            super(new URL[0], PoolThirdReviewRegressionTest.class.getClassLoader());
        }
    }

    /**
     * A spare that the starvation watch starts (a task waits where the pool cannot see it) runs
     * with the context class loader of the pool's other workers. It had {@code null}, the
     * loader of the watch's starter thread on which it was made: a task using the context loader
     * (a {@code ServiceLoader}, a framework loading by name) failed on that one thread only. A
     * factory of the user's, whose threads take the loader of the thread that calls it, made
     * such threads too.
     */
    @ParameterizedTest(name = "custom factory: {0}")
    @ValueSource(booleans = {false, true})
    void aStarvationSpareRunsWithTheContextClassLoaderOfTheWorkers(boolean customFactory) throws Exception {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        MarkerLoader marker = new MarkerLoader();
        WorkStealingPool pool;
        Thread.currentThread().setContextClassLoader(marker);
        try {
            WorkStealingPool.Builder b = WorkStealingPool.builder().workers(1);
            if (customFactory) {
                b.threadFactory(r -> {
                    Thread t = Executors.defaultThreadFactory().newThread(r);
                    t.setDaemon(true);
                    return t;
                });
            }
            pool = b.build();
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
        try {
            CountDownLatch latch = new CountDownLatch(1);
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicReference<ClassLoader> seen = new AtomicReference<>();
            AtomicReference<ClassLoader> seenByWorker = new AtomicReference<>();
            CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
                seenByWorker.set(Thread.currentThread().getContextClassLoader());
                waiting.countDown();
                try {
                    latch.await();             // untimed and unseen by the pool: the watch relieves it
                    return true;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, pool);
            assertThat(waiting.await(30, SECONDS)).isTrue();
            pool.execute(() -> {
                seen.set(Thread.currentThread().getContextClassLoader());
                latch.countDown();
            });
            assertThat(waiter.get(60, SECONDS)).isTrue();
            assertThat(seenByWorker.get()).as("a core worker's context class loader").isSameAs(marker);
            assertThat(seen.get()).as("the context class loader of the spare that ran the queued task")
                    .isSameAs(marker);
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, SECONDS)).isTrue();
        }
    }

    /**
     * A spare started for a task's blocking section runs with the pool's context class loader,
     * not the one that task had set on its thread for its own call: the spare kept that loader
     * (a web application's, say, pinned for the spare's life) and lent it to every task it ran.
     */
    @Test
    void aBlockingSectionsSpareRunsWithTheContextClassLoaderOfTheWorkers() throws Exception {
        ClassLoader before = Thread.currentThread().getContextClassLoader();
        MarkerLoader marker = new MarkerLoader();
        WorkStealingPool pool;
        Thread.currentThread().setContextClassLoader(marker);
        try {
            pool = WorkStealingPool.builder().workers(1).build();
        } finally {
            Thread.currentThread().setContextClassLoader(before);
        }
        // a task that changes its thread's loader for its own use and, blocking, has a spare
        // started meanwhile: the spare must not inherit the task's private loader
        ClassLoader seen = whatALaterTaskSeesOnTheSpare(pool,
                () -> Thread.currentThread().setContextClassLoader(new MarkerLoader()),
                () -> Thread.currentThread().setContextClassLoader(marker),
                () -> Thread.currentThread().getContextClassLoader());
        assertThat(seen).as("the context class loader of the spare that ran the queued task").isSameAs(marker);
    }

    private static final InheritableThreadLocal<String> CONTEXT = new InheritableThreadLocal<>();

    /**
     * A spare started for a task's blocking section does not inherit that task's
     * {@link InheritableThreadLocal} values: made on the task's thread, it did, and every later,
     * unrelated task it ran saw the first task's context (a request's user, say).
     */
    @Test
    void aTasksInheritableThreadLocalDoesNotReachLaterTasksOnTheSpareItsBlockingStarted() throws Exception {
        String seen = whatALaterTaskSeesOnTheSpare(WorkStealingPool.builder().workers(1).build(),
                () -> CONTEXT.set("request-1"),        // this task's context, for this task only
                CONTEXT::remove,
                () -> String.valueOf(CONTEXT.get()));
        assertThat(seen).as("what an unrelated task on the spare sees").isEqualTo("null");
    }

    /**
     * {@code Spindle.blocking} runs its section once on the calling thread, whatever the thread.
     * On a {@link ForkJoinPool} worker it asks the pool to compensate through
     * {@link ForkJoinPool#managedBlock}, which on newer JDKs (25; not 17, where this passed before
     * the fix too) throws {@link InterruptedException} without calling the blocker once the pool
     * is stopping (after {@code shutdownNow}): the section was then skipped and an
     * {@link IllegalStateException} thrown in its place.
     */
    @Test
    void aBlockingSectionOnAStoppingForkJoinPoolsWorkerStillRuns() throws Exception {
        ForkJoinPool fjp = new ForkJoinPool(1);
        try {
            CountDownLatch started = new CountDownLatch(1);
            AtomicInteger runs = new AtomicInteger();
            Future<String> f = fjp.submit(() -> {
                started.countDown();
                try {
                    new CountDownLatch(1).await(30, SECONDS);   // until shutdownNow interrupts it
                } catch (InterruptedException e) {
                    // handled: the task goes on to its blocking section
                }
                return Spindle.blocking(() -> {
                    runs.incrementAndGet();
                    return "ran";
                });
            });
            assertThat(started.await(30, SECONDS)).isTrue();
            fjp.shutdownNow();
            assertThat(f.get(30, SECONDS)).isEqualTo("ran");
            assertThat(runs.get()).isEqualTo(1);
        } finally {
            fjp.shutdownNow();
            assertThat(fjp.awaitTermination(30, SECONDS)).isTrue();
        }
    }

    /**
     * A spare started for a task's blocking section runs at the priority of the pool's other
     * workers, not at the one that task had set on its thread for itself: made on the task's
     * thread, it took that priority for its life, and every later task it ran with it.
     */
    @Test
    void aBlockingSectionsSpareRunsAtThePriorityOfTheWorkers() throws Exception {
        AtomicInteger seenByWorker = new AtomicInteger();
        int seen = whatALaterTaskSeesOnTheSpare(WorkStealingPool.builder().workers(1).build(),
                () -> {
                    seenByWorker.set(Thread.currentThread().getPriority());
                    Thread.currentThread().setPriority(Thread.MIN_PRIORITY);   // this task's background work
                },
                () -> Thread.currentThread().setPriority(seenByWorker.get()),
                () -> Thread.currentThread().getPriority());
        assertThat(seen).as("the priority of the spare that ran the queued task").isEqualTo(seenByWorker.get());
    }

    /**
     * On {@code pool} (one worker, shut down here): a task changes its own thread
     * ({@code changeOwnThread}), then waits in {@code Spindle.blocking} until a second task ran,
     * on the spare that section started; returns what {@code look} saw on that second task's
     * thread. The first task undoes its change as it ends ({@code restoreOwnThread}).
     */
    private static <T> T whatALaterTaskSeesOnTheSpare(WorkStealingPool pool, Runnable changeOwnThread,
            Runnable restoreOwnThread, Supplier<T> look) throws Exception {
        try {
            CountDownLatch latch = new CountDownLatch(1);
            CountDownLatch waiting = new CountDownLatch(1);
            AtomicReference<T> seen = new AtomicReference<>();
            CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
                changeOwnThread.run();
                waiting.countDown();
                try {
                    return Spindle.blocking(() -> latch.await(60, SECONDS));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                } finally {
                    restoreOwnThread.run();
                }
            }, pool);
            assertThat(waiting.await(30, SECONDS)).isTrue();
            pool.execute(() -> {
                seen.set(look.get());
                latch.countDown();
            });
            assertThat(waiter.get(60, SECONDS)).isTrue();
            return seen.get();
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, SECONDS)).isTrue();
        }
    }
}
