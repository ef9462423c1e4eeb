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
        // each core worker went idle at least once; a spare started late may have found the pool
        // quiet and exited without a park
        assertThat(s.workers()).filteredOn(w -> !w.spare()).allMatch(w -> w.parks() >= 1);
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
    void everyPoolCountsTheUnparkOfAWorkerWokenForASubmission() throws Exception {
        for (PoolKind kind : PoolKind.values()) {
            PoolCore pool = kind.create(1);
            try {
                awaitParked(pool, 1);
                SchedulerStats before = pool.stats();
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                assertThat(ran.await(10, TimeUnit.SECONDS)).as("%s", kind).isTrue();
                awaitParked(pool, 1);
                SchedulerStats after = pool.stats();
                // the one worker was parked, so the task could run only after an unpark
                assertThat(after.unparks() - before.unparks()).as("%s unparks", kind).isEqualTo(1);
                assertThat(after.workers()).allMatch(w -> w.unparks() <= w.parks(), "unparks <= parks");
                assertThat(after.toString()).as("%s", kind).contains("unparks=");
            } finally {
                pool.shutdown();
                assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    @Test
    void aChainOfHandOffsOnOneWorkerWakesNoPeerForEachHop() throws Exception {
        int hops = 20_000;
        WorkStealingPool pool = WorkStealingPool.builder().workers(2).build();
        try {
            awaitParked(pool, 2);
            SchedulerStats before = pool.stats();
            CountDownLatch done = new CountDownLatch(1);
            pool.execute(new Hop(pool, hops, done));
            assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
            awaitParked(pool, 2);
            SchedulerStats after = pool.stats();
            long unparks = after.unparks() - before.unparks();
            // The first hop wakes a worker; each later one is submitted by the task running on a
            // worker for that same worker, which runs it next: a peer is woken only when it can
            // take work, rarely (docs/BENCHMARKS.md measures ~0.002 per hop). One per hop would
            // mean every hand-off costs a wake-up.
            assertThat(unparks).as("unparks for %d hops", hops).isLessThan(hops / 10);
        } finally {
            pool.shutdown();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    /** A task that submits the next link of a chain until {@code left} reaches zero. */
    private record Hop(WorkStealingPool pool, int left, CountDownLatch done) implements Runnable {
        @Override
        public void run() {
            if (left == 0) {
                done.countDown();
            } else {
                pool.execute(new Hop(pool, left - 1, done));
            }
        }
    }

    /** Waits (bounded) until {@code n} workers are parked. */
    private static void awaitParked(PoolCore pool, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (pool.stats().parkedWorkers() < n) {
            assertThat(System.nanoTime()).as("%d workers parked", n).isLessThan(deadline);
            Thread.sleep(1);
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
