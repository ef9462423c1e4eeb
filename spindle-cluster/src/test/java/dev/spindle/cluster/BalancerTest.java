/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Table-driven tests of the stealing policy: given workers and tasks, the expected moves. */
class BalancerTest {

    /** 100 MB/s, 1 ms latency, never steal 1 ms or less, saturated above 0.4 s per thread. */
    static final BalanceParams PARAMS = new BalanceParams(100e6, 0.001, 0.001, 0.4);

    /** Builds snapshots whose occupancies agree with their tasks. */
    static final class Table {
        final Map<Integer, Integer> threads = new HashMap<>();
        final List<BalanceSnapshot.TaskView> tasks = new ArrayList<>();
        final List<BalanceSnapshot.InFlight> inFlight = new ArrayList<>();
        long order;

        Table worker(int id, int nthreads) {
            threads.put(id, nthreads);
            return this;
        }

        Table tasks(int worker, int n, String prefix, double seconds) {
            return tasks(worker, n, prefix, seconds, List.of(), Restrictions.none(), false);
        }

        Table tasks(int worker, int n, String prefix, double seconds, List<BalanceSnapshot.Dep> deps,
                    Restrictions r, boolean longRunning) {
            for (int i = 0; i < n; i++) {
                tasks.add(new BalanceSnapshot.TaskView(prefix + "-" + i, worker, seconds, deps, r, longRunning, 0, ++order));
            }
            return this;
        }

        Table inFlight(String key, int victim, int thief, double d) {
            inFlight.add(new BalanceSnapshot.InFlight(key, victim, thief, d));
            return this;
        }

        BalanceSnapshot snapshot() {
            List<BalanceSnapshot.WorkerView> ws = new ArrayList<>();
            threads.keySet().stream().sorted().forEach(id -> {
                double occ = 0;
                int n = 0;
                for (BalanceSnapshot.TaskView t : tasks) {
                    if (t.worker() == id) {
                        occ += t.duration() + PARAMS.transferCost(t.deps(), id);
                        n++;
                    }
                }
                ws.add(new BalanceSnapshot.WorkerView(id, threads.get(id), occ, n));
            });
            return new BalanceSnapshot(ws, tasks, inFlight);
        }

        List<Move> balance() {
            return Balancer.balance(snapshot(), PARAMS);
        }
    }

    static Map<Integer, Long> perThief(List<Move> moves) {
        return moves.stream().collect(Collectors.groupingBy(Move::thief, Collectors.counting()));
    }

    @Test
    void slowTasksWithoutDataMoveUntilTheInequalityStops() {
        // victim 10 s, thief 0 s: moves while 0 + k + 1 <= 10 - k - 0.5, i.e. five times
        List<Move> moves = new Table().worker(0, 1).worker(1, 1).tasks(0, 10, "slow", 1.0).balance();
        assertThat(moves).hasSize(5).allSatisfy(m -> {
            assertThat(m.victim()).isZero();
            assertThat(m.thief()).isEqualTo(1);
            assertThat(m.level()).isZero();
        });
        // bottom of the stack first: the latest assigned tasks go
        assertThat(moves.get(0).key()).isEqualTo("slow-9");
    }

    @Test
    void strictlyRestrictedTasksStay() {
        assertThat(new Table().worker(0, 1).worker(1, 1)
                .tasks(0, 10, "gpu", 1.0, List.of(), Restrictions.strict(Set.of(0)), false).balance()).isEmpty();
    }

    @Test
    void looselyRestrictedTasksGoToAnAllowedIdleWorkerFirst() {
        List<Move> moves = new Table().worker(0, 1).worker(1, 1).worker(2, 1)
                .tasks(0, 10, "pref", 1.0, List.of(), Restrictions.loose(Set.of(0, 2)), false).balance();
        assertThat(moves).isNotEmpty().allSatisfy(m -> assertThat(m.thief()).isEqualTo(2));
    }

    @Test
    void veryShortAndLongRunningTasksStay() {
        assertThat(new Table().worker(0, 1).worker(1, 1).tasks(0, 1000, "tiny", 0.001).balance()).isEmpty();
        assertThat(new Table().worker(0, 1).worker(1, 1)
                .tasks(0, 10, "serve", 1.0, List.of(), Restrictions.none(), true).balance()).isEmpty();
    }

    @Test
    void largeDataWithFastComputeStays() {
        // the bad example: 1 GB input (10 s to move) for a 10 ms task is level 15 or more
        List<BalanceSnapshot.Dep> big = List.of(new BalanceSnapshot.Dep(1_000_000_000L, Set.of(0)));
        assertThat(new Table().worker(0, 1).worker(1, 1)
                .tasks(0, 100, "sum", 0.01, big, Restrictions.none(), false).balance()).isEmpty();
        // 100 MB (1 s) for 10 ms: level 13, stealable in principle, but the inequality refuses
        List<BalanceSnapshot.Dep> large = List.of(new BalanceSnapshot.Dep(100_000_000L, Set.of(0)));
        assertThat(new Table().worker(0, 1).worker(1, 1)
                .tasks(0, 100, "sum", 0.01, large, Restrictions.none(), false).balance()).isEmpty();
    }

    @Test
    void smallDataWithSlowComputeMoves() {
        // the good example: 100 bytes for a 1 s task
        List<BalanceSnapshot.Dep> small = List.of(new BalanceSnapshot.Dep(100, Set.of(0)));
        List<Move> moves = new Table().worker(0, 1).worker(1, 1)
                .tasks(0, 10, "sleep", 1.0, small, Restrictions.none(), false).balance();
        assertThat(moves).hasSize(5).allSatisfy(m -> assertThat(m.level()).isEqualTo(1));
    }

