/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

/**
 * The settings of a cluster, as built by {@link LocalCluster.Builder}. Times in nanoseconds.
 */
record ClusterConfig(int workers, int threadsPerWorker, double bandwidth, long latencyNanos, boolean stealing,
                     long balanceIntervalNanos, int retries, long minStealNanos, long saturatedNanos,
                     long defaultDurationNanos, long memoryLimit) {

    /** Without a memory limit. */
    ClusterConfig(int workers, int threadsPerWorker, double bandwidth, long latencyNanos, boolean stealing,
                  long balanceIntervalNanos, int retries, long minStealNanos, long saturatedNanos,
                  long defaultDurationNanos) {
        this(workers, threadsPerWorker, bandwidth, latencyNanos, stealing, balanceIntervalNanos, retries,
                minStealNanos, saturatedNanos, defaultDurationNanos, 0);
    }

    BalanceParams balanceParams() {
        return new BalanceParams(bandwidth, latencyNanos / 1e9, minStealNanos / 1e9, saturatedNanos / 1e9);
    }
}
