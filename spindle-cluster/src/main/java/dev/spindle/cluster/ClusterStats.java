/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;

/**
 * A snapshot of a cluster's counters, for progress displays and tests.
 *
 * @param workers one entry per worker, by id
 * @param stealsRequested steal requests sent to victims
 * @param stealsConfirmed steals the victims released
 * @param stealsRejected steals refused because the task had started or finished
 * @param stealsStale steal replies ignored as out of date
 * @param bytesTransferred bytes moved between workers by dependency fetches
 * @param tasksInMemory tasks whose result is held by a worker
 * @param tasksErred tasks that failed for good
 * @param tasksReleased results freed on their workers because no client future and no pending
 *        task needed them any more (each release counted, a recomputed result again)
 * @param tasksExecuted results the scheduler accepted from all workers since the start, so that it
 *        never goes down (a counter for monitoring). For workers in other JVMs, whose
 *        {@link WorkerStats#executed()} counts the replies the scheduler accepted, it is their sum
 *        plus what worker records replaced by a rejoin under the same id had counted; in process,
 *        where each worker counts its own runs, attempts whose result the scheduler ignored
 *        (abandoned, superseded) included, that sum may be higher
 * @param tasksAwaitingWorker tasks ready to run that no live worker may run, waiting for one to
 *        join (see {@link CoordinatorSettings#noWorkerTimeout()})
 * @param tasksCancelled tasks forgotten without a result because the client cancelled their futures
 *        ({@link ClusterFuture#cancel}) and no pending task needed them: not yet sent to a worker,
 *        given up unstarted by the worker they were sent to, or back from a worker lost before they
 *        ended (each forgetting counted, a task computed again and forgotten again counted again).
 *        A cancelled task that ran to its end, or that a pending task needed, is not counted here;
 *        its result, once released, counts in {@code tasksReleased}
 */
