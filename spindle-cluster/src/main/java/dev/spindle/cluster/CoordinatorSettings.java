/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * The scheduler's settings, immutable: how many workers of how many threads it starts with, its
 * estimates of the transfer cost between workers, and the stealing, retry and duration knobs.
 * A {@link ClusterCoordinator} is started with them; {@link LocalCluster.Builder} extends the
 * same builder ({@link Knobs}) with what only in-process workers have, so each knob is defined
 * and checked in one place.
 *
 * <pre>{@code
 * CoordinatorSettings settings = CoordinatorSettings.builder().workers(3).threadsPerWorker(2)
 *         .bandwidth(1e9).latency(Duration.ofMillis(1)).build();
 * }</pre>
 *
 * <p>Every setter checks its value at once and throws {@link IllegalArgumentException} naming the
 * parameter ({@link NullPointerException} for a null duration).
 */
public final class CoordinatorSettings {

    private final int workers;
    private final int threadsPerWorker;
    private final double bandwidth;
    private final Duration latency;
    private final boolean stealing;
    private final Duration balanceInterval;
    private final int retries;
    private final Duration minStealDuration;
    private final Duration saturatedOccupancy;
    private final Duration defaultDuration;
    private final boolean forgetReleased;

    private CoordinatorSettings(Knobs<?> b) {
        this.workers = b.workers;
        this.threadsPerWorker = b.threads;
        this.bandwidth = b.bandwidth;
        this.latency = b.latency;
        this.stealing = b.stealing;
        this.balanceInterval = b.balanceInterval;
        this.retries = b.retries;
        this.minStealDuration = b.minStealDuration;
        this.saturatedOccupancy = b.saturatedOccupancy;
        this.defaultDuration = b.defaultDuration;
        this.forgetReleased = b.forgetReleased;
    }

    /**
     * A builder with the defaults: 2 workers of 1 thread, 100 MB/s, 1 ms, stealing every 100 ms,
     * 3 retries, tasks of at most 1 ms never stolen, saturated above 400 ms per thread, 500 ms
     * assumed for a kind never measured.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** The number of workers the cluster starts with, numbered {@code 0..workers()-1}. */
    public int workers() {
        return workers;
    }

    /** Threads per worker (each worker the cluster starts with has this many). */
    public int threadsPerWorker() {
        return threadsPerWorker;
    }

    /** The transfer bandwidth between workers, bytes per second. */
    public double bandwidth() {
        return bandwidth;
    }

    /** The latency of one message or transfer. */
    public Duration latency() {
        return latency;
    }

    /** Whether periodic stealing runs. */
    public boolean stealing() {
        return stealing;
    }

    /** How often the balance round runs; zero for only on request. */
    public Duration balanceInterval() {
        return balanceInterval;
    }

    /** How many times a failing task is retried before it errs. */
    public int retries() {
        return retries;
    }

    /** Tasks expected to take at most this long are never stolen. */
    public Duration minStealDuration() {
        return minStealDuration;
    }

    /** A worker is saturated only above this much work per thread. */
    public Duration saturatedOccupancy() {
        return saturatedOccupancy;
    }

    /** The duration assumed for a task kind never measured and without a hint. */
    public Duration defaultDuration() {
        return defaultDuration;
    }

    /** Whether the scheduler forgets the records of released tasks that nothing depends on. */
    public boolean forgetReleased() {
        return forgetReleased;
    }

    long latencyNanos() {
        return latency.toNanos();
    }

    long balanceIntervalNanos() {
        return balanceInterval.toNanos();
    }

    long defaultDurationNanos() {
        return defaultDuration.toNanos();
    }

    BalanceParams balanceParams() {
        return new BalanceParams(bandwidth, latency.toNanos() / 1e9, minStealDuration.toNanos() / 1e9,
                saturatedOccupancy.toNanos() / 1e9);
    }

    @Override
    public String toString() {
        return "CoordinatorSettings[workers=" + workers + ", threadsPerWorker=" + threadsPerWorker
                + ", bandwidth=" + bandwidth + ", latency=" + latency + ", stealing=" + stealing
                + ", balanceInterval=" + balanceInterval + ", retries=" + retries
                + ", minStealDuration=" + minStealDuration + ", saturatedOccupancy=" + saturatedOccupancy
                + ", defaultDuration=" + defaultDuration + ", forgetReleased=" + forgetReleased + "]";
    }

