/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.cluster;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.LocalCluster;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.Set;

/**
 * {@code inprocess}: a {@link LocalCluster}, against Dask's in-process {@code LocalCluster}. No
 * simulated latency (Dask's in-process workers pass objects without a network either); values
 * still take {@code bytes / 100 MB/s} to move, the bandwidth both schedulers assume by default.
 */
final class LocalTarget implements ClusterTarget {

    private final LocalCluster cluster;
    private final int workers;
    private final int threads;

    LocalTarget(int workers, int threads) {
        this.workers = workers;
        this.threads = threads;
        this.cluster = LocalCluster.builder().workers(workers).threadsPerWorker(threads).latency(Duration.ZERO)
                .balanceInterval(BALANCE_INTERVAL).build();
    }

    @Override
    public String config() {
        return "inprocess";
    }

    @Override
    public int workers() {
        return workers;
    }

    @Override
    public int threadsPerWorker() {
        return threads;
    }

    @Override
    public Client client() {
        return cluster.client();
    }

    @Override
    public OptionalLong dataBytes() {
        return OptionalLong.of(cluster.stats().bytesTransferred());
    }

    @Override
    public OptionalLong steals() {
        return OptionalLong.of(cluster.stats().stealsConfirmed());
    }

    @Override
    public Set<Long> workerPids() {
        return Set.of();
    }

    @Override
    public void close() {
        cluster.close();
    }
}
