package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** W5 (progress): no lost wake-up, and an idle pool really parks. */
class WakeupAndIdleTest {

    /**
     * Submit one task to an idle pool, wait until it ran, repeat. A lost wake-up leaves the
     * task queued with every worker parked: the latch wait then fails the test.
     */
    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void submitAfterIdleNeverLosesAWakeup(int workers) throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(workers).build()) {
            for (int i = 0; i < 100_000; i++) {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                if (!ran.await(10, TimeUnit.SECONDS)) {
                    throw new AssertionError("task " + i + " never ran: lost wake-up; " + pool.stats());
                }
            }
        }
    }

    /** A worker-local spawn after its peers parked must still complete (local wake path). */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void spawnFromAWorkerAfterIdleCompletes() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(3).build()) {
            for (int i = 0; i < 20_000; i++) {
                CountDownLatch ran = new CountDownLatch(2);
                pool.execute(() -> {
                    pool.execute(ran::countDown);
                    pool.execute(ran::countDown);
                });
                if (!ran.await(10, TimeUnit.SECONDS)) {
                    throw new AssertionError("round " + i + " stuck; " + pool.stats());
                }
            }
        }
    }

    /**
     * An idle pool's workers are parked without a timeout: no polling, no CPU. Spare workers
     * (started while joins waited) park with their keep-alive as timeout, once, then exit.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void idleWorkersParkIndefinitely() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(3)
                .spareKeepAlive(java.time.Duration.ofMillis(200)).build()) {
            AtomicLong sum = new AtomicLong();
            pool.parallelFor(0, 10_000, sum::addAndGet);
            for (int i = 0; i < 20; i++) {
                pool.invoke(() -> ForkJoinTest.fib(pool, 18));
            }
            FailureTest.waitUntil(() -> pool.stats().liveWorkers() == 3
                    && LifecycleTest.workerThreads(pool).stream()
                            .allMatch(t -> !t.isAlive() || t.getState() == Thread.State.WAITING));
            assertThat(pool.stats().liveWorkers()).as("spares retired").isEqualTo(3);
            for (Thread t : LifecycleTest.workerThreads(pool)) {
                if (!t.isAlive()) {
                    continue;                  // a retired spare
                }
                assertThat(t.getState()).as(t.getName()).isEqualTo(Thread.State.WAITING);
            }
            var mx = java.lang.management.ManagementFactory.getThreadMXBean();
            long before = 0;
            for (Thread t : LifecycleTest.workerThreads(pool)) {
                before += Math.max(0, mx.getThreadCpuTime(t.getId()));
            }
            Thread.sleep(300);
            long after = 0;
            for (Thread t : LifecycleTest.workerThreads(pool)) {
                after += Math.max(0, mx.getThreadCpuTime(t.getId()));
                if (t.isAlive()) {
                    assertThat(t.getState()).as(t.getName()).isEqualTo(Thread.State.WAITING);
                }
            }
            // parked threads accrue no CPU time at all; allow a scheduler tick of slack
            assertThat(after - before).isLessThan(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
