/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of {@link Balancer#balance} over random clusters. */
class BalancerPropertiesTest {

    static final BalanceParams PARAMS = BalancerTest.PARAMS;

    record Scenario(BalanceSnapshot snapshot) {
        @Override
        public String toString() {
            return snapshot.workers() + " / " + snapshot.tasks().size() + " tasks";
        }
    }

    @Provide
    Arbitrary<Scenario> scenarios() {
        Arbitrary<List<Integer>> threads = Arbitraries.integers().between(1, 4).list().ofMinSize(2).ofMaxSize(6);
        Arbitrary<List<int[]>> tasks = Arbitraries.integers().between(0, 1_000_000).array(int[].class).ofSize(6)
                .list().ofMaxSize(80);
        return Combinators.combine(threads, tasks).as((ths, raw) -> {
            BalancerTest.Table table = new BalancerTest.Table();
            for (int i = 0; i < ths.size(); i++) {
                table.worker(i, ths.get(i));
            }
            int n = 0;
            for (int[] r : raw) {
                int worker = r[0] % ths.size();
                // skewed: half the tasks on worker 0
                if (r[1] % 2 == 0) {
                    worker = 0;
                }
                double seconds = (r[2] % 2000) / 1000.0;          // 0 .. 2 s, some at or below 1 ms
                List<BalanceSnapshot.Dep> deps = new ArrayList<>();
                if (r[3] % 3 != 0) {
                    long bytes = (long) Math.pow(10, r[3] % 10);   // 1 B .. 1 GB
                    deps.add(new BalanceSnapshot.Dep(bytes, Set.of(worker)));
                }
                Restrictions rs = switch (r[4] % 6) {
                    case 0 -> Restrictions.strict(Set.of(worker));
                    case 1 -> Restrictions.loose(Set.of(r[5] % ths.size()));
                    default -> Restrictions.none();
                };
                table.tasks.add(new BalanceSnapshot.TaskView("t-" + n++, worker, seconds, deps, rs,
                        r[5] % 11 == 0, r[5] % 3, ++table.order));
            }
            return new Scenario(table.snapshot());
        });
    }

    @Property(tries = 300)
    void neverMovesTasksThatMustStay(@ForAll("scenarios") Scenario s) {
        Map<String, BalanceSnapshot.TaskView> byKey = byKey(s.snapshot());
        for (Move m : Balancer.balance(s.snapshot(), PARAMS)) {
            BalanceSnapshot.TaskView t = byKey.get(m.key());
            assertThat(t).isNotNull();
            assertThat(m.victim()).isEqualTo(t.worker());
            assertThat(m.thief()).isNotEqualTo(t.worker());
            assertThat(t.restrictions().isStrict()).isFalse();
            assertThat(t.longRunning()).isFalse();
            assertThat(t.duration()).isGreaterThan(PARAMS.minDuration());
            assertThat(m.level()).isLessThan(BalanceParams.LEVELS);
        }
    }

    @Property(tries = 300)
    void eachTaskMovesAtMostOnceAndVictimsKeepTheirThreadsBusy(@ForAll("scenarios") Scenario s) {
        List<Move> moves = Balancer.balance(s.snapshot(), PARAMS);
        Set<String> seen = new HashSet<>();
        Map<Integer, Integer> count = new HashMap<>();
        for (BalanceSnapshot.WorkerView w : s.snapshot().workers()) {
            count.put(w.id(), w.processing());
        }
        for (Move m : moves) {
            assertThat(seen.add(m.key())).as("moved twice: %s", m.key()).isTrue();
            count.merge(m.victim(), -1, Integer::sum);
            count.merge(m.thief(), 1, Integer::sum);
        }
        for (BalanceSnapshot.WorkerView w : s.snapshot().workers()) {
            boolean gave = moves.stream().anyMatch(m -> m.victim() == w.id());
            if (gave) {
                assertThat(count.get(w.id())).as("tasks left on victim %d", w.id()).isGreaterThanOrEqualTo(w.threads());
            }
        }
    }

    @Property(tries = 300)
    void theBusiestThreadIsNeverBusierAfterTheMoves(@ForAll("scenarios") Scenario s) {
        Map<String, BalanceSnapshot.TaskView> byKey = byKey(s.snapshot());
        Map<Integer, Double> occ = new HashMap<>();
        Map<Integer, Integer> threads = new HashMap<>();
        double before = 0;
        for (BalanceSnapshot.WorkerView w : s.snapshot().workers()) {
            occ.put(w.id(), w.occupancy());
            threads.put(w.id(), w.threads());
            before = Math.max(before, w.occupancy() / w.threads());
        }
        for (Move m : Balancer.balance(s.snapshot(), PARAMS)) {
            BalanceSnapshot.TaskView t = byKey.get(m.key());
            occ.merge(m.victim(), -(t.duration() + PARAMS.transferCost(t.deps(), m.victim())), Double::sum);
            occ.merge(m.thief(), t.duration() + PARAMS.transferCost(t.deps(), m.thief()), Double::sum);
        }
        double after = 0;
        for (Map.Entry<Integer, Double> e : occ.entrySet()) {
            after = Math.max(after, e.getValue() / threads.get(e.getKey()));
        }
        assertThat(after).isLessThanOrEqualTo(before + 1e-9);
    }

    @Property(tries = 200)
    void equalIdleThievesShareTheBacklog(@ForAll("idleCounts") int idle, @ForAll("backlogs") int tasks) {
        BalancerTest.Table table = new BalancerTest.Table().worker(0, 1);
        for (int i = 1; i <= idle; i++) {
            table.worker(i, 1);
        }
        List<Move> moves = table.tasks(0, tasks, "slow", 1.0).balance();
        Map<Integer, Long> per = BalancerTest.perThief(moves);
        long max = per.values().stream().mapToLong(Long::longValue).max().orElse(0);
        long min = idle == per.size() ? per.values().stream().mapToLong(Long::longValue).min().orElse(0) : 0;
        assertThat(max - min).isLessThanOrEqualTo(1);
    }

    @Provide
    Arbitrary<Integer> idleCounts() {
        return Arbitraries.integers().between(1, 8);
    }

    @Provide
    Arbitrary<Integer> backlogs() {
        return Arbitraries.integers().between(2, 200);
    }

    private static Map<String, BalanceSnapshot.TaskView> byKey(BalanceSnapshot s) {
        Map<String, BalanceSnapshot.TaskView> m = new HashMap<>();
        for (BalanceSnapshot.TaskView t : s.tasks()) {
            m.put(t.key(), t);
        }
        return m;
    }

    /**
     * The scheduler leaves the tasks out of a round's snapshot when {@link Balancer#mayMove} says
     * the workers' loads allow no move: then {@code balance} proposes nothing with the tasks either.
     */
    @Property(tries = 500)
    void noMoveIsProposedWhenTheLoadsAloneAllowNone(@ForAll("scenarios") Scenario s) {
        BalanceSnapshot snapshot = s.snapshot();
        if (!Balancer.mayMove(snapshot.workers(), snapshot.inFlight(), PARAMS)) {
            assertThat(Balancer.balance(snapshot, PARAMS)).isEmpty();
        }
    }
}
