/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The immutable view of the scheduler that {@link Balancer#balance} works on: the live workers,
 * the tasks each is processing, and the steals already in flight. Times are seconds.
 *
 * @param workers the live workers
 * @param tasks the tasks being processed (assigned, not yet finished), each naming its worker
 * @param inFlight steals requested and not yet answered
 */
record BalanceSnapshot(List<WorkerView> workers, List<TaskView> tasks, List<InFlight> inFlight) {

    BalanceSnapshot {
        workers = List.copyOf(workers);
        tasks = List.copyOf(tasks);
        inFlight = List.copyOf(inFlight);
    }

    /**
     * A live worker.
     *
     * @param id the worker id
     * @param threads its thread count, at least 1
     * @param occupancy the expected seconds of work assigned to it (compute plus transfers), in total
     * @param processing how many tasks are assigned to it
     */
    record WorkerView(int id, int threads, double occupancy, int processing) {
        WorkerView {
            if (threads < 1 || occupancy < 0 || processing < 0) {
                throw new IllegalArgumentException("bad worker view: threads " + threads
                        + ", occupancy " + occupancy + ", processing " + processing);
            }
        }
    }

    /**
     * A task being processed.
     *
     * @param key its key
     * @param worker the worker it is assigned to
     * @param duration the expected compute seconds
     * @param deps its dependencies' sizes and holders
     * @param restrictions where it may run
     * @param longRunning declared long-running
     * @param priority higher runs first on its worker
     * @param order assignment order; later assigned tasks sit lower in the worker's stack
     */
    record TaskView(String key, int worker, double duration, List<Dep> deps, Restrictions restrictions,
                    boolean longRunning, int priority, long order) {
        TaskView {
            Objects.requireNonNull(key, "key");
            deps = List.copyOf(deps);
            Objects.requireNonNull(restrictions, "restrictions");
        }
    }

    /**
     * A dependency of a task.
     *
     * @param bytes its measured size
     * @param holders the workers holding a copy
     */
    record Dep(long bytes, Set<Integer> holders) {
        Dep {
            holders = Set.copyOf(holders);
        }
    }

    /**
     * A steal requested and not yet answered: the scheduler counts it as done already.
     *
     * @param key the task
     * @param victim where it was
     * @param thief where it goes
     * @param duration its expected compute seconds
     */
    record InFlight(String key, int victim, int thief, double duration) {
    }
}