public record ClusterStats(List<WorkerStats> workers, long stealsRequested, long stealsConfirmed,
                           long stealsRejected, long stealsStale, long bytesTransferred,
                           int tasksInMemory, int tasksErred, long tasksReleased, long tasksExecuted,
                           int tasksAwaitingWorker, long tasksCancelled) {

    /**
     * The counters without {@code tasksCancelled} (zero), as before cancelled tasks were counted.
     *
     * @param workers one entry per worker, by id
     * @param stealsRequested steal requests sent to victims
     * @param stealsConfirmed steals the victims released
     * @param stealsRejected steals refused because the task had started or finished
     * @param stealsStale steal replies ignored as out of date
     * @param bytesTransferred bytes moved between workers by dependency fetches
     * @param tasksInMemory tasks whose result is held by a worker
     * @param tasksErred tasks that failed for good
     * @param tasksReleased results freed on their workers
     * @param tasksExecuted results the scheduler accepted from all workers since the start
     * @param tasksAwaitingWorker tasks ready to run that no live worker may run, waiting for one to join
     */
    public ClusterStats(List<WorkerStats> workers, long stealsRequested, long stealsConfirmed,
                        long stealsRejected, long stealsStale, long bytesTransferred,
                        int tasksInMemory, int tasksErred, long tasksReleased, long tasksExecuted,
                        int tasksAwaitingWorker) {
        this(workers, stealsRequested, stealsConfirmed, stealsRejected, stealsStale, bytesTransferred,
                tasksInMemory, tasksErred, tasksReleased, tasksExecuted, tasksAwaitingWorker, 0);
    }

    /**
     * The counters without {@code tasksAwaitingWorker} (zero), as before tasks waited for a worker.
     *
     * @param workers one entry per worker, by id
     * @param stealsRequested steal requests sent to victims
     * @param stealsConfirmed steals the victims released
     * @param stealsRejected steals refused because the task had started or finished
     * @param stealsStale steal replies ignored as out of date
     * @param bytesTransferred bytes moved between workers by dependency fetches
     * @param tasksInMemory tasks whose result is held by a worker
     * @param tasksErred tasks that failed for good
     * @param tasksReleased results freed on their workers
     * @param tasksExecuted results the scheduler accepted from all workers since the start
     */
    public ClusterStats(List<WorkerStats> workers, long stealsRequested, long stealsConfirmed,
                        long stealsRejected, long stealsStale, long bytesTransferred,
                        int tasksInMemory, int tasksErred, long tasksReleased, long tasksExecuted) {
        this(workers, stealsRequested, stealsConfirmed, stealsRejected, stealsStale, bytesTransferred,
                tasksInMemory, tasksErred, tasksReleased, tasksExecuted, 0);
    }

    /**
     * The counters without {@code tasksExecuted}, as before it was kept: the sum of the workers'
     * {@link WorkerStats#executed()}.
     *
     * @param workers one entry per worker, by id
     * @param stealsRequested steal requests sent to victims
     * @param stealsConfirmed steals the victims released
     * @param stealsRejected steals refused because the task had started or finished
     * @param stealsStale steal replies ignored as out of date
     * @param bytesTransferred bytes moved between workers by dependency fetches
     * @param tasksInMemory tasks whose result is held by a worker
     * @param tasksErred tasks that failed for good
     * @param tasksReleased results freed on their workers
     */
    public ClusterStats(List<WorkerStats> workers, long stealsRequested, long stealsConfirmed,
                        long stealsRejected, long stealsStale, long bytesTransferred,
                        int tasksInMemory, int tasksErred, long tasksReleased) {
        this(workers, stealsRequested, stealsConfirmed, stealsRejected, stealsStale, bytesTransferred,
                tasksInMemory, tasksErred, tasksReleased, workers.stream().mapToLong(WorkerStats::executed).sum());
    }

    /**
     * The counters without {@code tasksReleased} (zero), as before releases were counted.
     *
     * @param workers one entry per worker, by id
     * @param stealsRequested steal requests sent to victims
     * @param stealsConfirmed steals the victims released
     * @param stealsRejected steals refused because the task had started or finished
     * @param stealsStale steal replies ignored as out of date
     * @param bytesTransferred bytes moved between workers by dependency fetches
     * @param tasksInMemory tasks whose result is held by a worker
     * @param tasksErred tasks that failed for good
     */
    public ClusterStats(List<WorkerStats> workers, long stealsRequested, long stealsConfirmed,
                        long stealsRejected, long stealsStale, long bytesTransferred,
                        int tasksInMemory, int tasksErred) {
        this(workers, stealsRequested, stealsConfirmed, stealsRejected, stealsStale, bytesTransferred,
                tasksInMemory, tasksErred, 0);
    }

    /**
     * The bytes held in all workers' data stores together.
     *
     * @return the sum of {@link WorkerStats#memoryBytes()} over all workers, in bytes
     */
    public long memoryBytes() {
        long sum = 0;
        for (WorkerStats w : workers) {
            sum += w.memoryBytes();
        }
        return sum;
    }

    /**
     * One worker's counters.
     *
     * @param id the worker id
     * @param alive whether it is running
     * @param threads its thread count
     * @param executed tasks it has run to completion (successfully or not): in process, every run
 *        of its own; for a worker in another JVM, the replies the scheduler accepted from it
     * @param processing tasks the scheduler has assigned to it and not yet seen finish
     * @param memoryBytes the measured size of the values in its data store's memory now
     *        (released and spilled values are not counted)
     * @param keysHeld the number of values in its data store, in memory or spilled
     * @param spilledBytes the measured size of its values spilled to disk
     * @param paused whether it starts no new task because its memory is over the pause fraction
     */
    public record WorkerStats(int id, boolean alive, int threads, long executed, int processing,
                              long memoryBytes, int keysHeld, long spilledBytes, boolean paused) {

        /**
         * A worker's counters without spilling (nothing spilled, not paused).
         *
         * @param id the worker id
         * @param alive whether it is running
         * @param threads its thread count
         * @param executed tasks it has run to completion (successfully or not): in process, every run
 *        of its own; for a worker in another JVM, the replies the scheduler accepted from it
         * @param processing tasks the scheduler has assigned to it and not yet seen finish
         * @param memoryBytes the measured size of the values in its data store's memory now
         * @param keysHeld the number of values in its data store
         */
        public WorkerStats(int id, boolean alive, int threads, long executed, int processing,
                           long memoryBytes, int keysHeld) {
            this(id, alive, threads, executed, processing, memoryBytes, keysHeld, 0, false);
        }
    }
}