    /** Builds {@link CoordinatorSettings}. */
    public static final class Builder extends Knobs<Builder> {
        private Builder() {
        }

        /** The settings as set so far. */
        public CoordinatorSettings build() {
            return settings();
        }
    }

    /**
     * The scheduler's knobs, shared by {@link Builder} and {@link LocalCluster.Builder}; the
     * setters return the concrete builder. Not for subclassing outside this package.
     *
     * @param <B> the builder the setters return
     */
    public abstract static class Knobs<B extends Knobs<B>> {
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
        private boolean forgetReleased;

        Knobs() {
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }

        /** Starts from {@code settings}: every knob takes its value there. */
        public B from(CoordinatorSettings settings) {
            Objects.requireNonNull(settings, "settings");
            this.workers = settings.workers;
            this.threads = settings.threadsPerWorker;
            this.bandwidth = settings.bandwidth;
            this.latency = settings.latency;
            this.stealing = settings.stealing;
            this.balanceInterval = settings.balanceInterval;
            this.retries = settings.retries;
            this.minStealDuration = settings.minStealDuration;
            this.saturatedOccupancy = settings.saturatedOccupancy;
            this.defaultDuration = settings.defaultDuration;
            this.forgetReleased = settings.forgetReleased;
            return self();
        }

        /** The number of workers the cluster starts with, at least 1 (default 2). */
        public B workers(int n) {
            this.workers = positive(n, "workers");
            return self();
        }

        /** Threads per worker, at least 1 (default 1). */
        public B threadsPerWorker(int n) {
            this.threads = positive(n, "threadsPerWorker");
            return self();
        }

        /** Transfer bandwidth between workers in bytes per second; positive and finite (default 100 MB/s). */
        public B bandwidth(double bytesPerSecond) {
            if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
                throw new IllegalArgumentException("bandwidth must be positive and finite, got " + bytesPerSecond);
            }
            this.bandwidth = bytesPerSecond;
            return self();
        }

        /** Latency of one message or transfer; not negative (default 1 ms). */
        public B latency(Duration latency) {
            this.latency = nonNegative(latency, "latency");
            return self();
        }

        /** Whether periodic stealing runs (default on); an explicit rebalance works either way. */
        public B stealing(boolean on) {
            this.stealing = on;
            return self();
        }

        /** How often the balance round runs; zero means only on request (default 100 ms). */
        public B balanceInterval(Duration interval) {
            this.balanceInterval = nonNegative(interval, "balanceInterval");
            return self();
        }

        /** How many times a failing task is retried before it errs; not negative (default 3). */
        public B retries(int retries) {
            if (retries < 0) {
                throw new IllegalArgumentException("retries must not be negative, got " + retries);
            }
            this.retries = retries;
            return self();
        }

        /** Tasks expected to take at most this long are never stolen (default 1 ms). */
        public B minStealDuration(Duration d) {
            this.minStealDuration = nonNegative(d, "minStealDuration");
            return self();
        }

        /** A worker is saturated only above this much work per thread (default 400 ms). */
        public B saturatedOccupancy(Duration d) {
            this.saturatedOccupancy = nonNegative(d, "saturatedOccupancy");
            return self();
        }

        /** The duration assumed for a task kind never measured and without a hint (default 500 ms). */
        public B defaultDuration(Duration d) {
            this.defaultDuration = nonNegative(d, "defaultDuration");
            return self();
        }

        /**
         * Whether the scheduler forgets a task's record (its function, dependencies and key) once
         * its result is released and every task depending on it is forgotten, as Dask forgets
         * tasks (default off). Without it the records of every task stay for the life of the
         * cluster, which a long-running cluster pays for in memory; with it a forgotten key is
         * unknown again, so a later task cannot depend on it by key, and it may be submitted anew.
         */
        public B forgetReleased(boolean on) {
            this.forgetReleased = on;
            return self();
        }

        /** The scheduler's settings as set so far. */
        final CoordinatorSettings settings() {
            return new CoordinatorSettings(this);
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