    @Test
    void cheaperLevelsAreStolenFirst() {
        List<BalanceSnapshot.Dep> medium = List.of(new BalanceSnapshot.Dep(10_000_000L, Set.of(0)));
        List<Move> moves = new Table().worker(0, 1).worker(1, 1)
                .tasks(0, 10, "costly", 1.0, medium, Restrictions.none(), false)
                .tasks(0, 2, "free", 1.0).balance();
        assertThat(moves).extracting(Move::key).startsWith("free-1", "free-0");
    }

    @Test
    void inFlightStealsCountAsDone() {
        // one steal of 1 s already in flight: the round makes four more, not five
        List<Move> moves = new Table().worker(0, 1).worker(1, 1).tasks(0, 10, "slow", 1.0)
                .inFlight("slow-9", 0, 1, 1.0).balance();
        assertThat(moves).hasSize(4).extracting(Move::key).doesNotContain("slow-9");
    }

    @Test
    void noIdleWorkerNoMoves() {
        assertThat(new Table().worker(0, 1).worker(1, 1).tasks(0, 10, "a", 1.0).tasks(1, 9, "b", 1.0).balance())
                .isEmpty();
    }

    @Test
    void whetherAMoveIsPossibleIsKnownFromTheLoadsAlone() {
        BalanceSnapshot busy = new Table().worker(0, 1).worker(1, 1).tasks(0, 10, "a", 1.0).tasks(1, 9, "b", 1.0)
                .snapshot();
        assertThat(Balancer.mayMove(busy.workers(), busy.inFlight(), PARAMS)).isFalse();
        BalanceSnapshot oneIdle = new Table().worker(0, 1).worker(1, 1).tasks(0, 10, "slow", 1.0).snapshot();
        assertThat(Balancer.mayMove(oneIdle.workers(), oneIdle.inFlight(), PARAMS)).isTrue();
        // the idle worker is the thief of steals in flight that fill it: nothing more to do
        BalanceSnapshot filled = new Table().worker(0, 1).worker(1, 1).tasks(0, 2, "slow", 1.0)
                .inFlight("slow-1", 0, 1, 1.0).snapshot();
        assertThat(Balancer.mayMove(filled.workers(), filled.inFlight(), PARAMS)).isFalse();
    }

    @Test
    void movesAreSpreadOverTheIdleWorkers() {
        // one busy worker, three idle: a single idle worker must not take the whole backlog
        List<Move> moves = new Table().worker(0, 1).worker(1, 1).worker(2, 1).worker(3, 1)
                .tasks(0, 40, "slow", 1.0).balance();
        Map<Integer, Long> counts = perThief(moves);
        assertThat(counts.keySet()).containsExactlyInAnyOrder(1, 2, 3);
        long max = counts.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        long min = counts.values().stream().mapToLong(Long::longValue).min().orElseThrow();
        assertThat(max - min).isLessThanOrEqualTo(1);
        assertThat(moves).hasSizeGreaterThanOrEqualTo(27);
    }

    @Test
    void aVictimKeepsEnoughTasksForItsThreads() {
        // 4 threads and 5 tasks: at most one can go
        List<Move> moves = new Table().worker(0, 4).worker(1, 4).tasks(0, 5, "slow", 10.0).balance();
        assertThat(moves).hasSizeLessThanOrEqualTo(1);
    }

    @Test
    void threadsCountInOccupancy() {
        // 8 tasks on 8 threads are not a backlog, even next to an idle worker
        assertThat(new Table().worker(0, 8).worker(1, 1).tasks(0, 8, "slow", 1.0).balance()).isEmpty();
    }
    @Test
    void twoThreadWorkersShareFourTasksAsDaskDoes() {
        // Dask's balance() compares total occupancies: 0 + 1 <= 4 - 0.5 and 1 + 1 <= 3 - 0.5 hold,
        // 2 + 1 <= 2 - 0.5 does not, so the idle 2-thread worker takes two of the four 1 s tasks
        List<Move> moves = new Table().worker(0, 2).worker(1, 2).tasks(0, 4, "slow", 1.0).balance();
        assertThat(moves).hasSize(2).allSatisfy(m -> assertThat(m.thief()).isEqualTo(1));
    }

    @Test
    void fourThreadWorkersShareEightTasksAsDaskDoes() {
        // 0+1 <= 7.5, 1+1 <= 6.5, 2+1 <= 5.5, 3+1 <= 4.5, then 4+1 > 3.5: four steals, four tasks each
        List<Move> moves = new Table().worker(0, 4).worker(1, 4).tasks(0, 8, "slow", 1.0).balance();
        assertThat(moves).hasSize(4).allSatisfy(m -> assertThat(m.thief()).isEqualTo(1));
    }

    @Test
    void aThiefWithFewerThreadsNeverEndsBusierPerThreadThanItsVictim() {
        // Ours: totals alone would let a 1-thread thief take a 3 s task from a 4-thread victim
        // at 1.75 s per thread (0 + 3 <= 7 - 1.5), ending at 3 s on its one thread
        Table table = new Table().worker(0, 4).worker(1, 1).tasks(0, 4, "short", 1.0);
        table.tasks.add(new BalanceSnapshot.TaskView("long-0", 0, 3.0, List.of(), Restrictions.none(), false, -1,
                ++table.order));
        assertThat(table.balance()).extracting(Move::key).doesNotContain("long-0");
    }
}
