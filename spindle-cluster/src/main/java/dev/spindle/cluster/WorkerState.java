/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * The scheduler's record of one incarnation of a worker. Mutated on the scheduler thread only. A
 * worker that rejoins under the same id gets a fresh record.
 */
final class WorkerState {

    final int id;
    final int threads;
    /**
     * Mutated only through {@link #startProcessing} and {@link #stopProcessing}, which keep {@link #load}.
     * This and the other collections here are replaced, empty, once the worker is gone ({@link #letGo}).
     */
    Set<TaskState> processing = new LinkedHashSet<>();
    /** The occupancy of {@link #processing} as running totals. */
    final WorkerLoad load = new WorkerLoad();
    Set<String> holds = new HashSet<>();
    /**
     * Of {@link #processing}: how many tasks lack a dependency here, and the bytes they lack (each
     * task's share in its {@link TaskState#missingBytes}). Exact integers kept on every change
     * (a task starting or stopping here at once, a holder added or removed by the next read, see
     * {@link #transferStale}) so that a balance round reads the transfer cost instead of walking
     * every task's dependencies.
     */
    private int tasksMissingData;
    private long bytesMissing;
    /**
     * How often {@link #bytesMissing} wrapped past {@link Long#MAX_VALUE} (less how often it wrapped
     * back): with it an exact sum, as shares of values sized near that bound overflow a long, and
     * a wrapped, negative total made the worker look cheapest to move work to.
     */
    private long bytesMissingWraps;
    /**
     * Of {@link #processing}: tasks a dependency of which gained or lost a holder since their share
     * was counted ({@link #transferChanged}). Recounted when the totals are read, not at each
     * change: recounting walks all of a task's dependencies, and a task of n inputs fetched here
     * sees n changes, so recounting at each one made a wide fan-in quadratic (50,000 inputs kept the
     * scheduler busy for minutes).
     */
    private Set<TaskState> transferStale = new HashSet<>();
    boolean alive = true;
    /**
     * The scheduler's attempt count when this incarnation joined (0 for the workers it started
     * with): an assignment numbered at or below it was made before, so a holder it named under
     * this id was an earlier incarnation, gone since (see GraphScheduler.fromALiveHolder).
     */
    long joinedAt;
    /** Finished or erred replies accepted from this incarnation. */
    long executed;
    /** Retiring: given no new task, its queued tasks moved, its only copies copied, then removed. */
    boolean retiring;
    /**
     * While retiring: the worker asked for a copy of each value only this one holds, as its
     * record, not its id: an id lost and rejoined meanwhile is a fresh worker that was never asked.
     */
    Map<String, WorkerState> replicas = new HashMap<>();
    /** While retiring: the copies of each value that failed ({@link Message.ReplicaFailed}). */
    Map<String, Integer> replicaFailures = new HashMap<>();
    /** Its store's figures as it last reported them (a worker in another JVM with a memory limit), or null. */
    Message.MemoryReport memory;
    /** Its last report of a stall on memory, or null (a worker without a memory limit never sends one). */
    Message.MemoryStall stall;
    /** The {@link Message.ReleaseKey}s sent to it: a stall report that has not handled them all is out of date. */
    long releasesSent;
    /** Completed (on the notifier) once this incarnation is gone: lost, or retired. */
    final CompletableFuture<Void> gone = new CompletableFuture<>();
    /**
     * Completed with {@link #gone}, but at once on the scheduler thread: for a caller that blocks
     * until the worker is gone, which may be the notifier itself (a future's callback), so it must
     * not wait for the notifier. No callback may be attached: it would run on the scheduler thread.
     */
    final CompletableFuture<Void> left = new CompletableFuture<>();

    WorkerState(int id, int threads) {
        this.id = id;
        this.threads = threads;
    }

    void startProcessing(TaskState t, boolean prefixMeasured) {
        if (processing.add(t)) {
            load.add(t.spec.prefix(), t.hintNanos(), prefixMeasured);
            t.missingBytes = t.missingBytes(id);
            countMissing(t, 1);
        }
    }

    void stopProcessing(TaskState t) {
        if (processing.remove(t)) {
            load.remove(t.spec.prefix(), t.hintNanos());
            countMissing(t, -1);              // its share as counted, stale or not: the totals hold exactly that
            transferStale.remove(t);
            t.missingBytes = -1;
        }
    }

    /**
     * This incarnation is gone (lost, or retired and removed): forgets what it held and the copies
     * it asked for, and gives up its collections for new, empty ones. Its record stays while its id
     * is not reused (its stats, the count of what it executed), and a hash table never shrinks: the
     * tables of a worker's busiest moment (a set of 100,000 keys held is a table of 256K slots,
     * 1 MB) stayed that size for good, one set per gone id. Its processing tasks were taken off it
     * before ({@link #stopProcessing}); should one be left, those sets stay as they are, so that
     * the running totals still match them.
     */
    void letGo() {
        holds = new HashSet<>();
        replicas = new HashMap<>();
        replicaFailures = new HashMap<>();
        if (processing.isEmpty() && transferStale.isEmpty()) {
            processing = new LinkedHashSet<>();
            transferStale = new HashSet<>();
        }
    }

    /**
     * A dependency of {@code t} gained or lost a holder: what {@code t} lacks here, if it processes
     * here, is recounted before the totals are next read ({@link #transferStale}).
     */
    void transferChanged(TaskState t) {
        if (processing.contains(t)) {
            transferStale.add(t);
        }
    }

    /** Recounts the shares of the tasks whose dependencies' holders changed since they were counted. */
    private void recount() {
        if (transferStale.isEmpty()) {
            return;
        }
        for (TaskState t : transferStale) {
            countMissing(t, -1);
            t.missingBytes = t.missingBytes(id);
            countMissing(t, 1);
        }
        transferStale.clear();
    }

    private void countMissing(TaskState t, int sign) {
        if (t.missingBytes >= 0) {
            tasksMissingData += sign;
            long before = bytesMissing;
            bytesMissing += sign * t.missingBytes;
            if (sign > 0 && bytesMissing < before) {
                bytesMissingWraps++;
            } else if (sign < 0 && bytesMissing > before) {
                bytesMissingWraps--;
            }
        }
    }

    /**
     * The seconds of transfer the processing tasks wait for here: a latency per task that lacks
     * a dependency, plus the bytes lacked over the bandwidth (the sum of
     * {@code GraphScheduler.transferCost} over {@link #processing}).
     */
    double transferSeconds(BalanceParams params) {
        recount();
        return tasksMissingData == 0 ? 0.0 : tasksMissingData * params.latency()
                + (bytesMissing + bytesMissingWraps * 0x1p64) / params.bandwidth();
    }

    /** Of the processing tasks, how many lack a dependency here; for tests. */
    int tasksMissingData() {
        recount();
        return tasksMissingData;
    }

    /** The bytes the processing tasks lack here, saturated at {@link Long#MAX_VALUE}; for tests. */
    long bytesMissing() {
        recount();
        return bytesMissingWraps > 0 ? Long.MAX_VALUE : bytesMissing;
    }

    /**
     * It reported itself stalled on memory after handling every release sent to it: it can start
     * no task until the scheduler releases one of its values (see {@link Message.MemoryStall}).
     */
    boolean stalled() {
        return alive && stall != null && stall.stalled() && stall.releases() == releasesSent;
    }

    /** Alive and not retiring: may be given tasks and copies. */
    boolean active() {
        return alive && !retiring;
    }

    @Override
    public String toString() {
        return "worker-" + id;
    }
}
