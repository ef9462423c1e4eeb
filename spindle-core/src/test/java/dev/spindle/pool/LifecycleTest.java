package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lifecycle of what only {@link WorkStealingPool} has: spawn, invoke, and spare workers from
 * a custom factory. The rules every pool shares are tested over all of them in
 * {@link PoolsLifecycleTest}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LifecycleTest {

    @Test
    void spawnAndInvokeFromOutsideAfterShutdownAreRejected() {
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).name("closed").build();
        pool.shutdown();
        assertThatThrownBy(() -> pool.spawn(() -> 1)).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(() -> pool.invoke(() -> 1)).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void closeFromATaskJoinedFromOutsideDoesNotDeadlock() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        var t = pool.spawn(() -> {
            pool.close();
            return "closed from inside";
        });
        assertThat(t.join()).isEqualTo("closed from inside");
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void customThreadFactoryWorkersAreRecognised() throws Exception {
        Set<Thread> made = ConcurrentHashMap.newKeySet();
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2)
                .threadFactory(r -> {
                    Thread t = new Thread(r);
                    t.setDaemon(true);
                    made.add(t);
                    return t;
                }).build()) {
            assertThat(pool.invoke(() -> ForkJoinTest.fib(pool, 18))).isEqualTo(2584L);
            assertThat(pool.invoke(pool::isWorkerOfThisPool)).isTrue();
            // two workers, plus any spare a waiting join started; all from the factory. Not a
            // count of the factory's threads against the statistics' workers: a spare may be
            // starting (made, not yet in a slot) or retiring while they are read (CI once saw
            // 4 made against 3 listed).
            assertThat(made).hasSizeGreaterThanOrEqualTo(2);
            assertThat(workerThreads(pool)).hasSizeGreaterThanOrEqualTo(2).allMatch(made::contains);
            assertThat(pool.stats().workers().size()).isBetween(2, made.size());
        }
    }

    static List<Thread> workerThreads(WorkStealingPool pool) {
        return PoolKind.threads(pool);
    }

    static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Awaits {@code latch} ignoring interrupts (shutdownNow's among them), then restores them. */
    static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        for (;;) {
            try {
                if (latch.await(30, TimeUnit.SECONDS)) {
                    break;
                }
                throw new IllegalStateException("never released");
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
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
