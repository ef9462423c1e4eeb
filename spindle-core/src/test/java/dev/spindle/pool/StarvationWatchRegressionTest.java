/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Spindle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Ways around {@link StarvationWatch}: pools that starved and were never relieved (a parked spare
 * that retired, a worker in a blocking section, a thread factory that ended the watch), a spare
 * started after the pool terminated, and a watch thread that outlived every pool.
 */
class StarvationWatchRegressionTest {

    /** Polls {@code condition} every millisecond (a timed wait: it gets no spare) for up to 30 s. */
    private static boolean await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /**
     * A spare parked in its keep-alive made the watch disarm the pool; when the spare then
     * retired, it left the parked stack without beginning a round, so nobody armed the pool
     * again, and a task that then waited for work it queued hung for good. (The watch now keeps a
     * pool whose only parked workers are spares: StarvationBesideAParkedSpareTest.)
     */
    @Test
    void aPoolWhoseParkedSpareRetiresIsStillRelieved() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1)
                .spareKeepAlive(Duration.ofMillis(20)).build();
        try {
            CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(() -> {
                try {
                    // the section's spare finds nothing to do and parks (the watch dropped the
                    // pool for that park while it counted parked spares; it now keeps it)
                    Spindle.blocking(() -> {
                        if (!await(() -> pool.stats().parkedWorkers() == 1)) {
                            throw new IllegalStateException("the spare never parked: " + pool.stats());
                        }
                    });
                    // the section is over: the spare is surplus and retires after its keep-alive
                    if (!await(() -> pool.stats().liveWorkers() == 1)) {
                        throw new IllegalStateException("the spare never retired: " + pool.stats());
                    }
                    return CompletableFuture.supplyAsync(() -> 41, pool).get() + 1;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }, pool);
            assertThat(outer.get(10, TimeUnit.SECONDS)).isEqualTo(42);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Spares the watch starts are bounded by {@code maxSpareWorkers}, however many tasks wait,
     * and retire once the waits end.
     */
    @Test
    void sparesForStarvationStayWithinTheBoundAndRetire() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(3)
                .spareKeepAlive(Duration.ofMillis(50)).build();
        try {
            CountDownLatch release = new CountDownLatch(1);
            List<CompletableFuture<Void>> waits = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                waits.add(CompletableFuture.runAsync(() -> {
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }, pool));
            }
            assertThat(await(() -> pool.stats().liveWorkers() == 4)).as("spares started").isTrue();
            int most = 0;
            for (int i = 0; i < 100; i++) {
                most = Math.max(most, pool.stats().liveWorkers());
                Thread.sleep(2);
            }
            assertThat(most).as("live workers at most").isEqualTo(4);
            release.countDown();
            CompletableFuture.allOf(waits.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            assertThat(await(() -> pool.stats().liveWorkers() == 1)).as("spares retired: %s", pool.stats()).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    /** A pool that terminated leaves the watched list. */
    @Test
    void aTerminatedPoolIsNoLongerWatched() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(2);
        for (int i = 0; i < 2; i++) {
            pool.execute(() -> {
                started.countDown();
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
        }
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(await(() -> StarvationWatch.isWatched(pool))).as("armed while every worker waits").isTrue();
        pool.shutdown();
        release.countDown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(await(() -> !StarvationWatch.isWatched(pool))).as("dropped once terminated").isTrue();
    }
    /**
     * The watch decides to start a spare on a thread of its own, outside the pool, so the pool
     * can stop and terminate between its look and the start: a thread of a terminated pool was
     * then started. Here the thread factory holds the watch in between.
     */
    @Test
    void noSpareStartsAfterThePoolTerminated() throws Exception {
        CountDownLatch factoryEntered = new CountDownLatch(1);
        CountDownLatch factoryReleased = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicReference<Thread> spare = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(1).threadFactory(r -> {
            Thread t = new Thread(r);
            if (calls.getAndIncrement() > 0) {     // the spare's: the core worker's came first
                spare.set(t);
                factoryEntered.countDown();
                try {
                    factoryReleased.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return t;
        }).build();
        try {
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch never = new CountDownLatch(1);
            pool.execute(() -> {
                started.countDown();
                try {
                    never.await();                 // untimed; shutdownNow's interrupt ends it
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
            pool.execute(() -> { });               // queued behind the waiting task: the watch starts a spare
            assertThat(factoryEntered.await(30, TimeUnit.SECONDS)).as("the watch asked for a spare").isTrue();
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            factoryReleased.countDown();
        }
        assertThat(await(() -> !StarvationWatch.isWatched(pool))).as("the watch is done with the pool").isTrue();
        assertThat(spare.get().getState()).as("the spare's thread, after the pool terminated")
                .isEqualTo(Thread.State.NEW);
    }

    /**
     * The JVM-wide watch thread waited for good once no pool needed it, so a copy of this
     * library loaded by a class loader of its own (an application redeployed in a container, a
     * plugin) was never unloaded after every pool it made had terminated: the thread's code is
     * that loader's.
     */
    @Test
    void theWatchThreadEndsOnceNoPoolNeedsIt() throws Exception {
        java.lang.ref.WeakReference<ClassLoader> loader = useAnIsolatedCopy();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);   // the thread exits after IDLE_EXIT_NANOS
        while (loader.get() != null && System.nanoTime() - end < 0) {
            System.gc();
            Thread.sleep(100);
        }
        assertThat(loader.get()).as("the class loader of a copy whose every pool terminated").isNull();
    }

    /** Loads this library afresh, arms its watch with a pool, and terminates the pool. */
    private static java.lang.ref.WeakReference<ClassLoader> useAnIsolatedCopy() throws Exception {
        java.net.URL classes = WorkStealingPool.class.getProtectionDomain().getCodeSource().getLocation();
        java.net.URLClassLoader loader = new java.net.URLClassLoader(new java.net.URL[] {classes},
                ClassLoader.getPlatformClassLoader());
        Class<?> poolClass = Class.forName(WorkStealingPool.class.getName(), true, loader);
        assertThat(poolClass).isNotSameAs(WorkStealingPool.class);
        Object builder = poolClass.getMethod("builder").invoke(null);
        builder.getClass().getMethod("workers", int.class).invoke(builder, 1);
        java.util.concurrent.ExecutorService pool =
                (java.util.concurrent.ExecutorService) builder.getClass().getMethod("build").invoke(builder);
        try {
            assertThat(pool.submit(() -> 42).get(30, TimeUnit.SECONDS)).isEqualTo(42);
            java.lang.reflect.Field thread = Class.forName(StarvationWatch.class.getName(), true, loader)
                    .getDeclaredField("thread");
            thread.setAccessible(true);
            assertThat(thread.get(null)).as("the copy's watch thread (armed as the worker started)").isNotNull();
        } finally {
            pool.shutdown();
        }
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        loader.close();
        return new java.lang.ref.WeakReference<>(loader);
    }
    /**
     * A worker inside a blocking section that waits with a time limit kept the watch from ever
     * relieving the pool: the watch asked every live worker to wait untimed, and the section's
     * own compensation was satisfied by a spare that then waited unseen itself. Here the section
     * polls for what a task queued behind that spare does.
     */
    @Test
    void aSpareWaitingUnseenBesideATimedBlockingSectionIsRelieved() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        try {
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<Boolean> section = CompletableFuture.supplyAsync(() -> {
                try {
                    Spindle.blocking(() -> {
                        while (!done.await(1, TimeUnit.MILLISECONDS)) {
                            // a timed poll: TIMED_WAITING, inside the section
                        }
                    });
                    return true;
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            }, pool);
            assertThat(await(() -> pool.stats().liveWorkers() == 2)).as("the section's spare").isTrue();
            CompletableFuture<Integer> waiter = CompletableFuture.supplyAsync(
                    () -> CompletableFuture.supplyAsync(() -> {
                        done.countDown();
                        return 41;
                    }, pool).join() + 1, pool);
            assertThat(waiter.get(10, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(section.get(10, TimeUnit.SECONDS)).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    /** Fork/join whose leaves wait unseen for a task they queued: joins wait long and count as blocked. */
    @Test
    void nestedJoinsWhoseLeavesWaitUnseenComplete() throws Exception {
        // a spare that parked while a join still counted as blocked retires after its keep-alive
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).spareKeepAlive(Duration.ofMillis(50)).build();
        try {
            assertThat(pool.spawn(new Nest(pool, 4)).get(10, TimeUnit.SECONDS)).isEqualTo(16);
            assertThat(await(() -> pool.stats().liveWorkers() == 1)).as("spares retired: %s", pool.stats()).isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    /** Splits in two down to {@code depth} 0, where it waits for a task it submits. */
    private static final class Nest extends ComputeTask<Integer> {
        private final WorkStealingPool pool;
        private final int depth;

        Nest(WorkStealingPool pool, int depth) {
            this.pool = pool;
            this.depth = depth;
        }

        @Override
        protected Integer compute() {
            if (depth == 0) {
                return CompletableFuture.supplyAsync(() -> 1, pool).join();
            }
            Nest a = new Nest(pool, depth - 1);
            Nest b = new Nest(pool, depth - 1);
            a.fork();
            b.fork();
            return a.join() + b.join();
        }
    }
    /**
     * A thread factory that throws a checked exception (sneakily: Kotlin, Groovy and Lombok code
     * can) when asked for a spare: the exception escaped the pool's handling of factory failures
     * and ended the JVM-wide watch thread, after which no pool was relieved again.
     */
    @Test
    void aFactoryThatThrowsACheckedExceptionDoesNotEndTheWatch() throws Exception {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        CountDownLatch refused = new CountDownLatch(1);
        WorkStealingPool failing = WorkStealingPool.builder().workers(1).maxSpareWorkers(1).threadFactory(r -> {
            if (calls.getAndIncrement() > 0) {
                refused.countDown();
                throw StarvationWatchRegressionTest.<RuntimeException>sneaky(new java.io.IOException("no threads today"));
            }
            return new Thread(r);
        }).build();
        CountDownLatch release = new CountDownLatch(1);
        try {
            failing.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            failing.execute(() -> { });            // queued behind the waiting task: the watch asks for a spare
            assertThat(refused.await(30, TimeUnit.SECONDS)).as("the factory was asked").isTrue();
            WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
            try {
                CompletableFuture<Integer> outer = CompletableFuture.supplyAsync(
                        () -> CompletableFuture.supplyAsync(() -> 41, pool).join() + 1, pool);
                assertThat(outer.get(10, TimeUnit.SECONDS)).as("another pool, relieved").isEqualTo(42);
            } finally {
                pool.shutdownNow();
            }
            assertThat(failing.stats().liveWorkers()).as("live workers of the pool whose factory failed").isEqualTo(1);
        } finally {
            release.countDown();
            failing.shutdownNow();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
