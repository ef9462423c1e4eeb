package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Hints;
import dev.spindle.SchedulerStats;
import dev.spindle.Spindle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Lifecycle, rejection, failures and parking: the rules every pool kind shares ({@link PoolCore}). */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolsLifecycleTest {

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void shutdownRunsAcceptedTasksAndTheirChildrenThenTerminates(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(2);
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        pool.execute(() -> {
            LifecycleTest.await(gate);
            for (int i = 0; i < 100; i++) {
                pool.execute(ran::incrementAndGet); // from a worker after shutdown: still accepted
            }
            ran.incrementAndGet();
        });
        for (int i = 0; i < 1000; i++) {
            pool.execute(ran::incrementAndGet);
        }
        pool.shutdown();
        assertThat(pool.isShutdown()).isTrue();
        assertThat(pool.isTerminated()).isFalse();
        gate.countDown();
        assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        assertThat(ran.get()).isEqualTo(1101);
        for (Thread t : PoolKind.threads(pool)) {
            t.join(10_000);
            assertThat(t.isAlive()).as("%s exited", t.getName()).isFalse();
        }
        assertThat(PoolKind.executed(pool)).isEqualTo(1101);
        assertThat(PoolKind.queued(pool)).isZero();
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void submissionsFromOutsideAfterShutdownAreRejected(PoolKind kind) throws Exception {
        PoolCore pool = kind.build(kind.builder().workers(1).name("closed-" + kind));
        pool.shutdown();
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("closed-" + kind);
        assertThatThrownBy(() -> pool.execute(() -> { }, Hints.ofPriority(-1).withWorkerIndex(0)))
                .isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> pool.submit(() -> 1)).isInstanceOf(RejectedExecutionException.class);
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.toString()).contains("closed-" + kind).contains("terminated");
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void idlePoolTerminatesOnShutdown(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(3);
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void shutdownNowInterruptsRunningAndReturnsNotStarted(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(1);
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicReference<Throwable> lateSubmit = new AtomicReference<>();
        pool.execute(() -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
            try {
                pool.execute(() -> { });       // from a worker, after shutdownNow: rejected
            } catch (Throwable t) {
                lateSubmit.set(t);
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicInteger ran = new AtomicInteger();
        Runnable[] queued = new Runnable[50];
        for (int i = 0; i < queued.length; i++) {
            queued[i] = ran::incrementAndGet;
            pool.execute(queued[i], Hints.ofPriority(i % 3));
        }
        List<Runnable> notStarted = pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted).isTrue();
        assertThat(lateSubmit.get()).isInstanceOf(RejectedExecutionException.class);
        assertThat(ran.get()).isZero();
        assertThat(notStarted).containsExactlyInAnyOrder(queued);
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void closeWaitsForAcceptedWork(PoolKind kind) {
        AtomicInteger ran = new AtomicInteger();
        PoolCore pool = kind.create(2);
        try (pool) {
            for (int i = 0; i < 200; i++) {
                pool.execute(() -> {
                    LifecycleTest.sleepQuietly(1);
                    ran.incrementAndGet();
                });
            }
        }
        assertThat(ran.get()).isEqualTo(200);
        assertThat(pool.isTerminated()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void closeFromInsideTheOwnPoolOnlyShutsDown(PoolKind kind) throws Exception {
        PoolCore pool = kind.create(2);
        Future<Boolean> f = pool.submit(() -> {
            pool.close();
            return pool.isWorkerOfThisPool();
        });
        assertThat(f.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void executeFailuresGoToTheHandlerAndWorkersSurvive(PoolKind kind) throws Exception {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        List<Thread> reportedOn = new CopyOnWriteArrayList<>();
        try (PoolCore pool = kind.build(kind.builder().workers(2).uncaughtExceptionHandler((t, e) -> {
            reportedOn.add(t);
            seen.add(e);
        }))) {
            List<Thread> before = PoolKind.threads(pool);
            for (int i = 0; i < 100; i++) {
                int n = i;
                pool.execute(() -> {
                    if (n % 2 == 0) {
                        throw new IllegalStateException("boom " + n);
                    }
                    throw new AssertionError("error " + n);
                });
            }
            FailureTest.waitUntil(() -> seen.size() == 100);
            assertThat(seen).hasSize(100);
            assertThat(seen).filteredOn(e -> e instanceof AssertionError).hasSize(50);
            assertThat(reportedOn).allMatch(before::contains);
            assertThat(before).allMatch(Thread::isAlive);
            CountDownLatch done = new CountDownLatch(2);
            pool.execute(done::countDown, Hints.DEFAULT.withWorkerIndex(0));
            pool.execute(done::countDown, Hints.DEFAULT.withWorkerIndex(1));
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aThrowingHandlerDoesNotKillTheWorker(PoolKind kind) throws Exception {
        try (PoolCore pool = kind.build(kind.builder().workers(1).uncaughtExceptionHandler((t, e) -> {
            throw new RuntimeException("handler fails too");
        }))) {
            pool.execute(() -> {
                throw new IllegalStateException("boom");
            });
            assertThat(pool.submit(() -> 42).get(10, TimeUnit.SECONDS)).isEqualTo(42);
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void submittedFailuresCompleteTheFuture(PoolKind kind) throws Exception {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        try (PoolCore pool = kind.build(kind.builder().workers(2).uncaughtExceptionHandler((t, e) -> seen.add(e)))) {
            Future<Integer> f = pool.submit(() -> {
                throw new IllegalArgumentException("bad input");
            });
            assertThatThrownBy(() -> f.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(IllegalArgumentException.class);
            assertThat(pool.submit(() -> 1).get(10, TimeUnit.SECONDS)).isEqualTo(1);
            assertThat(seen).isEmpty();
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aCancelledTasksInterruptDoesNotLeakIntoTheNextTask(PoolKind kind) throws Exception {
        try (PoolCore pool = kind.create(1)) {
            CountDownLatch started = new CountDownLatch(1);
            Future<?> f = pool.submit(() -> {
                started.countDown();
                Thread.sleep(60_000);
                return null;
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(f.cancel(true)).isTrue();
            assertThat(pool.submit(() -> Thread.currentThread().isInterrupted()).get(10, TimeUnit.SECONDS)).isFalse();
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void nullsAreRejectedWithAMessage(PoolKind kind) {
        try (PoolCore pool = kind.create(1)) {
            assertThatThrownBy(() -> pool.execute(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("task");
            assertThatThrownBy(() -> pool.execute(null, Hints.DEFAULT)).isInstanceOf(NullPointerException.class).hasMessageContaining("task");
            assertThatThrownBy(() -> pool.execute(() -> { }, null)).isInstanceOf(NullPointerException.class).hasMessageContaining("hints");
            assertThatThrownBy(() -> pool.submit((Runnable) null)).isInstanceOf(NullPointerException.class);
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void builderRejectsOutOfRangeValuesNamingTheParameter(PoolKind kind) {
        PoolBuilder<?> b = kind.builder();
        assertThatThrownBy(() -> b.workers(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> b.workers(40_000)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> b.name(" ")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> b.name(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> b.threadFactory(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("threadFactory");
        assertThatThrownBy(() -> b.uncaughtExceptionHandler(null)).isInstanceOf(NullPointerException.class)
                .hasMessageContaining("uncaughtExceptionHandler");
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void threadsComeFromTheFactoryAreNamedAndAreRecognisedAsWorkers(PoolKind kind) throws Exception {
        AtomicInteger made = new AtomicInteger();
        try (PoolCore pool = kind.build(kind.builder().workers(2).name("custom-" + kind).daemon(false)
                .threadFactory(r -> {
                    made.incrementAndGet();
                    Thread t = new Thread(r);
                    t.setDaemon(true);
                    return t;
                }))) {
            assertThat(made.get()).isEqualTo(2);
            assertThat(pool.submit(pool::isWorkerOfThisPool).get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(pool.submit(() -> Thread.currentThread().getName()).get(10, TimeUnit.SECONDS))
                    .matches("custom-" + kind + "-worker-[01]");
            assertThat(pool.isWorkerOfThisPool()).isFalse();
            assertThat(pool.name()).isEqualTo("custom-" + kind);
            assertThat(PoolKind.workers(pool)).isEqualTo(2);
        }
    }

    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void blockingSectionsRunOnEveryPool(PoolKind kind) throws Exception {
        try (PoolCore pool = kind.create(2)) {
            Future<Integer> f = pool.submit(() -> Spindle.blocking(() -> 7));
            assertThat(f.get(10, TimeUnit.SECONDS)).isEqualTo(7);
        }
    }

    /**
     * Submit one task to an idle pool, wait until it ran, repeat; also from a worker to a
     * parked peer. A lost wake-up leaves the task queued with every worker parked.
     */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void submitAfterIdleNeverLosesAWakeup(PoolKind kind) throws Exception {
        try (PoolCore pool = kind.create(2)) {
            for (int i = 0; i < 20_000; i++) {
                CountDownLatch ran = new CountDownLatch(2);
                int target = i;
                pool.execute(() -> {
                    ran.countDown();
                    pool.execute(ran::countDown, Hints.ofPriority(target % 2).withWorkerIndex(target));
                }, Hints.DEFAULT.withWorkerIndex(i + 1));
                if (!ran.await(10, TimeUnit.SECONDS)) {
                    throw new AssertionError("task " + i + " never ran: lost wake-up; " + PoolKind.stats(pool));
                }
            }
        }
    }

    /** An idle pool parks every worker without a timeout and uses no CPU. */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void idleWorkersParkAndUseNoCpu(PoolKind kind) throws Exception {
        try (PoolCore pool = kind.create(3)) {
            CountDownLatch done = new CountDownLatch(3000);
            for (int i = 0; i < 3000; i++) {
                pool.execute(done::countDown, Hints.ofPriority(i % 4).withWorkerIndex(i));
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            List<Thread> threads = PoolKind.threads(pool);
            FailureTest.waitUntil(() -> threads.stream().allMatch(t -> t.getState() == Thread.State.WAITING));
            for (Thread t : threads) {
                assertThat(t.getState()).as(t.getName()).isEqualTo(Thread.State.WAITING);
            }
            var mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long before = 0;
            for (Thread t : threads) {
                before += Math.max(0, mx.getThreadCpuTime(t.getId()));
            }
            Thread.sleep(300);
            long after = 0;
            for (Thread t : threads) {
                after += Math.max(0, mx.getThreadCpuTime(t.getId()));
                assertThat(t.getState()).as(t.getName()).isEqualTo(Thread.State.WAITING);
            }
            assertThat(after - before).isLessThan(TimeUnit.MILLISECONDS.toNanos(5));
            assertThat(PoolKind.parks(pool)).isPositive();
        }
    }

    /**
     * A stray interrupt of an idle worker (from code that interrupts pool threads itself) is
     * dropped before the worker parks again: a pending interrupt would make every park return at
     * once, and the idle worker would spin.
     */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aStrayInterruptOfAnIdleWorkerDoesNotMakeItSpin(PoolKind kind) throws Exception {
        try (PoolCore pool = kind.create(1)) {
            assertThat(pool.submit(() -> 1).get(10, TimeUnit.SECONDS)).isEqualTo(1);
            Thread t = PoolKind.threads(pool).get(0);
            FailureTest.waitUntil(() -> t.getState() == Thread.State.WAITING);
            t.interrupt();
            FailureTest.waitUntil(() -> t.getState() == Thread.State.WAITING && !t.isInterrupted());
            var mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long before = mx.getThreadCpuTime(t.getId());
            Thread.sleep(200);
            long used = mx.getThreadCpuTime(t.getId()) - before;
            assertThat(t.getState()).isEqualTo(Thread.State.WAITING);
            assertThat(used).as("CPU time of an idle worker").isLessThan(TimeUnit.MILLISECONDS.toNanos(20));
            assertThat(pool.submit(() -> Thread.currentThread().isInterrupted()).get(10, TimeUnit.SECONDS)).isFalse();
        }
    }

    /** A factory failing for the third thread: a clear exception, and no thread left running. */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aFailingThreadFactoryLeavesNoThreadBehind(PoolKind kind) throws Exception {
        List<Thread> made = new CopyOnWriteArrayList<>();
        IllegalStateException refusal = new IllegalStateException("no third thread");
        PoolBuilder<?> b = kind.builder().workers(4).name("failing-" + kind).threadFactory(factoryFailingAt(2, made, () -> {
            throw refusal;
        }));
        assertThatThrownBy(() -> kind.build(b)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("failing-" + kind).hasMessageContaining("worker 2")
                .hasCause(refusal);
        assertThat(made).hasSize(2);
        for (Thread t : made) {
            t.join(10_000);
            assertThat(t.isAlive()).as("%s left running", t.getName()).isFalse();
            assertThat(t.getState()).as("%s never started", t.getName()).isEqualTo(Thread.State.NEW);
        }
    }

    /** A factory returning {@code null}: the same, with the message saying so. */
    @ParameterizedTest
    @EnumSource(PoolKind.class)
    void aThreadFactoryReturningNullLeavesNoThreadBehind(PoolKind kind) {
        List<Thread> made = new CopyOnWriteArrayList<>();
        PoolBuilder<?> b = kind.builder().workers(3).name("null-" + kind).threadFactory(factoryFailingAt(1, made, () -> null));
        assertThatThrownBy(() -> kind.build(b)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("null-" + kind).hasMessageContaining("returned null for worker 1");
        assertThat(made).singleElement().satisfies(t -> assertThat(t.getState()).isEqualTo(Thread.State.NEW));
    }

    /** A factory of daemon threads, recorded in {@code made}, that answers with {@code failure} from call {@code n}. */
    private static java.util.concurrent.ThreadFactory factoryFailingAt(int n, List<Thread> made,
            java.util.function.Supplier<Thread> failure) {
        return r -> {
            if (made.size() >= n) {
                return failure.get();
            }
            Thread t = new Thread(r);
            t.setDaemon(true);
            made.add(t);
            return t;
        };
    }

    @Test
    void statsCountEveryTask() throws Exception {
        for (PoolKind kind : java.util.EnumSet.of(PoolKind.SHARING, PoolKind.PRIORITY, PoolKind.PINNED)) {
            AbstractPool pool = (AbstractPool) kind.create(2);
            for (int i = 0; i < 500; i++) {
                pool.execute(() -> { }, Hints.ofPriority(i % 2).withWorkerIndex(i));
            }
            pool.close();
            SchedulerStats s = pool.stats();
            assertThat(s.parallelism()).isEqualTo(2);
            assertThat(s.workers()).hasSize(2);
            assertThat(s.completed()).as("%s", kind).isEqualTo(500);
            if (kind == PoolKind.PINNED) {
                assertThat(s.workers()).extracting(SchedulerStats.WorkerStats::completed)
                        .containsExactly(250L, 250L);
            }
        }
    }
}
