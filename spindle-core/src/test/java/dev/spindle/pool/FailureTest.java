package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Task;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FailureTest {

    @Test
    void executeFailuresGoToTheHandlerAndWorkersSurvive() throws Exception {
        List<Throwable> seen = new CopyOnWriteArrayList<>();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2)
                .uncaughtExceptionHandler((t, e) -> seen.add(e)).build()) {
            List<Thread> before = LifecycleTest.workerThreads(pool);
            for (int i = 0; i < 100; i++) {
                int n = i;
                pool.execute(() -> {
                    if (n % 2 == 0) {
                        throw new IllegalStateException("boom " + n);
                    }
                    throw new AssertionError("error " + n);  // an Error too
                });
            }
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(done::countDown);
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            waitUntil(() -> seen.size() == 100);
            assertThat(seen).hasSize(100);
            assertThat(seen).filteredOn(e -> e instanceof AssertionError).hasSize(50);
            assertThat(LifecycleTest.workerThreads(pool)).isEqualTo(before);
            assertThat(before).allMatch(Thread::isAlive);
            assertThat(pool.stats().liveWorkers()).isEqualTo(2);
        }
    }

    @Test
    void aThrowingHandlerDoesNotKillTheWorker() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1)
                .uncaughtExceptionHandler((t, e) -> {
                    throw new RuntimeException("handler fails too");
                }).build()) {
            pool.execute(() -> {
                throw new IllegalStateException("boom");
            });
            assertThat(pool.invoke(() -> 42)).isEqualTo(42);
        }
    }

    @Test
    void spawnedFailuresCompleteTheTask() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            Task<Integer> t = pool.spawn(() -> {
                throw new IllegalArgumentException("bad input");
            });
            assertThatThrownBy(t::join).isInstanceOf(CompletionException.class)
                    .hasCauseInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(t::get).isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(IllegalArgumentException.class);
            assertThat(t.isDone()).isTrue();
            assertThat(t.toCompletableFuture()).isCompletedExceptionally();
            assertThatThrownBy(() -> pool.invoke(() -> {
                throw new java.io.IOException("io");
            })).isInstanceOf(CompletionException.class).hasCauseInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void cancelBeforeStartSkipsTheComputation() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            CountDownLatch gate = new CountDownLatch(1);
            pool.execute(() -> LifecycleTest.await(gate));
            AtomicBoolean ran = new AtomicBoolean();
            Task<String> t = pool.spawn(() -> {
                ran.set(true);
                return "x";
            });
            assertThat(t.cancel(false)).isTrue();
            assertThat(t.cancel(false)).isFalse();
            gate.countDown();
            assertThatThrownBy(t::join).isInstanceOf(CancellationException.class);
            assertThat(pool.invoke(() -> 1)).isEqualTo(1);      // queue drained past it
            assertThat(ran).isFalse();
            assertThat(t.isCancelled()).isTrue();
            assertThat(t.toCompletableFuture()).isCancelled().isNotNull();
        }
    }

    @Test
    void cancelWithInterruptStopsARunningTaskAndDoesNotLeakTheInterrupt() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            CountDownLatch started = new CountDownLatch(1);
            Task<String> t = pool.spawn(() -> {
                started.countDown();
                Thread.sleep(60_000);
                return "slept";
            });
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(t.cancel(true)).isTrue();
            assertThatThrownBy(t::join).isInstanceOf(CancellationException.class);
            // the next task on the same worker must not see the interrupt
            assertThat(pool.invoke(() -> Thread.currentThread().isInterrupted())).isFalse();
        }
    }

    /** A child the frame forks and joins; its fast path runs it inline on the frame's thread. */
    static final class Leaf extends ComputeTask<Integer> {
        @Override
        protected Integer compute() {
            return 1;
        }
    }

    /**
     * A task cancelled with interrupt while it forks and joins children sees the interrupt: the
     * children it runs inline are part of its computation, so running them must not clear it (it
     * did: the join's fast path dropped every pending interrupt as "stray", and such a task never
     * learnt it was cancelled).
     */
    @Test
    void aCancelledTaskThatForksAndJoinsSeesItsInterrupt() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            CountDownLatch started = new CountDownLatch(1);
            AtomicLong joinsBeforeInterrupt = new AtomicLong(-1);
            ComputeTask<Void> frame = new ComputeTask<>() {
                @Override
                protected Void compute() {
                    started.countDown();
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    for (long joins = 0; System.nanoTime() < deadline; joins++) {
                        for (int i = 0; i < 16; i++) {
                            new Leaf().fork().join();
                        }
                        if (Thread.currentThread().isInterrupted()) {
                            joinsBeforeInterrupt.set(joins);
                            return null;
                        }
                    }
                    return null;
                }
            };
            pool.spawn(frame);
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(frame.cancel(true)).isTrue();
            waitUntil(() -> pool.stats().activeWorkers() == 0);
            assertThat(joinsBeforeInterrupt.get()).as("the frame saw its cancellation's interrupt").isGreaterThanOrEqualTo(0);
            assertThat(pool.invoke(() -> Thread.currentThread().isInterrupted())).as("the next task's view").isFalse();
        }
    }

    /**
     * A frame with a pending interrupt that joins a child running elsewhere waits without
     * spinning (a pending interrupt makes every park return at once), and still has the interrupt
     * when the join returns.
     */
    @Test
    void anInterruptedFrameWaitsForAStolenChildWithoutSpinningAndKeepsTheInterrupt() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).build()) {
            CountDownLatch childStarted = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            AtomicLong joinCpuNanos = new AtomicLong(-1);
            AtomicBoolean interruptedAfter = new AtomicBoolean();
            ComputeTask<Integer> child = new ComputeTask<>() {
                @Override
                protected Integer compute() throws InterruptedException {
                    childStarted.countDown();
                    release.await();
                    return 7;
                }
            };
            Task<Integer> frame = pool.spawn(() -> {
                child.fork();
                if (!childStarted.await(10, TimeUnit.SECONDS)) {   // the peer stole it
                    return -1;
                }
                Thread.currentThread().interrupt();
                var mx = java.lang.management.ManagementFactory.getThreadMXBean();
                long before = mx.getCurrentThreadCpuTime();
                int v = child.join();
                joinCpuNanos.set(mx.getCurrentThreadCpuTime() - before);
                interruptedAfter.set(Thread.interrupted());
                return v;
            });
            Thread.sleep(300);
            release.countDown();
            assertThat(frame.get(10, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(interruptedAfter).as("the interrupt is still pending after the join").isTrue();
            assertThat(joinCpuNanos.get()).as("CPU time of a join that waited about 300 ms")
                    .isLessThan(TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    @Test
    void timedGetTimesOut() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            CountDownLatch gate = new CountDownLatch(1);
            Task<Integer> t = pool.spawn(() -> {
                gate.await();
                return 7;
            });
            assertThatThrownBy(() -> t.get(50, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
            gate.countDown();
            assertThat(t.get(10, TimeUnit.SECONDS)).isEqualTo(7);
            assertThat(t.toCompletableFuture().join()).isEqualTo(7);
        }
    }

    @Test
    void nullsAreRejectedWithAMessage() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            assertThatThrownBy(() -> pool.execute(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("task");
            assertThatThrownBy(() -> pool.spawn((java.util.concurrent.Callable<Object>) null)).isInstanceOf(NullPointerException.class).hasMessageContaining("computation");
            assertThatThrownBy(() -> pool.parallelFor(0, 1, null)).isInstanceOf(NullPointerException.class).hasMessageContaining("body");
        }
    }

    @Test
    void builderRejectsOutOfRangeValuesNamingTheParameter() {
        var b = WorkStealingPool.builder();
        assertThatThrownBy(() -> b.workers(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> b.workers(40_000)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> b.localQueueCapacity(1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("localQueueCapacity");
        assertThatThrownBy(() -> b.stealAttempts(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stealAttempts");
        assertThatThrownBy(() -> b.maxSpareWorkers(-1)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxSpareWorkers");
        assertThatThrownBy(() -> b.spareKeepAlive(java.time.Duration.ZERO)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("spareKeepAlive");
        assertThatThrownBy(() -> b.name(" ")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> b.name(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> b.threadFactory(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("threadFactory");
        assertThatThrownBy(() -> b.uncaughtExceptionHandler(null)).isInstanceOf(NullPointerException.class).hasMessageContaining("uncaughtExceptionHandler");
    }

    static void waitUntil(java.util.function.BooleanSupplier cond) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!cond.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }
}
