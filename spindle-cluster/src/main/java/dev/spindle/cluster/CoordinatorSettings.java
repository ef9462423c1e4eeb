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
 * parameter ({@link NullPointerException} for a null duration). A duration may be at most
 * {@code Long.MAX_VALUE} nanoseconds (about 292 years), as the scheduler keeps it in nanoseconds.
 */
public final class CoordinatorSettings {

    /**
     * The most threads a worker has: the bound of the pool that runs its tasks
     * ({@code WorkStealingPool.Builder#workers}).
     */
    public static final int MAX_THREADS_PER_WORKER = 32_767;

    private final int workers;
    private final int threadsPerWorker;
    private final double bandwidth;
    private final Duration latency;
    private final boolean stealing;
    private final Duration balanceInterval;
    private final int retries;
    private final int allowedWorkerLosses;
    private final Duration minStealDuration;
    private final Duration saturatedOccupancy;
    private final Duration defaultDuration;
    private final boolean forgetReleased;
    private final Duration noWorkerTimeout;

    private CoordinatorSettings(Knobs<?> b) {
        this.workers = b.workers;
        this.threadsPerWorker = b.threads;
        this.bandwidth = b.bandwidth;
        this.latency = b.latency;
        this.stealing = b.stealing;
        this.balanceInterval = b.balanceInterval;
        this.retries = b.retries;
        this.allowedWorkerLosses = b.allowedWorkerLosses;
        this.minStealDuration = b.minStealDuration;
        this.saturatedOccupancy = b.saturatedOccupancy;
        this.defaultDuration = b.defaultDuration;
        this.forgetReleased = b.forgetReleased;
        this.noWorkerTimeout = b.noWorkerTimeout;
    }

    /**
     * A builder with the defaults: 2 workers of 1 thread, 100 MB/s, 1 ms, stealing every 100 ms,
     * 3 retries, 3 worker losses allowed per task, tasks of at most 1 ms never stolen, saturated above 400 ms per thread, 500 ms
     * assumed for a kind never measured, 30 s for a worker to join when no live worker may run a task.
     *
     * @return a new builder; builders are not thread-safe
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The number of workers the cluster starts with, numbered {@code 0..workers()-1}.
     *
     * @return the initial worker count, at least 1
     */
    public int workers() {
        return workers;
    }

    /**
     * Threads per worker (each worker the cluster starts with has this many).
     *
     * @return the thread count of each initial worker, at least 1
     */
    public int threadsPerWorker() {
        return threadsPerWorker;
    }

    /**
     * The transfer bandwidth between workers, bytes per second.
     *
     * @return the scheduler's estimate of the bandwidth in bytes per second, positive and finite
     */
    public double bandwidth() {
        return bandwidth;
    }

    /**
     * The latency of one message or transfer.
     *
     * @return the scheduler's estimate of the latency, not negative
     */
    public Duration latency() {
        return latency;
    }

    /**
     * Whether periodic stealing runs.
     *
     * @return {@code true} if balance rounds run every {@link #balanceInterval()}
     */
    public boolean stealing() {
        return stealing;
    }

    /**
     * How often the balance round runs; zero for only on request.
     *
     * @return the interval between balance rounds, not negative; {@link Duration#ZERO} for rounds
     *     only on request
     */
    public Duration balanceInterval() {
        return balanceInterval;
    }

    /**
     * How many times a failing task is retried before it errs. The same bound applies, counted
     * apart, to a task's attempts that could not fetch an input from another worker still alive,
     * or read it from its own worker's copy (a spilled copy that cannot be read back): the task
     * errs with an {@link IllegalStateException} naming the input and the workers once that
     * happened {@code retries + 1} times since it last had a result.
     *
     * @return the retries after a task's first failure, 0 or more
     */
    public int retries() {
        return retries;
    }

    /**
     * How many of the workers a task was assigned to may be lost before the task errs with a
     * {@link WorkerLostException} (Dask's {@code allowed-failures}); see
     * {@link Knobs#allowedWorkerLosses}.
     *
     * @return the worker losses a task outlives, 0 or more
     */
    public int allowedWorkerLosses() {
        return allowedWorkerLosses;
    }

