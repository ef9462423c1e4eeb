/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
public final class LocalCluster implements ClusterView, AutoCloseable {

    private final CoordinatorSettings settings;
    private final long memoryLimit;
    private final LocalTransport transport;
    /** By id; an entry is replaced when its worker rejoins. Changed under {@link #membership}. */
    private final List<ClusterWorker> workers = new CopyOnWriteArrayList<>();
    private final Object membership = new Object();
    private final GraphScheduler scheduler;
    private final Client client;
    private volatile boolean closed;
    /** Completed once the first {@link #close()} has stopped everything; a racing close waits for it. */
    private final CompletableFuture<Void> closeDone = new CompletableFuture<>();

    private LocalCluster(CoordinatorSettings settings, long memoryLimit) {
        this.settings = settings;
        this.memoryLimit = memoryLimit;
        this.transport = new LocalTransport(settings.bandwidth(), settings.latencyNanos());
        for (int i = 0; i < settings.workers(); i++) {
            workers.add(new ClusterWorker(i, settings.threadsPerWorker(), transport, memoryLimit));
        }
        this.scheduler = new GraphScheduler(settings, transport);
        workers.forEach(w -> w.serves(scheduler));
        transport.connect(workers, scheduler::receive);
        this.client = new Client(scheduler);
    }

    /**
     * Starts a builder with the defaults: 2 workers of 1 thread, 100 MB/s, 1 ms, stealing every
     * 100 ms.
     *
     * @return a new builder; builders are not thread-safe
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The client of this cluster.
     *
     * @return the cluster's one client, thread-safe, shared by all callers
     */
    public Client client() {
        return client;
    }

    /**
     * The number of worker ids, gone ones (lost or retired) included.
     *
     * @return the number of ids handed out so far; ids run from 0 to this minus one
     */
    public int workers() {
        return workers.size();
    }

    /**
     * Starts a new worker with the settings' threads per worker; it joins at once and gets work
     * from placement and the next balance round (brought forward).
     *
     * @return its id, the next after the highest so far
     * @throws IllegalStateException if every worker id, 0 to
     *     {@value ClusterCoordinator#MAX_WORKERS} minus one, is handed out already, gone workers'
     *     included ({@link #restartWorker} starts a worker under the id of a gone one)
     * @throws RejectedExecutionException if the cluster is closed
     */
    public int addWorker() {
        return addWorker(settings.threadsPerWorker());
    }

    /**
     * Starts a new worker of {@code threads} threads; see {@link #addWorker()}.
     *
     * @param threads the new worker's thread count, 1 to
     *     {@value CoordinatorSettings#MAX_THREADS_PER_WORKER}
     * @return its id, the next after the highest so far
     * @throws IllegalArgumentException if {@code threads} is below 1 or above
     *     {@value CoordinatorSettings#MAX_THREADS_PER_WORKER}
     * @throws IllegalStateException if every worker id, 0 to
     *     {@value ClusterCoordinator#MAX_WORKERS} minus one, is handed out already, gone workers'
     *     included ({@link #restartWorker} starts a worker under the id of a gone one)
     * @throws RejectedExecutionException if the cluster is closed
     */
    public int addWorker(int threads) {
        synchronized (membership) {
            checkOpen();                      // first: a closed cluster refuses whatever the thread count
            CoordinatorSettings.Knobs.threadCount(threads, "threads");
            int id = workers.size();
            if (id >= ClusterCoordinator.MAX_WORKERS) {
                // The cluster's state refuses, not the caller's argument: the scheduler's check of the
                // id it is given threw IllegalArgumentException here, naming an id the caller never
                // chose. No gone worker's id is taken in its place: ids are the caller's handles on
                // workers (killWorker, retire, restartWorker, restrictions, stats, the logs), and a gone
                // one may still be named: a task strictly restricted to it waits for it to rejoin, and
                // would run on whatever worker took the id, and a later restartWorker or killWorker of
                // it would reach that worker. restartWorker reuses an id the caller chooses.
                throw new IllegalStateException("every worker id, 0.." + (ClusterCoordinator.MAX_WORKERS - 1)
                        + ", is handed out (gone workers keep theirs; at most " + ClusterCoordinator.MAX_WORKERS
                        + " ids): start a worker under the id of a gone one with restartWorker(id)");
            }
            ClusterWorker w = new ClusterWorker(id, threads, transport, memoryLimit);
            w.serves(scheduler);
            workers.add(w);                   // the transport reaches it before the scheduler sends
            try {
                scheduler.join(id, threads);
            } catch (RuntimeException e) {
                workers.remove(id);
                w.shutdown();
                throw e;
            }
            return id;
        }
    }

