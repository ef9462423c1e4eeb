/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.nio.file.Path;

/**
 * A worker's memory limit and where it spills, the same settings a {@link LocalCluster} worker
 * has ({@link LocalCluster.Builder#memoryLimitPerWorker}): above 60 % of the limit in memory the
 * worker writes its least recently used values to disk and reads them back when needed; above
 * 80 % it starts no new task until memory falls (Dask's target and pause fractions). Spill files
 * live in a directory of their own, created on the first spill under {@code spillParent}
 * ({@code java.io.tmpdir} when null) with owner-only permissions where the file system has POSIX
 * permissions, and deleted when the worker stops. A transport's {@code WorkerMain} reads it from
 * {@code --memory-limit} and {@code --spill-dir} ({@link WorkerCommandLine#memory()}).
 *
 * @param limitBytes the limit in bytes; 0 for none (nothing spills, the worker never pauses)
 * @param spillParent the directory under which the spill directory is made, or {@code null}
 */
public record WorkerMemory(long limitBytes, Path spillParent) {

    /** No limit: nothing spills. */
    public static final WorkerMemory NONE = new WorkerMemory(0, null);

    /**
     * Checks the limit.
     *
     * @param limitBytes the limit in bytes; 0 for none
     * @param spillParent the directory under which the spill directory is made, or {@code null} for
     *     {@code java.io.tmpdir}
     * @throws IllegalArgumentException if {@code limitBytes} is negative
     */
    public WorkerMemory {
        if (limitBytes < 0) {
            throw new IllegalArgumentException("memory limit must not be negative, got " + limitBytes);
        }
    }
}
