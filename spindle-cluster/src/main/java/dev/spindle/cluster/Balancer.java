/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The stealing policy: a pure function from a {@link BalanceSnapshot} to a list of proposed
 * {@link Move}s. It reads nothing else and changes nothing, so it can be tested from tables.
 *
 * <h2>Algorithm</h2>
 *
 * <ol>
 *   <li>Steals in flight count as done: the victim loses, the thief gains, the task's duration.
 *   <li>With {@code p(w) = occupancy / threads} and {@code avg} the cluster-wide per-thread
 *       occupancy, thieves are the idle workers: fewer tasks than threads, or
 *       {@code p < avg / 2}. Victims are the saturated workers: more tasks than threads,
 *       {@code p} above {@link BalanceParams#saturatedOccupancy} and above
 *       {@link BalanceParams#SATURATED_FACTOR}{@code  × avg}; if there are none, the
 *       {@link BalanceParams#FALLBACK_VICTIMS} busiest non-idle workers with spare tasks.
 *   <li>A task is a candidate unless it is strictly restricted, long-running, expected to take at
 *       most {@link BalanceParams#minDuration}, already being stolen, or at a level of
 *       {@link BalanceParams#LEVELS} or more. Each victim orders its candidates bottom of its
 *       stack first: lowest priority, then latest assigned.
 *   <li>Levels run from the cheapest. Within a level the busiest victim (by current {@code p})
 *       gives its next candidate; the thief is the allowed idle worker with the least
 *       {@code p + transfer cost}, ties to the one that received fewest moves this round, then
 *       the lowest id. With {@code occ} a worker's total occupancy (not per thread, as in
 *       Dask's {@code balance()}), the move is made only if
 *       {@code occ(thief) + transfer(thief) + d <= occ(victim) - (transfer(victim) + d) / 2}
 *       and the thief's new per-thread occupancy does not exceed the victim's.
 *   <li>After each move both workers' occupancies and task counts are updated, and a victim
 *       never gives away tasks it needs to keep its own threads busy (it keeps at least
 *       {@code threads} tasks).
 * </ol>
 *
 * <h2>Invariants</h2>
 *
 * <p>The second condition keeps the thief's new per-thread occupancy at most the victim's
 * current one, and a victim only loses work, so the largest per-thread occupancy never grows in
 * a round. Because occupancies are
 * updated after every move and the thief is chosen by current occupancy, one idle worker cannot
 * take a whole backlog: equally idle thieves take turns. This answers the common complaint that
 * a single idle worker steals everything while its peers stay idle.
 */
final class Balancer {

    private Balancer() {
    }

    /** The workers' loads after the steals in flight, and who may take and who may give. */
    private record Roles(Map<Integer, Load> loads, Set<String> stealing, List<Load> thieves, List<Load> victims) {
    }

    /**
     * Whether a round over these workers and steals in flight can propose any move: some worker
     * is idle and some other has tasks to give (steps 1 and 2). When it cannot, {@link #balance}
     * proposes none whatever the tasks, and the scheduler need not describe them.
     */
    static boolean mayMove(List<BalanceSnapshot.WorkerView> workers, List<BalanceSnapshot.InFlight> inFlight,
                           BalanceParams params) {
        Roles r = roles(workers, inFlight, params);
        return !r.thieves().isEmpty() && !r.victims().isEmpty();
    }

    private static Roles roles(List<BalanceSnapshot.WorkerView> workers, List<BalanceSnapshot.InFlight> inFlight,
                               BalanceParams params) {
        Map<Integer, Load> loads = new HashMap<>();
        for (BalanceSnapshot.WorkerView w : workers) {
            loads.put(w.id(), new Load(w));
        }
        Set<String> stealing = new HashSet<>();
        for (BalanceSnapshot.InFlight f : inFlight) {
            stealing.add(f.key());
            Load v = loads.get(f.victim());
            Load t = loads.get(f.thief());
            if (v != null) {
                v.occupancy = Math.max(0, v.occupancy - f.duration());
                v.tasks--;
            }
            if (t != null) {
                t.occupancy += f.duration();
                t.tasks++;
            }
        }
        List<Load> thieves = new ArrayList<>();
        List<Load> victims = new ArrayList<>();
        if (loads.size() < 2) {
            return new Roles(loads, stealing, thieves, victims);
        }
        double totalOcc = 0;
        int totalThreads = 0;
        for (Load l : loads.values()) {
            totalOcc += l.occupancy;
            totalThreads += l.threads;
        }
        double avg = totalOcc / totalThreads;

        for (Load l : loads.values()) {
            if (l.tasks < l.threads || l.perThread() < avg / 2) {
                thieves.add(l);
            } else if (l.tasks > l.threads && l.perThread() > params.saturatedOccupancy()
                    && l.perThread() > BalanceParams.SATURATED_FACTOR * avg) {
                victims.add(l);
            }
        }
        if (!thieves.isEmpty() && victims.isEmpty()) {
            loads.values().stream()
                    .filter(l -> !thieves.contains(l) && l.tasks > l.threads)
                    .sorted(Comparator.comparingDouble(Load::perThread).reversed().thenComparingInt(l -> l.id))
                    .limit(BalanceParams.FALLBACK_VICTIMS)
                    .forEach(victims::add);
        }
        return new Roles(loads, stealing, thieves, victims);
    }

    /** Proposes the moves of one balance round. */
    static List<Move> balance(BalanceSnapshot snapshot, BalanceParams params) {
        Roles roles = roles(snapshot.workers(), snapshot.inFlight(), params);
        Map<Integer, Load> loads = roles.loads();
        Set<String> stealing = roles.stealing();
        List<Load> thieves = roles.thieves();
        List<Load> victims = roles.victims();
        if (thieves.isEmpty() || victims.isEmpty()) {
            return List.of();
        }
        thieves.sort(Comparator.comparingInt(l -> l.id));

        // candidates per victim and level, bottom of the stack first
        Map<Integer, List<ArrayDeque<BalanceSnapshot.TaskView>>> byVictim = new HashMap<>();
        for (Load v : victims) {
            List<ArrayDeque<BalanceSnapshot.TaskView>> levels = new ArrayList<>();
            for (int i = 0; i < BalanceParams.LEVELS; i++) {
                levels.add(new ArrayDeque<>());
            }
            byVictim.put(v.id, levels);
        }
        List<BalanceSnapshot.TaskView> ordered = new ArrayList<>(snapshot.tasks());
        ordered.sort(Comparator.comparingInt(BalanceSnapshot.TaskView::priority)
                .thenComparing(Comparator.comparingLong(BalanceSnapshot.TaskView::order).reversed()));
        for (BalanceSnapshot.TaskView t : ordered) {
            List<ArrayDeque<BalanceSnapshot.TaskView>> levels = byVictim.get(t.worker());
            if (levels == null || !stealable(t, stealing, params)) {
                continue;
            }
            int level = params.level(t.duration(), t.deps());
            if (level < BalanceParams.LEVELS) {
                levels.get(level).add(t);
            }
        }

        List<Move> moves = new ArrayList<>();
        for (int level = 0; level < BalanceParams.LEVELS; level++) {
            while (true) {
                Load victim = busiestWithCandidates(victims, byVictim, level);
                if (victim == null) {
                    break;
                }
                BalanceSnapshot.TaskView task = byVictim.get(victim.id).get(level).poll();
                Load thief = chooseThief(thieves, task, params);
                if (thief == null) {
                    continue;
                }
                double commThief = params.transferCost(task.deps(), thief.id);
                double commVictim = params.transferCost(task.deps(), victim.id);
                double d = task.duration();
                if (worthMoving(victim, thief, d, commVictim, commThief)) {
                    moves.add(new Move(task.key(), victim.id, thief.id, level));
                    victim.occupancy = Math.max(0, victim.occupancy - d - commVictim);
                    victim.tasks--;
                    thief.occupancy += d + commThief;
                    thief.tasks++;
                    thief.received++;
                }
            }
        }
        return moves;
    }

    /**
     * Dask's steal inequality on total occupancies (seconds of work, not per thread):
     * {@code occ(thief) + transfer(thief) + d <= occ(victim) - (transfer(victim) + d) / 2}. Per
     * thread it would compare a share of the victim's work with a whole task and leave a
     * multi-threaded thief half idle. Ours on top: the thief must not end busier per thread than
     * the victim is; with equal thread counts the inequality implies this already, and with a
     * thief of fewer threads it stops a long task landing on a thread busier than any before.
     */
    private static boolean worthMoving(Load victim, Load thief, double d, double commVictim, double commThief) {
        double thiefAfter = thief.occupancy + commThief + d;
        return thiefAfter <= victim.occupancy - (commVictim + d) / 2
                && thiefAfter / thief.threads <= victim.perThread();
    }

    private static boolean stealable(BalanceSnapshot.TaskView t, Set<String> stealing, BalanceParams params) {
        if (t.restrictions().isStrict() || t.longRunning() || stealing.contains(t.key())) {
            return false;
        }
        return t.duration() > params.minDuration();
    }

    private static Load busiestWithCandidates(List<Load> victims,
                                              Map<Integer, List<ArrayDeque<BalanceSnapshot.TaskView>>> byVictim,
                                              int level) {
        Load best = null;
        for (Load v : victims) {
            if (v.tasks <= v.threads || byVictim.get(v.id).get(level).isEmpty()) {
                continue;
            }
            if (best == null || v.perThread() > best.perThread()) {
                best = v;
            }
        }
        return best;
    }

    private static Load chooseThief(List<Load> thieves, BalanceSnapshot.TaskView task, BalanceParams params) {
        Set<Integer> preferred = task.restrictions().workers();
        boolean anyPreferred = false;
        for (Load t : thieves) {
            if (preferred.contains(t.id)) {
                anyPreferred = true;
                break;
            }
        }
        Load best = null;
        double bestCost = Double.POSITIVE_INFINITY;
        for (Load t : thieves) {
            if (t.id == task.worker() || (anyPreferred && !preferred.contains(t.id))) {
                continue;
            }
            double cost = t.perThread() + params.transferCost(task.deps(), t.id);
            if (best == null || cost < bestCost || (cost == bestCost && t.received < best.received)) {
                best = t;
                bestCost = cost;
            }
        }
        return best;
    }

    /** A worker's load as the round changes it. */
    private static final class Load {
        final int id;
        final int threads;
        double occupancy;
        int tasks;
        int received;

        Load(BalanceSnapshot.WorkerView w) {
            this.id = w.id();
            this.threads = w.threads();
            this.occupancy = w.occupancy();
            this.tasks = w.processing();
        }

        double perThread() {
            return occupancy / threads;
        }
    }
}
