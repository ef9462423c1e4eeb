/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import dev.spindle.cluster.ClusterStats;
import dev.spindle.cluster.ClusterView;
import dev.spindle.cluster.StealEvent;
import dev.spindle.cluster.TaskEvent;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.ToLongFunction;

/**
 * A cluster ({@code LocalCluster}, {@code ClusterCoordinator}, a transport's coordinator), read
 * through its {@link ClusterView}, its {@code stats()} and steal log: per worker its
 * occupancy (tasks processing over threads), tasks executed and memory held; the cluster's task
 * counts (its total of tasks executed is {@link ClusterStats#tasksExecuted()}, which a worker
 * restarted under its id does not take down) and bytes moved; the steal events logged since the
 * previous sample (at most {@link #MAX_EVENTS} of them, the newest); and the task runs logged since the previous sample
 * (at most {@link #MAX_TASKS}, the newest), each with its worker and its start and end as
 * milliseconds before the sample, which the page draws as a timeline per worker. A closed cluster
 * is reported as closed.
 */
final class ClusterSource extends Source {

    /** Steal events sent per sample at most; a busier log is cut to its newest entries. */
    static final int MAX_EVENTS = 20;

    private final ClusterView cluster;
    /** Task runs sent per sample at most; a busier log is cut to its newest entries. */
    static final int MAX_TASKS = 200;

    /** When the newest event sent so far was logged ({@link StealEvent#nanoTime()}). */
    private long lastEventNanos = Long.MIN_VALUE;
    /** The newest task run sent so far ({@link TaskEvent#seq()}). */
    private long lastTaskSeq;

    ClusterSource(String name, ClusterView cluster) {
        super(name);
        this.cluster = cluster;
    }

    @Override
    void sample(StringBuilder sb, long nanos, ThreadCpu cpu) {
        begin(sb, "cluster");
        ClusterStats s;
        List<StealEvent> log;
        List<TaskEvent> runs;
        try {
            s = cluster.stats();
            log = cluster.stealEvents();
            runs = cluster.taskEvents();
        } catch (IllegalStateException | RejectedExecutionException closed) {
            Json.key(sb, "closed").append("true");
            Json.close(sb, '}');
            return;
        }
        // the cluster's own count, which never goes down: not the workers' sum, which falls by
        // all that a worker restarted under its id had run (its slot starts again from zero)
        Json.field(sb, "tasksExecuted", s.tasksExecuted());
        Json.field(sb, "inMemory", s.tasksInMemory());
        Json.field(sb, "erred", s.tasksErred());
        Json.field(sb, "released", s.tasksReleased());
        Json.field(sb, "bytesTransferred", s.bytesTransferred());
        Json.field(sb, "stealsConfirmed", s.stealsConfirmed());
        Json.field(sb, "stealsRequested", s.stealsRequested());
        Json.array(sb, "workers", s.workers(), (o, w) -> {
            Json.field(o, "id", w.id());
            Json.key(o, "alive").append(w.alive()).append(',');
            Json.field(o, "threads", w.threads());
            Json.field(o, "processing", w.processing());
            Json.field(o, "occupancy", w.threads() == 0 ? 0 : Math.min(1.0, w.processing() / (double) w.threads()));
            Json.field(o, "executed", w.executed());
            Json.field(o, "memoryBytes", w.memoryBytes());
        });
        Json.array(sb, "steals", since(log, StealEvent::nanoTime, lastEventNanos, MAX_EVENTS), (o, e) -> {
            Json.field(o, "id", e.stealId());
            Json.field(o, "key", clip(e.key()));
            Json.field(o, "victim", e.victim());
            Json.field(o, "thief", e.thief());
            Json.field(o, "outcome", e.outcome().name());
        });
        if (!log.isEmpty()) {
            lastEventNanos = log.get(log.size() - 1).nanoTime();
        }
        Json.array(sb, "tasks", since(runs, TaskEvent::seq, lastTaskSeq, MAX_TASKS), (o, e) -> {
            Json.field(o, "key", clip(e.key()));
            Json.field(o, "worker", e.worker());
            // a run logged after this sample's clock was read counts as ending now
            Json.field(o, "startAgoMs", Math.max(0, nanos - e.startNanos()) / 1e6);
            Json.field(o, "endAgoMs", Math.max(0, nanos - e.endNanos()) / 1e6);
            Json.key(o, "failed").append(e.failed()).append(',');
        });
        if (!runs.isEmpty()) {
            lastTaskSeq = runs.get(runs.size() - 1).seq();
        }
        Json.close(sb, '}');
    }

    /**
     * The entries of a log (oldest first, ordered by {@code order}) that come after {@code after}:
     * the newest {@code max} of them, so what the page receives per sample stays bounded.
     */
    static <E> List<E> since(List<E> log, ToLongFunction<E> order, long after, int max) {
        int from = log.size();
        while (from > 0 && order.applyAsLong(log.get(from - 1)) > after && log.size() - from < max) {
            from--;
        }
        return log.subList(from, log.size());
    }
}