    /**
     * Tasks expected to take at most this long are never stolen.
     *
     * @return the expected duration at or below which a task stays where it is, not negative
     */
    public Duration minStealDuration() {
        return minStealDuration;
    }

    /**
     * A worker is saturated only above this much work per thread.
     *
     * @return the queued work per thread above which a worker counts as saturated, not negative
     */
    public Duration saturatedOccupancy() {
        return saturatedOccupancy;
    }

    /**
     * The duration assumed for a task kind never measured and without a hint.
     *
     * @return the duration assumed for an unmeasured kind, not negative
     */
    public Duration defaultDuration() {
        return defaultDuration;
    }

    /**
     * Whether the scheduler forgets the records of released tasks that nothing depends on.
     *
     * @return {@code true} if released task records are forgotten (see
     *     {@link Knobs#forgetReleased})
     */
    public boolean forgetReleased() {
        return forgetReleased;
    }

    /**
     * How long a task that no live worker may run waits for one to join before it fails.
     *
     * @return the wait (see {@link Knobs#noWorkerTimeout}); {@link Duration#ZERO} when such a task
     *     fails at once
     */
    public Duration noWorkerTimeout() {
        return noWorkerTimeout;
    }

    long noWorkerTimeoutNanos() {
        return noWorkerTimeout.toNanos();
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
                + ", balanceInterval=" + balanceInterval + ", retries=" + retries + ", allowedWorkerLosses=" + allowedWorkerLosses
                + ", minStealDuration=" + minStealDuration + ", saturatedOccupancy=" + saturatedOccupancy
                + ", defaultDuration=" + defaultDuration + ", forgetReleased=" + forgetReleased
                + ", noWorkerTimeout=" + noWorkerTimeout + "]";
    }

    /** Builds {@link CoordinatorSettings}. */
    public static final class Builder extends Knobs<Builder> {
        private Builder() {
        }

        /**
         * The settings as set so far.
         *
         * @return new, immutable settings; the builder may go on being used
         */
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
        private int allowedWorkerLosses = 3;
        private Duration minStealDuration = Duration.ofMillis(1);
        private Duration saturatedOccupancy = Duration.ofMillis(400);
        private Duration defaultDuration = Duration.ofMillis(500);
        private boolean forgetReleased;
        private Duration noWorkerTimeout = Duration.ofSeconds(30);

        Knobs() {
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }

        /**
         * Starts from {@code settings}: every knob takes its value there.
         *
         * @param settings the settings to copy every knob from
         * @return this builder
         * @throws NullPointerException if {@code settings} is null
         */
        public B from(CoordinatorSettings settings) {
            Objects.requireNonNull(settings, "settings");
            this.workers = settings.workers;
            this.threads = settings.threadsPerWorker;
            this.bandwidth = settings.bandwidth;
            this.latency = settings.latency;
            this.stealing = settings.stealing;
            this.balanceInterval = settings.balanceInterval;
            this.retries = settings.retries;
            this.allowedWorkerLosses = settings.allowedWorkerLosses;
            this.minStealDuration = settings.minStealDuration;
            this.saturatedOccupancy = settings.saturatedOccupancy;
            this.defaultDuration = settings.defaultDuration;
            this.forgetReleased = settings.forgetReleased;
            this.noWorkerTimeout = settings.noWorkerTimeout;
            return self();
        }

        /**
         * The number of workers the cluster starts with, 1 to {@value ClusterCoordinator#MAX_WORKERS}
         * (default 2).
         *
         * @param n the initial worker count
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is below 1 or above
         *     {@value ClusterCoordinator#MAX_WORKERS}
         */
        public B workers(int n) {
            // worker ids are indexes below the bound: started above it, a worker could never rejoin
            // (a restart or a join of its id is refused), though it was one of the cluster's
            if (n > GraphScheduler.MAX_WORKERS) {
                throw new IllegalArgumentException("workers must be in [1, " + GraphScheduler.MAX_WORKERS
                        + "] (worker ids are below it), got " + n);
            }
            this.workers = positive(n, "workers");
            return self();
        }

