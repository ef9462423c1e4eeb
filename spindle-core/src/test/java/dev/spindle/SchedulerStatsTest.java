package dev.spindle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.SchedulerStats.WorkerStats;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchedulerStatsTest {

    private static WorkerStats worker(int index, long completed, long steals, long parks, long queued) {
        return new WorkerStats(index, false, completed, 0, 0, steals, 0, 0, parks, queued);
    }

    @Test
    void totalsAddUpTheWorkersAndQueuedAddsTheSharedQueue() {
        SchedulerStats s = new SchedulerStats("p", 2, 2, 0, 5,
                List.of(worker(0, 10, 1, 3, 2), worker(1, 20, 4, 1, 0)));
        assertThat(s.completed()).isEqualTo(30);
        assertThat(s.steals()).isEqualTo(5);
        assertThat(s.parks()).isEqualTo(4);
        assertThat(s.queued()).isEqualTo(7);
        assertThat(s.polls()).isZero();
        assertThat(s.wakeups()).isZero();
        assertThat(s.unparks()).as("the ten-counter constructor counts no unparks").isZero();
        assertThat(new SchedulerStats("p", 1, 1, 0, 0, List.of(
                new WorkerStats(0, false, 1, 0, 0, 0, 0, 0, 5, 0, 3),
                new WorkerStats(1, false, 1, 0, 0, 0, 0, 0, 5, 0, 4))).unparks()).isEqualTo(7);
    }

    @Test
    void theSnapshotKeepsItsOwnCopyOfTheWorkers() {
        List<WorkerStats> list = new ArrayList<>(List.of(worker(0, 1, 0, 0, 0)));
        SchedulerStats s = new SchedulerStats("p", 1, 1, 0, 0, list);
        list.add(worker(1, 1, 0, 0, 0));
        assertThat(s.workers()).hasSize(1);
        assertThatThrownBy(() -> s.workers().add(worker(2, 0, 0, 0, 0)))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void nullsAreRefusedByName() {
        assertThatThrownBy(() -> new SchedulerStats(null, 1, 1, 0, 0, List.of()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> new SchedulerStats("p", 1, 1, 0, 0, null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void activeWorkersAreTheLiveOnesNeitherParkedNorSearchingKeptInRange() {
        assertThat(new SchedulerStats("p", 4, 5, 1, 0, List.of(), 0, 0, 2, 1).activeWorkers()).isEqualTo(2);
        assertThat(new SchedulerStats("p", 4, 4, 0, 0, List.of(), 0, 0, 4, 0).activeWorkers()).isZero();
        // read one after another, the figures may overlap: the estimate stays within 0..live
        assertThat(new SchedulerStats("p", 4, 4, 0, 0, List.of(), 0, 0, 4, 2).activeWorkers()).isZero();
        assertThat(new SchedulerStats("p", 2, 2, 0, 0, List.of()).activeWorkers())
                .as("a snapshot without idle figures counts every live worker").isEqualTo(2);
    }

    @Test
    void toStringShowsTheTotalsThenOneLinePerWorkerWithItsNonZeroCounters() {
        SchedulerStats s = new SchedulerStats("fib", 2, 3, 1, 5, List.of(
                new WorkerStats(0, false, 10, 0, 0, 1, 0, 0, 3, 2, 2),
                new WorkerStats(1, true, 0, 7, 2, 0, 0, 0, 0, 0)));
        assertThat(s.toString()).isEqualTo(
                "SchedulerStats[fib: parallelism=2, live=3, blocked=1, completed=10, polls=7, wakeups=2,"
                        + " steals=1, parks=3, unparks=2,"
                        + " queued=7 (shared 5)]\n"
                        + "  worker 0: completed=10 steals=1 parks=3 unparks=2 queued=2\n"
                        + "  worker 1 (spare): polls=7 wakeups=2");
    }
}
