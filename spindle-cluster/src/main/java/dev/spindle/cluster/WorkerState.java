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
    /** Mutated only through {@link #startProcessing} and {@link #stopProcessing}, which keep {@link #load}. */
    final Set<TaskState> processing = new LinkedHashSet<>();
    /** The occupancy of {@link #processing} as running totals. */
    final WorkerLoad load = new WorkerLoad();
    final Set<String> holds = new HashSet<>();
    boolean alive = true;
    /** Finished or erred replies accepted from this incarnation. */
    long executed;
    /** Retiring: given no new task, its queued tasks moved, its only copies copied, then removed. */
    boolean retiring;
    /** While retiring: the worker asked for a copy of each value only this one holds. */
    final Map<String, Integer> replicas = new HashMap<>();
    /** Its store's figures as it last reported them (a worker in another JVM with a memory limit), or null. */
    Message.MemoryReport memory;
    /** Completed (on the notifier) once this incarnation is gone: lost, or retired. */
    final CompletableFuture<Void> gone = new CompletableFuture<>();

    WorkerState(int id, int threads) {
        this.id = id;
        this.threads = threads;
    }

    void startProcessing(TaskState t, boolean prefixMeasured) {
        if (processing.add(t)) {
            load.add(t.spec.prefix(), t.hintNanos(), prefixMeasured);
        }
    }

    void stopProcessing(TaskState t) {
        if (processing.remove(t)) {
            load.remove(t.spec.prefix(), t.hintNanos());
        }
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