        /**
         * Threads per worker, 1 to {@value CoordinatorSettings#MAX_THREADS_PER_WORKER} (a
         * worker's pool holds no more); default 1.
         *
         * @param n the thread count of each worker
         * @return this builder
         * @throws IllegalArgumentException if {@code n} is below 1 or above
         *     {@value CoordinatorSettings#MAX_THREADS_PER_WORKER}
         */
        public B threadsPerWorker(int n) {
            this.threads = threadCount(n, "threadsPerWorker");
            return self();
        }

        /**
         * Transfer bandwidth between workers in bytes per second; positive and finite (default
         * 100 MB/s).
         *
         * @param bytesPerSecond the bandwidth in bytes per second
         * @return this builder
         * @throws IllegalArgumentException if {@code bytesPerSecond} is not positive and finite
         *     (NaN included)
         */
        public B bandwidth(double bytesPerSecond) {
            if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
                throw new IllegalArgumentException("bandwidth must be positive and finite, got " + bytesPerSecond);
            }
            this.bandwidth = bytesPerSecond;
            return self();
        }

        /**
         * Latency of one message or transfer; not negative (default 1 ms).
         *
         * @param latency the latency; {@link Duration#ZERO} for none
         * @return this builder
         * @throws IllegalArgumentException if {@code latency} is negative or longer than
         *     {@code Long.MAX_VALUE} nanoseconds
         * @throws NullPointerException if {@code latency} is null
         */
        public B latency(Duration latency) {
            this.latency = nonNegative(latency, "latency");
            return self();
        }

        /**
         * Whether periodic stealing runs (default on); an explicit rebalance works either way.
         *
         * @param on {@code false} to run balance rounds only on request
         * @return this builder
         */
        public B stealing(boolean on) {
            this.stealing = on;
            return self();
        }

        /**
         * How often the balance round runs; zero means only on request (default 100 ms).
         *
         * @param interval the interval between rounds; {@link Duration#ZERO} for rounds only on
         *     request
         * @return this builder
         * @throws IllegalArgumentException if {@code interval} is negative or longer than
         *     {@code Long.MAX_VALUE} nanoseconds
         * @throws NullPointerException if {@code interval} is null
         */
        public B balanceInterval(Duration interval) {
            this.balanceInterval = nonNegative(interval, "balanceInterval");
            return self();
        }

        /**
         * How many times a failing task is retried before it errs; not negative (default 3). It
         * bounds too, counted apart, a task's attempts that could not fetch an input from another
         * worker still alive, or read it from its own worker's copy (see
         * {@link CoordinatorSettings#retries()}).
         *
         * @param retries the retries after a task's first failure
         * @return this builder
         * @throws IllegalArgumentException if {@code retries} is negative
         */
        public B retries(int retries) {
            if (retries < 0) {
                throw new IllegalArgumentException("retries must not be negative, got " + retries);
            }
            this.retries = retries;
            return self();
        }

        /**
         * How many of the workers a task was assigned to may be lost (crashed, or cut off from the
         * scheduler; not retired) before the task errs with a {@link WorkerLostException} instead
         * of being placed again; not negative (default 3, as Dask's {@code allowed-failures}). A
         * task that kills the process it runs in (it exhausts the heap, calls {@code System.exit})
         * would otherwise take every worker down in turn, and its caller would wait for good. A
         * task queued on a lost worker counts as well as one running there, since the scheduler
         * cannot tell them apart; the count starts again once the task has a result. Failures the
         * task throws count against {@link #retries} instead.
         *
         * @param losses the worker losses a task outlives; {@code Integer.MAX_VALUE} for no limit
         * @return this builder
         * @throws IllegalArgumentException if {@code losses} is negative
         */
        public B allowedWorkerLosses(int losses) {
            if (losses < 0) {
                throw new IllegalArgumentException("allowedWorkerLosses must not be negative, got " + losses);
            }
            this.allowedWorkerLosses = losses;
            return self();
        }

        /**
         * Tasks expected to take at most this long are never stolen (default 1 ms).
         *
         * @param d the expected duration at or below which a task is not stolen
         * @return this builder
         * @throws IllegalArgumentException if {@code d} is negative or longer than
         *     {@code Long.MAX_VALUE} nanoseconds
         * @throws NullPointerException if {@code d} is null
         */
        public B minStealDuration(Duration d) {
            this.minStealDuration = nonNegative(d, "minStealDuration");
            return self();
        }