    /**
     * Starts a fresh worker under the id of one that is gone (killed or retired), with the same
     * threads; it rejoins holding nothing and gets work as a new one does. Waits (up to 30 s)
     * until the scheduler has handled the old one's loss.
     *
     * @param id the id of a gone worker
     * @throws IllegalArgumentException if there is no such worker
     * @throws IllegalStateException if the worker is running (kill or retire it first), or is
     *         retiring
     * @throws RejectedExecutionException if the cluster is closed
     */
    public void restartWorker(int id) {
        synchronized (membership) {
            checkOpen();
            ClusterWorker old = worker(id);
            if (old.isAlive()) {
                throw new IllegalStateException("worker " + id + " is running; kill or retire it before restarting it");
            }
            awaitLetGo(id);
            ClusterWorker fresh = new ClusterWorker(id, old.threads(), transport, memoryLimit);
            fresh.serves(scheduler);
            workers.set(id, fresh);
            try {
                scheduler.join(id, old.threads());
            } catch (RuntimeException e) {
                fresh.shutdown();
                throw e;
            }
        }
    }

    /**
     * Retires worker {@code id} gracefully (Dask's {@code retire_workers}): it is given no new
     * task at once; its queued tasks move to other workers (a task that has started finishes
     * there); every value it holds in memory that no other worker holds is copied to the worker
     * holding the fewest bytes; then it is removed and stopped. No result is lost and no task
     * runs twice. (Should a copy fail three times, the value is given up, with a warning in the
     * log, and computed again when a task needs it, as after a lost worker: a value that cannot
     * be copied does not keep the worker retiring for good.) A task that no other live worker
     * may run (strictly restricted to this one, or its other allowed workers gone) runs here,
     * whether it was queued or becomes ready while the worker retires, and the retirement waits
     * for it: a steady stream of such tasks keeps the worker retiring.
     *
     * @param id the id of the worker to retire
     * @return completes once the worker is removed; fails with {@link IllegalStateException} if
     *         the cluster closes first. If the worker is killed while retiring, it completes and
     *         the loss is handled as usual (tasks reassigned, lost values recomputed). It completes
     *         on the thread that completes the client's futures: a wait for it there, in a callback
     *         of one of them (or of it), throws {@link IllegalStateException} while it is not done,
     *         as {@link ClusterFuture#get()} does
     * @throws IllegalArgumentException if there is no such worker
     * @throws IllegalStateException if the worker is gone already, or it is the last worker that
     *         is alive and not retiring (a cluster keeps one; {@link #close()} stops them all)
     * @throws RejectedExecutionException if the cluster is closed
     */
    public CompletableFuture<Void> retire(int id) {
        checkOpen();
        worker(id);
        return scheduler.retire(id);
    }

    /**
     * Simulates the crash of worker {@code id}: its running tasks are abandoned and the values it
     * held are gone. The scheduler reassigns its tasks and recomputes lost values that are still
     * needed; futures already completed keep their values. A worker gone already is left alone.
     * Returns once the scheduler has handled the loss (after the simulated latency), so that a
     * {@link #retire} that follows sees the worker gone. {@link #restartWorker} starts a fresh one
     * under the same id.
     *
     * @param id the id of the worker to crash
     * @throws IllegalArgumentException if there is no such worker
     * @throws IllegalStateException if the scheduler has not handled the loss within 30 s, or the
     *         calling thread is interrupted while it waits (the worker is stopped either way)
     * @throws RejectedExecutionException if the cluster is closed
     */
    public void killWorker(int id) {
        synchronized (membership) {
            checkOpen();                      // under the lock: close() cannot begin while this waits; first, as in retire
            if (worker(id).isAlive()) {       // one loss per incarnation: a second could hit its successor
                transport.workerLost(id);
                // The loss reaches the scheduler as a message, after the transport's latency. Until
                // it does, the scheduler counts the worker as alive, so a retire(other) right after
                // this call would pass the "a cluster keeps one worker" check and leave none.
                awaitLetGo(id);
            }
        }
    }

    /**
     * Waits (up to 30 s) until the scheduler has handled the end of worker {@code id}'s current
     * incarnation (its loss or its retirement).
     *
     * @throws IllegalStateException if that takes longer, the scheduler closes first, or the
     *     thread is interrupted
     */
    private void awaitLetGo(int id) {
        try {
            // not gone(id): its completion waits for the notifier, which is this thread in a future's callback
            scheduler.goneForBlockingWait(id).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for worker " + id + " to be gone", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("worker " + id + " is stopped but the scheduler has not let it go", e);
        }
    }

    private ClusterWorker worker(int id) {
        if (id < 0 || id >= workers.size()) {
            throw new IllegalArgumentException("no worker " + id + " (workers 0.." + (workers.size() - 1) + ")");
        }
        return workers.get(id);
    }

    /**
     * Runs one stealing round now, whether or not periodic stealing is on, and returns how many
     * steals it requested. Tests use it with a zero balance interval to make rounds explicit.
     *
     * @return the number of steal requests sent in this round, 0 or more
     * @throws RejectedExecutionException if the cluster is closed
     */
    public int rebalance() {
        checkOpen();
        return scheduler.balanceNow().size();
    }

    /**
     * A snapshot of the counters.
     *
     * @throws RejectedExecutionException once closed
     */
    @Override
    public ClusterStats stats() {
        checkOpen();
        return scheduler.stats(workers);
    }

