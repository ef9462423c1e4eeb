/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.util.List;

/**
 * A snapshot of a pool's counters. Counters are read without stopping the pool, so while tasks
 * run they are estimates; once the pool is quiet they are exact.
 *
 * @param name the pool's name
 * @param parallelism the target number of running workers
 * @param liveWorkers workers currently able to run tasks (core workers plus spares)
 * @param blockedWorkers workers inside a blocking section
 * @param injectorLength tasks waiting in the shared injector
 * @param workers one entry per worker slot that has ever been started
 */
public record PoolStats(
        String name,
        int parallelism,
        int liveWorkers,
        int blockedWorkers,
        long injectorLength,
        List<WorkerStats> workers) {

    /** Tasks run by all workers. */
    public long executed() {
        return workers.stream().mapToLong(WorkerStats::executed).sum();
    }

    /** Tasks moved between workers by stealing. */
    public long steals() {
        return workers.stream().mapToLong(WorkerStats::stolenByThisWorker).sum();
    }

    /** Tasks waiting in all queues. */
    public long queued() {
        return injectorLength + workers.stream().mapToLong(WorkerStats::queueLength).sum();
    }

    /**
     * One worker's counters.
     *
     * @param index the worker's index (its thread is {@code <pool>-worker-<index>})
     * @param spare whether this is a compensating worker started for blocking sections
     * @param executed tasks this worker ran
     * @param stolenByThisWorker tasks this worker stole from peers
     * @param stolenFromThisWorker tasks peers stole from this worker's deque
     * @param overflowedToInjector tasks moved from this worker's full deque to the injector
     * @param parks times this worker parked
     * @param queueLength tasks in this worker's deque now
     */
    public record WorkerStats(
            int index,
            boolean spare,
            long executed,
            long stolenByThisWorker,
            long stolenFromThisWorker,
            long overflowedToInjector,
            long parks,
            int queueLength) {
    }
}