        /**
         * A worker is saturated only above this much work per thread (default 400 ms).
         *
         * @param d the queued work per thread above which a worker counts as saturated
         * @return this builder
         * @throws IllegalArgumentException if {@code d} is negative or longer than
         *     {@code Long.MAX_VALUE} nanoseconds
         * @throws NullPointerException if {@code d} is null
         */
        public B saturatedOccupancy(Duration d) {
            this.saturatedOccupancy = nonNegative(d, "saturatedOccupancy");
            return self();
        }

        /**
         * The duration assumed for a task kind never measured and without a hint (default 500 ms).
         *
         * @param d the duration assumed for an unmeasured task kind
         * @return this builder
         * @throws IllegalArgumentException if {@code d} is negative or longer than
         *     {@code Long.MAX_VALUE} nanoseconds
         * @throws NullPointerException if {@code d} is null
         */
        public B defaultDuration(Duration d) {
            this.defaultDuration = nonNegative(d, "defaultDuration");
            return self();
        }

        /**
         * Whether the scheduler forgets a task's record (its function, dependencies and key) once
         * its result is released (or, for a task that failed, once its future is released) and
         * every task depending on it is forgotten, as Dask forgets tasks (default off). Without it the records of every task stay for the life of the
         * cluster, which a long-running cluster pays for in memory; with it a forgotten key is
         * unknown again, so a later task cannot depend on it by key, and it may be submitted anew.
         *
         * @param on {@code true} to forget released records
         * @return this builder
         */
        public B forgetReleased(boolean on) {
            this.forgetReleased = on;
            return self();
        }

        /**
         * How long a task that no live worker may run waits for one to join (default 30 s), as
         * Dask keeps such a task in its {@code no-worker} state: its strict {@link Restrictions}
         * name only workers that are gone, or no worker is alive at all (the last one was lost,
         * or a restart is under way). A worker that joins within the wait, a new one or a gone id
         * rejoining, runs it; else it fails with an {@link IllegalStateException} naming its
         * restrictions, and so do its dependents. Its inputs stay held while it waits, as for any
         * task that still needs them. {@link Duration#ZERO} fails such a task at once.
         *
         * <pre>{@code
         * // a GPU worker's restart takes up to a minute: its tasks wait that long for it
         * CoordinatorSettings.builder().noWorkerTimeout(Duration.ofMinutes(2)).build();
         * }</pre>
         *
         * @param timeout the longest wait for an allowed worker; {@link Duration#ZERO} for none
         * @return this builder
         * @throws IllegalArgumentException if {@code timeout} is negative or longer than
         *     {@code Long.MAX_VALUE} nanoseconds
         * @throws NullPointerException if {@code timeout} is null
         */
        public B noWorkerTimeout(Duration timeout) {
            this.noWorkerTimeout = nonNegative(timeout, "noWorkerTimeout");
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

        /** {@code n} if it is a worker's thread count, 1 to {@link CoordinatorSettings#MAX_THREADS_PER_WORKER}. */
        static int threadCount(int n, String what) {
            if (n < 1 || n > MAX_THREADS_PER_WORKER) {
                throw new IllegalArgumentException(what + " must be in [1, " + MAX_THREADS_PER_WORKER + "], got " + n);
            }
            return n;
        }

        private static Duration nonNegative(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative()) {
                throw new IllegalArgumentException(what + " must not be negative, got " + d);
            }
            return requireNanos(d, what);
        }

        /**
         * {@code d} if it fits a {@code long} of nanoseconds (about 292 years), as the scheduler
         * keeps it; a longer one would overflow there, at build or on the scheduler's thread.
         */
        static Duration requireNanos(Duration d, String what) {
            try {
                d.toNanos();
            } catch (ArithmeticException overflow) {
                throw new IllegalArgumentException(what + " must be at most Long.MAX_VALUE nanoseconds"
                        + " (about 292 years), got " + d);
            }
            return d;
        }
    }
}
