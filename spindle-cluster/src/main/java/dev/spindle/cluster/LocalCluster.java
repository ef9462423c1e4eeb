/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A cluster of N workers inside this JVM: one central scheduler, and per worker a data store and
 * a {@link dev.spindle.pool.WorkStealingPool}. Moving a value between workers is delayed by
 * {@code latency + bytes / bandwidth}, so locality costs here what it would on a network and the
 * stealing policy can be tried without machines.
 *
 * <pre>{@code
 * try (LocalCluster cluster = LocalCluster.builder().workers(4).threadsPerWorker(2)
 *         .bandwidth(100e6).latency(Duration.ofMillis(1)).build()) {
 *     Client client = cluster.client();
 *     ClusterFuture<int[]> data = client.scatter("data", new int[] {1, 2, 3}, 0);
 *     ClusterFuture<Integer> sum = client.submit("sum-0", args -> java.util.Arrays.stream((int[]) args.get(0)).sum(), data);
 *     System.out.println(sum.get() + " " + cluster.stats());
 * }
 * }</pre>
 *
 * <p>{@link #close()} stops the scheduler and the workers; every unfinished future completes
 * exceptionally with an {@link IllegalStateException}, and later calls throw
 * {@link java.util.concurrent.RejectedExecutionException}.
 */
public final class LocalCluster implements AutoCloseable {

    private final ClusterConfig config;
    private final LocalTransport transport;
    private final List<ClusterWorker> workers = new ArrayList<>();
    private final GraphScheduler scheduler;
    private final Client client;
    private volatile boolean closed;

    private LocalCluster(ClusterConfig config) {
        this.config = config;
        this.transport = new LocalTransport(config.bandwidth(), config.latencyNanos());
        for (int i = 0; i < config.workers(); i++) {
            workers.add(new ClusterWorker(i, config.threadsPerWorker(), transport, config.memoryLimit()));
        }
        this.scheduler = new GraphScheduler(config, transport);
        transport.connect(workers, scheduler::receive);
        this.client = new Client(scheduler, config.workers());
    }

    /** Starts a builder with the defaults: 2 workers of 1 thread, 100 MB/s, 1 ms, stealing every 100 ms. */
    public static Builder builder() {
        return new Builder();
    }

    /** The client of this cluster. */
    public Client client() {
        return client;
    }

    /** The number of workers, dead ones included. */
    public int workers() {
        return config.workers();
    }

    /**
     * Simulates the crash of worker {@code id}: its running tasks are abandoned and the values it
     * held are gone. The scheduler reassigns its tasks and recomputes lost values that are still
     * needed; futures already completed keep their values.
     *
     * @throws IllegalArgumentException if there is no such worker
     */
    public void killWorker(int id) {
        if (id < 0 || id >= workers.size()) {
            throw new IllegalArgumentException("no worker " + id + " (workers 0.." + (workers.size() - 1) + ")");
        }
        checkOpen();
        transport.workerLost(id);
    }

    /**
     * Runs one stealing round now, whether or not periodic stealing is on, and returns how many
     * steals it requested. Tests use it with a zero balance interval to make rounds explicit.
     */
    public int rebalance() {
        checkOpen();
        return scheduler.balanceNow().size();
    }

    /** A snapshot of the counters. */
    public ClusterStats stats() {
        checkOpen();
        return scheduler.stats(workers);
    }

    /** The steal log, oldest first (the most recent 10,000 events). */
    public List<StealEvent> stealEvents() {
        checkOpen();
        return scheduler.stealEvents();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the cluster is closed");
        }
    }

    /** Stops everything; unfinished futures fail with {@link IllegalStateException}. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        scheduler.close();
        for (ClusterWorker w : workers) {
            w.shutdown();
        }
        transport.close();
    }

    /** Builds a {@link LocalCluster}. */
    public static final class Builder {
        private int workers = 2;
        private int threads = 1;
        private double bandwidth = 100e6;
        private Duration latency = Duration.ofMillis(1);
        private boolean stealing = true;
        private Duration balanceInterval = Duration.ofMillis(100);
        private int retries = 3;
        private Duration minStealDuration = Duration.ofMillis(1);
        private Duration saturatedOccupancy = Duration.ofMillis(400);
        private Duration defaultDuration = Duration.ofMillis(500);
        private long memoryLimit;

        private Builder() {
        }

        /** The number of workers, at least 1. */
        public Builder workers(int n) {
            this.workers = positive(n, "workers");
            return this;
        }

        /** Threads per worker, at least 1. */
        public Builder threadsPerWorker(int n) {
            this.threads = positive(n, "threadsPerWorker");
            return this;
        }

        /** Transfer bandwidth between workers in bytes per second; positive and finite. */
        public Builder bandwidth(double bytesPerSecond) {
            if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
                throw new IllegalArgumentException("bandwidth must be positive and finite, got " + bytesPerSecond);
            }
            this.bandwidth = bytesPerSecond;
            return this;
        }

        /** Latency of one message or transfer; not negative. */
        public Builder latency(Duration latency) {
            this.latency = nonNegative(latency, "latency");
            return this;
        }

        /** Whether periodic stealing runs (default on). {@link #rebalance()} works either way. */
        public Builder stealing(boolean on) {
            this.stealing = on;
            return this;
        }

        /** How often the balance round runs; zero means only on {@link #rebalance()}. */
        public Builder balanceInterval(Duration interval) {
            this.balanceInterval = nonNegative(interval, "balanceInterval");
            return this;
        }

        /** How many times a failing task is retried before it errs (default 3). */
        public Builder retries(int retries) {
            if (retries < 0) {
                throw new IllegalArgumentException("retries must not be negative, got " + retries);
            }
            this.retries = retries;
            return this;
        }

        /** Tasks expected to take at most this long are never stolen (default 1 ms). */
        public Builder minStealDuration(Duration d) {
            this.minStealDuration = nonNegative(d, "minStealDuration");
            return this;
        }

        /** A worker is saturated only above this much work per thread (default 400 ms). */
        public Builder saturatedOccupancy(Duration d) {
            this.saturatedOccupancy = nonNegative(d, "saturatedOccupancy");
            return this;
        }

        /** The duration assumed for a task kind never measured and without a hint (default 500 ms). */
        public Builder defaultDuration(Duration d) {
            this.defaultDuration = nonNegative(d, "defaultDuration");
            return this;
        }

        /**
         * Each worker's memory limit in bytes (default 0: none). Above 60 % of it in memory a
         * worker spills its least recently used values to disk and reads them back when needed;
         * above 80 % it starts no new task until memory falls (Dask's target and pause fractions).
         */
        public Builder memoryLimitPerWorker(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("memoryLimitPerWorker must not be negative, got " + bytes);
            }
            this.memoryLimit = bytes;
            return this;
        }

        /** Starts the cluster. */
        public LocalCluster build() {
            return new LocalCluster(config());
        }

        /** The settings as built so far; {@link ClusterCoordinator} reads them too. */
        ClusterConfig config() {
            return new ClusterConfig(workers, threads, bandwidth, latency.toNanos(), stealing,
                    balanceInterval.toNanos(), retries, minStealDuration.toNanos(), saturatedOccupancy.toNanos(),
                    defaultDuration.toNanos(), memoryLimit);
        }

        private static int positive(int n, String what) {
            if (n < 1) {
                throw new IllegalArgumentException(what + " must be at least 1, got " + n);
            }
            return n;
        }

        private static Duration nonNegative(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative()) {
                throw new IllegalArgumentException(what + " must not be negative, got " + d);
            }
            return d;
        }
    }
}