    /**
     * The steal log, oldest first (the most recent 10,000 events).
     *
     * @throws RejectedExecutionException once closed
     */
    @Override
    public List<StealEvent> stealEvents() {
        checkOpen();
        return scheduler.stealEvents();
    }

    /**
     * The task log, oldest first (the most recent 1,000 runs).
     *
     * @throws RejectedExecutionException once closed
     */
    @Override
    public List<TaskEvent> taskEvents() {
        checkOpen();
        return scheduler.taskEvents();
    }

    /** For tests: see {@link GraphScheduler#checkCountsForTests}. */
    void checkCountsForTests() {
        scheduler.checkCountsForTests();
    }

    /** For tests: see {@link GraphScheduler#inspectTasks}. */
    <T> T inspectTasks(java.util.function.BiFunction<Map<String, TaskState>, List<WorkerState>, T> view) {
        return scheduler.inspectTasks(view);
    }

    /** The task records the scheduler keeps, for tests of {@link CoordinatorSettings.Knobs#forgetReleased}. */
    int taskRecords() {
        return scheduler.taskRecords();
    }

    /** For tests: the scheduler's per-key structures and each live worker's (prefixed "w<id>."), by name. */
    Map<String, Integer> retainedForTests() {
        Map<String, Integer> m = new TreeMap<>(scheduler.retainedForTests());
        for (ClusterWorker w : workers) {
            w.retainedForTests().forEach((k, v) -> m.put("w" + w.id() + "." + k, v));
        }
        return m;
    }

    /**
     * For tests: worker {@code id}'s per-key structures (see {@link ClusterWorker#retainedForTests}),
     * also once it is gone or the cluster is closed: a gone worker stays referenced by its cluster.
     */
    Map<String, Integer> workerRetainedForTests(int id) {
        return workers.get(id).retainedForTests();
    }

    /**
     * For tests: what the cluster's workers, gone ones included, hold besides their per-key
     * structures (see {@link ClusterWorker#footprintForTests}), summed by name.
     */
    Map<String, Integer> workersFootprintForTests() {
        Map<String, Integer> m = new TreeMap<>();
        for (ClusterWorker w : workers) {
            w.footprintForTests().forEach((k, v) -> m.merge(k, v, Integer::sum));
        }
        return m;
    }

    /** For tests: worker {@code id}'s tables (see {@link ClusterWorker#tablesForTests}), also once it is gone. */
    List<Object> workerTablesForTests(int id) {
        return workers.get(id).tablesForTests();
    }

    /** For tests: see {@link GraphScheduler#workerCollectionsForTests}. */
    List<Object> workerCollectionsForTests(int id) {
        return scheduler.workerCollectionsForTests(id);
    }

    /** For tests, once closed: see {@link GraphScheduler#closedForTests}. */
    Map<String, Integer> closedSchedulerForTests() {
        return scheduler.closedForTests();
    }

    private void checkOpen() {
        if (closed) {
            throw new RejectedExecutionException("the cluster is closed");
        }
    }

    /**
     * Stops everything; unfinished futures fail with {@link IllegalStateException}. Idempotent: a
     * close racing the first returns once that one has (except in a future's callback or on the
     * scheduler's thread, which the first close waits for).
     */
    @Override
    public void close() {
        boolean first;
        synchronized (membership) {
            first = !closed;
            closed = true;
        }
        if (!first) {
            // returned at once, it left the caller's futures pending and the workers running while
            // the first close still worked; but not on the notifier's thread (futures' callbacks)
            // nor the scheduler's (transport callbacks), which the first close waits for: the two
            // would wait for each other
            if (!scheduler.onThreadCloseWaitsFor()) {
                closeDone.join();
            }
            return;
        }
        try {
            scheduler.close();
            for (ClusterWorker w : workers) {
                w.shutdown();
            }
            transport.close();
        } finally {
            closeDone.complete(null);
        }
    }

    /**
     * Builds a {@link LocalCluster}: the scheduler's knobs of {@link CoordinatorSettings} (defined
     * and checked there) plus what only in-process workers have, their memory limit.
     */
    public static final class Builder extends CoordinatorSettings.Knobs<Builder> {
        private long memoryLimit;

        private Builder() {
        }

        /**
         * Each worker's memory limit in bytes (default 0: none). Above 60 % of it in memory a
         * worker spills its least recently used values to disk and reads them back when needed;
         * above 80 % it starts no new task until memory falls (Dask's target and pause fractions).
         *
         * @param bytes the limit in bytes, 0 for none
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is negative
         */
        public Builder memoryLimitPerWorker(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("memoryLimitPerWorker must not be negative, got " + bytes);
            }
            this.memoryLimit = bytes;
            return this;
        }

        /**
         * Starts the cluster.
         *
         * @return the running cluster, which the caller closes
         */
        public LocalCluster build() {
            return new LocalCluster(settings(), memoryLimit);
        }
    }
}
