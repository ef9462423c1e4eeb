package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Task;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LifecycleTest {

    @Test
    void shutdownRunsAcceptedTasksAndTheirChildrenThenTerminates() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        CountDownLatch gate = new CountDownLatch(1);
        AtomicInteger ran = new AtomicInteger();
        pool.execute(() -> {
            await(gate);
            for (int i = 0; i < 100; i++) {
                pool.execute(ran::incrementAndGet); // spawned after shutdown: still accepted
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
        assertThat(pool.isTerminated()).isTrue();
        for (Thread t : workerThreads(pool)) {
            t.join(10_000);
            assertThat(t.isAlive()).as("%s exited", t.getName()).isFalse();
        }
    }

    @Test
    void submissionsFromOutsideAfterShutdownAreRejected() {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("closed").build();
        pool.shutdown();
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> pool.spawn(() -> 1)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> pool.submit(() -> 1)).isInstanceOf(RejectedExecutionException.class);
        assertThatThrownBy(() -> pool.invoke(() -> 1)).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void idlePoolTerminatesOnShutdown() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(3).build();
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void shutdownNowInterruptsRunningAndReturnsNotStarted() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).build();
        CountDownLatch started = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        pool.execute(() -> {
            started.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interrupted.set(true);
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        AtomicInteger ran = new AtomicInteger();
        Runnable[] queued = new Runnable[50];
        for (int i = 0; i < queued.length; i++) {
            queued[i] = ran::incrementAndGet;
            pool.execute(queued[i]);
        }
        List<Runnable> notStarted = pool.shutdownNow();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        assertThat(interrupted).isTrue();
        assertThat(ran.get() + notStarted.size()).isEqualTo(queued.length);
        assertThat(notStarted).containsOnly(queued);
        assertThatThrownBy(() -> pool.execute(() -> { })).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void closeWaitsForAcceptedWork() {
        AtomicInteger ran = new AtomicInteger();
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        try (pool) {
            for (int i = 0; i < 200; i++) {
                pool.execute(() -> {
                    sleepQuietly(1);
                    ran.incrementAndGet();
                });
            }
        }
        assertThat(ran.get()).isEqualTo(200);
        assertThat(pool.isTerminated()).isTrue();
    }

    @Test
    void closeFromInsideTheOwnPoolDoesNotDeadlock() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        Task<String> t = pool.spawn(() -> {
            pool.close();
            return "closed from inside";
        });
        assertThat(t.join()).isEqualTo("closed from inside");
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void threadsAreNamedAfterThePool() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(3).name("render").build()) {
            String n = pool.invoke(() -> Thread.currentThread().getName());
            assertThat(n).matches("render-worker-[0-2]");
            assertThat(pool.name()).isEqualTo("render");
            assertThat(pool.toString()).contains("render");
        }
    }

    @Test
    void customThreadFactoryWorkersAreRecognised() throws Exception {
        AtomicInteger made = new AtomicInteger();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2)
                .threadFactory(r -> {
                    made.incrementAndGet();
                    Thread t = new Thread(r);
                    t.setDaemon(true);
                    return t;
                }).build()) {
            assertThat(pool.invoke(() -> ForkJoinTest.fib(pool, 18))).isEqualTo(2584L);
            assertThat(pool.invoke(pool::isWorkerOfThisPool)).isTrue();
            // two workers, plus any spare a waiting join started; all from the factory
            assertThat(made.get()).isGreaterThanOrEqualTo(2);
            assertThat(pool.stats().workers()).hasSize(made.get());
        }
    }

    static List<Thread> workerThreads(WorkStealingPool pool) {
        List<Thread> out = new java.util.ArrayList<>();
        for (Worker w : pool.workers) {
            if (w != null && w.thread != null) {
                out.add(w.thread);
            }
        }
        return out;
    }

    static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static void sleepQuietly(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
