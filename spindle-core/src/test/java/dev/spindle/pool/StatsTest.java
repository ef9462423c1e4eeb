package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatsTest {

    @Test
    void countersAddUpOnceThePoolIsQuiet() throws Exception {
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).localQueueCapacity(16).build();
        long fib = pool.invoke(() -> ForkJoinTest.fib(pool, 20));
        assertThat(fib).isEqualTo(6765L);
        for (int i = 0; i < 1000; i++) {
            pool.execute(() -> { });
        }
        pool.shutdown();
        assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        PoolStats s = pool.stats();
        assertThat(s.executed()).isEqualTo(spawns(20) + 1 /* root */ + 1000L);
        assertThat(s.queued()).isZero();
        assertThat(s.injectorLength()).isZero();
        assertThat(s.workers()).hasSize(2);
        long stolenFrom = s.workers().stream().mapToLong(PoolStats.WorkerStats::stolenFromThisWorker).sum();
        assertThat(stolenFrom).as("tasks stolen from equals tasks stolen by").isEqualTo(s.steals());
        assertThat(s.workers()).allMatch(w -> w.parks() >= 1);
    }

    /** fib(n) spawns its left branch once per call with n >= 2. */
    static long spawns(int n) {
        return n < 2 ? 0 : 1 + spawns(n - 1) + spawns(n - 2);
    }
}
