/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * A cluster ({@code LocalCluster}, {@code ClusterCoordinator}, a transport's coordinator), read
 * through its {@link ClusterView}, its {@code stats()} and steal log: per worker its
 * occupancy (tasks processing over threads), tasks executed and memory held; the cluster's task
 * counts and bytes moved; and the steal events logged since the previous sample (at most
 * {@link #MAX_EVENTS} of them, the newest). A closed cluster is reported as closed.
 */
final class ClusterSource extends Source {

    /** Steal events sent per sample at most; a busier log is cut to its newest entries. */
    static final int MAX_EVENTS = 20;

    private final ClusterView cluster;
    /** When the newest event sent so far was logged ({@link StealEvent#nanoTime()}). */
    private long lastEventNanos = Long.MIN_VALUE;

    ClusterSource(String name, ClusterView cluster) {
        super(name);
        this.cluster = cluster;
    }

    @Override
    void sample(StringBuilder sb, long nanos, ThreadCpu cpu) {
        begin(sb, "cluster");
        ClusterStats s;
        List<StealEvent> log;
        try {
            s = cluster.stats();
            log = cluster.stealEvents();
        } catch (IllegalStateException | RejectedExecutionException closed) {
            Json.key(sb, "closed").append("true");
            Json.close(sb, '}');
            return;
        }
        Json.field(sb, "inMemory", s.tasksInMemory());
        Json.field(sb, "erred", s.tasksErred());
        Json.field(sb, "released", s.tasksReleased());
        Json.field(sb, "bytesTransferred", s.bytesTransferred());
        Json.field(sb, "stealsConfirmed", s.stealsConfirmed());
        Json.field(sb, "stealsRequested", s.stealsRequested());
        Json.key(sb, "workers").append('[');
        for (ClusterStats.WorkerStats w : s.workers()) {
            sb.append('{');
            Json.field(sb, "id", w.id());
            Json.key(sb, "alive").append(w.alive()).append(',');
            Json.field(sb, "threads", w.threads());
            Json.field(sb, "processing", w.processing());
            Json.field(sb, "occupancy", w.threads() == 0 ? 0 : Math.min(1.0, w.processing() / (double) w.threads()));
            Json.field(sb, "executed", w.executed());
            Json.field(sb, "memoryBytes", w.memoryBytes());
            Json.close(sb, '}').append(',');
        }
        Json.close(sb, ']').append(',');
        Json.key(sb, "steals").append('[');
        int from = log.size();
        while (from > 0 && log.get(from - 1).nanoTime() > lastEventNanos && log.size() - from < MAX_EVENTS) {
            from--;
        }
        for (StealEvent e : log.subList(from, log.size())) {
            sb.append('{');
            Json.field(sb, "id", e.stealId());
            Json.field(sb, "key", e.key());
            Json.field(sb, "victim", e.victim());
            Json.field(sb, "thief", e.thief());
            Json.field(sb, "outcome", e.outcome().name());
            Json.close(sb, '}').append(',');
        }
        if (!log.isEmpty()) {
            lastEventNanos = log.get(log.size() - 1).nanoTime();
        }
        Json.close(sb, ']');
        Json.close(sb, '}');
    }
}
