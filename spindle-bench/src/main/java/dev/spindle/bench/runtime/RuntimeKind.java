/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.runtime;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The runtimes a workload can run on, by the id used on command lines and in JMH {@code @Param}s. */
public enum RuntimeKind {
    /** Spindle's {@link dev.spindle.pool.WorkStealingPool}. */
    SPINDLE("spindle", true),
    /** {@link java.util.concurrent.ForkJoinPool} in its default (LIFO local queues) mode. */
    FJP("fjp", true),
    /** {@link java.util.concurrent.ForkJoinPool} with {@code asyncMode = true} (FIFO local queues). */
    FJP_ASYNC("fjp-async", true),
    /**
     * A fixed {@link java.util.concurrent.ThreadPoolExecutor} on one shared queue. It has no
     * fork/join: a task that waits for another task blocks its thread, and recursive workloads
     * deadlock once every thread waits, so only message-passing workloads run on it.
     */
    TPE("tpe", false);

    private final String id;
    private final boolean forkJoin;

    RuntimeKind(String id, boolean forkJoin) {
        this.id = id;
        this.forkJoin = forkJoin;
    }

    /** The id used on command lines, in JMH parameters and in reports. */
    public String id() {
        return id;
    }

    /** Whether a task can wait for a task it spawned without blocking a thread. */
    public boolean supportsForkJoin() {
        return forkJoin;
    }

    /** Whether this is one of the two {@code ForkJoinPool} modes. */
    public boolean isForkJoinPool() {
        return this == FJP || this == FJP_ASYNC;
    }

    /**
     * Finds a kind by its id, ignoring case.
     *
     * @throws IllegalArgumentException naming the valid ids
     */
    public static RuntimeKind byId(String id) {
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        for (RuntimeKind k : values()) {
            if (k.id.equals(wanted)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown runtime '" + id + "'; valid: "
                + Arrays.stream(values()).map(RuntimeKind::id).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return id;
    }
}
