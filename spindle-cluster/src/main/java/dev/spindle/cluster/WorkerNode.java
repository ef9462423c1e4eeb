/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Objects;

/**
 * One worker of a cluster whose scheduler is reached through a caller-supplied
 * {@link Transport}, for example in another JVM: a data store and a
 * {@link dev.spindle.pool.WorkStealingPool}. The transport hands it the scheduler's messages
 * through {@link #receive} and serves other workers' fetches from {@link #value}; the worker
 * reports through the transport's {@link Transport#toScheduler} and fetches through
 * {@link Transport#fetch}.
 */
public final class WorkerNode implements AutoCloseable {

    private final ClusterWorker worker;

    /**
     * Starts a worker.
     *
     * @param id the worker's number, as the scheduler knows it (0-based)
     * @param threads the threads of its pool, at least 1
     * @throws IllegalArgumentException if {@code id} is negative or {@code threads} below 1
     */
    public WorkerNode(int id, int threads, Transport transport) {
        if (id < 0) {
            throw new IllegalArgumentException("id must not be negative, got " + id);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        this.worker = new ClusterWorker(id, threads, Objects.requireNonNull(transport, "transport"));
    }

    /** The worker's number. */
    public int id() {
        return worker.id();
    }

    /** Handles a message from the scheduler; never blocks on a task. */
    public void receive(Message.ToWorker message) {
        worker.receive(Objects.requireNonNull(message, "message"));
    }

    /** The value this worker holds under {@code key}, or {@code null} if it holds none. */
    public Object value(String key) {
        Objects.requireNonNull(key, "key");
        try {
            return worker.store().contains(key) ? worker.store().get(key) : null;
        } catch (IllegalStateException removedMeanwhile) {
            return null;
        }
    }

    /** How many tasks this worker has run (finished or failed). */
    public long executed() {
        return worker.executed();
    }

    /** Stops the worker: running tasks are abandoned and held values dropped. Idempotent. */
    @Override
    public void close() {
        worker.shutdown();
    }
}
