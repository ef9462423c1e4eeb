package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A burst of tasks submitted by a task overflows its worker's full deque to the injector, half a
 * deque at a time, without losing a task; the stats count what moved.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalQueueCapacityTest {

    @Test
    void beyondItsCapacityTheDequeMovesHalfToTheInjectorAndEveryTaskRuns() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).localQueueCapacity(256).build()) {
            SchedulerStats s = burst(pool, 10_000);
            long overflowed = s.workers().get(0).overflowed();
            // the deque overflows at 256 queued tasks, moving 128 each time
            assertThat(overflowed).isGreaterThan(9_000).isLessThanOrEqualTo(10_000);
            assertThat(overflowed % 128).isZero();
        }
    }

    /** One task submits {@code n} tasks; returns the stats once all have run. */
    private static SchedulerStats burst(WorkStealingPool pool, int n) throws InterruptedException {
        AtomicInteger ran = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(1);
        pool.execute(() -> {
            for (int i = 0; i < n; i++) {
                pool.execute(() -> {
                    if (ran.incrementAndGet() == n) {
                        done.countDown();
                    }
                });
            }
        });
        assertThat(done.await(30, TimeUnit.SECONDS)).as("all %d tasks ran", n).isTrue();
        assertThat(ran.get()).isEqualTo(n);
        return pool.stats();
    }
}
