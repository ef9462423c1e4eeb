/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import java.util.List;

/**
 * A snapshot of the counters of a {@link WorkSharingPool}, {@link PriorityPool} or
 * {@link PinnedPool}. The counters are read without stopping the pool, so while tasks run they
 * are estimates; once the pool is quiet they are exact.
 *
 * @param name the pool's name
 * @param workers the number of worker threads
 * @param executedPerWorker tasks run by each worker, by worker index
 * @param queued tasks waiting in the pool's queues
 * @param parks times workers parked, all workers together
 */
public record SchedulerStats(String name, int workers, List<Long> executedPerWorker, long queued, long parks) {

    /** Copies {@code executedPerWorker}, so the snapshot stays as it was taken. */
    public SchedulerStats {
        executedPerWorker = List.copyOf(executedPerWorker);
    }

    /** Tasks run by all workers together. */
    public long executed() {
        long sum = 0;
        for (long e : executedPerWorker) {
            sum += e;
        }
        return sum;
    }
}
