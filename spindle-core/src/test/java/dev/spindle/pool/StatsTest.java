package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.SchedulerStats;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
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
        SchedulerStats s = pool.stats();
        assertThat(s.completed()).isEqualTo(spawns(20) + 1 /* root */ + 1000L);
        assertThat(s.queued()).isZero();
        assertThat(s.sharedQueued()).isZero();
        // a joiner left waiting for a stolen task counts as blocked after a while, so a spare
        // may have joined the two core workers
        assertThat(s.workers()).filteredOn(w -> !w.spare()).extracting(SchedulerStats.WorkerStats::index)
                .containsExactly(0, 1);
        assertThat(s.workers()).allMatch(w -> w.index() < 2 || w.spare(), "only spares beyond the core workers");
        long stolenFrom = s.workers().stream().mapToLong(SchedulerStats.WorkerStats::stolenFrom).sum();
        assertThat(stolenFrom).as("tasks stolen from equals tasks stolen by").isEqualTo(s.steals());
        assertThat(s.workers()).allMatch(w -> w.parks() >= 1);
    }

    @Test
    void everyPoolReportsItsWorkersInOrderInTheOneShape() throws Exception {
        for (PoolKind kind : PoolKind.values()) {
            PoolCore pool = kind.create(2);
            for (int i = 0; i < 100; i++) {
                pool.execute(() -> { }, dev.spindle.Hints.DEFAULT.withWorkerIndex(i));
            }
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            SchedulerStats s = pool.stats();
            assertThat(s.name()).isEqualTo(pool.name);
            assertThat(s.parallelism()).as("%s", kind).isEqualTo(2);
            assertThat(s.workers()).extracting(SchedulerStats.WorkerStats::index).containsExactly(0, 1);
            assertThat(s.completed()).as("%s", kind).isEqualTo(100);
            assertThat(s.queued()).isZero();
            assertThat(s.workers()).allMatch(w -> w.polls() == 0 && w.wakeups() == 0, "no polls in a pool");
            assertThat(s.toString()).startsWith("SchedulerStats[" + pool.name + ": parallelism=2")
                    .contains("completed=100").contains("\n  worker 0:").contains("\n  worker 1:");
        }
    }

    @Test
    void everyPoolCountsTheTasksItRejectsAndTheFailuresItReports() throws Exception {
        for (PoolKind kind : PoolKind.values()) {
            CountDownLatch reported = new CountDownLatch(3);
            PoolCore pool = kind.build(kind.builder().workers(2)
                    .uncaughtExceptionHandler((t, e) -> reported.countDown()));
            for (int i = 0; i < 3; i++) {
                pool.execute(() -> {
                    throw new IllegalStateException("boom");
                });
            }
            assertThat(reported.await(10, TimeUnit.SECONDS)).as("%s", kind).isTrue();
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 2; i++) {
                assertThatThrownBy(() -> pool.execute(() -> { }))
                        .isInstanceOf(RejectedExecutionException.class);
            }
            SchedulerStats s = pool.stats();
            assertThat(s.failed()).as("%s failed", kind).isEqualTo(3);
            assertThat(s.rejected()).as("%s rejected", kind).isEqualTo(2);
            assertThat(s.completed()).as("%s: a failed task still completes", kind).isEqualTo(3);
            assertThat(s.toString()).contains("rejected=2").contains("failed=3");
        }
    }

    @Test
    void aPinnedWorkersQueueIsItsOwnAndAPriorityPoolsIsShared() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        try (PinnedPool pinned = PinnedPool.builder().workers(2).build();
                PriorityPool priority = PriorityPool.builder().workers(1).build()) {
            checkQueues(pinned, priority, release);
        }
    }

    /** Holds one worker of each pool, queues three tasks behind it, reads the queues, releases. */
    private static void checkQueues(PinnedPool pinned, PriorityPool priority, CountDownLatch release)
            throws InterruptedException {
        try {
            CountDownLatch busy = new CountDownLatch(2);
            Runnable hold = () -> {
                busy.countDown();
                awaitQuietly(release);
            };
            pinned.execute(hold, dev.spindle.Hints.DEFAULT.withWorkerIndex(1));
            priority.execute(hold);
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 3; i++) {
                pinned.execute(() -> { }, dev.spindle.Hints.DEFAULT.withWorkerIndex(1));
                priority.execute(() -> { });
            }
            SchedulerStats p = pinned.stats();
            assertThat(p.sharedQueued()).isZero();
            assertThat(p.workers()).extracting(SchedulerStats.WorkerStats::queued).containsExactly(0L, 3L);
            SchedulerStats q = priority.stats();
            assertThat(q.sharedQueued()).isEqualTo(3);
            assertThat(q.workers()).extracting(SchedulerStats.WorkerStats::queued).containsExactly(0L);
        } finally {
            release.countDown();
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** fib(n) spawns its left branch once per call with n >= 2. */
    static long spawns(int n) {
        return n < 2 ? 0 : 1 + spawns(n - 1) + spawns(n - 2);
    }
}
