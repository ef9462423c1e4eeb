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

/**
 * A cluster ({@code LocalCluster}, {@code ClusterCoordinator}, a transport's coordinator), read
 * through its {@link ClusterView}, its {@code stats()} and steal log: per worker its
 * occupancy (tasks processing over threads), tasks executed and memory held; the cluster's task
 * counts (its total of tasks executed is {@link ClusterStats#tasksExecuted()}, which a worker
 * restarted under its id does not take down; the tasks a cancel kept from running are
 * {@link ClusterStats#tasksCancelled()}) and bytes moved; the steal events logged since the
 * previous sample (at most {@link #MAX_EVENTS} of them, the newest); and the task runs logged since the previous sample
 * (at most {@link #MAX_TASKS}, the newest), each with its worker and its start and end as
 * milliseconds before the sample, which the page draws as a timeline per worker. A closed cluster
 * is reported as closed. A sample that fails (an accessor that throws) or is not sent (a read
 * the console stopped waiting for) passes no entries of either log: the next one sends them.
 */
final class ClusterSource extends Source {

    /** Steal events sent per sample at most; a busier log is cut to its newest entries. */
    static final int MAX_EVENTS = 20;

    private final ClusterView cluster;
    /** Task runs sent per sample at most; a busier log is cut to its newest entries. */
    static final int MAX_TASKS = 200;

    /**
     * Where the page stands in the steal log, by {@link StealEvent#nanoTime()}: two events may
     * be logged within one tick of the clock, so it counts those it has sent at the newest time.
     */
    private final LogCursor<StealEvent> steals = new LogCursor<>(StealEvent::nanoTime);
    /** Where the page stands in the task log ({@link TaskEvent#seq()}, one per entry). */
    private final LogCursor<TaskEvent> tasks = new LogCursor<>(TaskEvent::seq);

    ClusterSource(String name, ClusterView cluster) {
        super(name);
        this.cluster = cluster;
    }

    @Override
    void sample(StringBuilder sb, long nanos, long readNanos, ThreadCpu cpu) {
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
        Json.field(sb, "awaitingWorker", s.tasksAwaitingWorker());
        Json.field(sb, "released", s.tasksReleased());
        Json.field(sb, "cancelled", s.tasksCancelled());
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
        // the cursors move on only once the sample is sent (delivered()): an accessor or a view
        // that throws further on fails the sample (the console shows its error instead), as does
        // a read the console gave up on as stuck, and cursors moved already would start the next
        // sample after events no page was sent
        Json.array(sb, "steals", steals.peek(log, MAX_EVENTS), (o, e) -> {
            Json.field(o, "id", e.stealId());
            Json.field(o, "key", clip(e.key()));
            Json.field(o, "victim", e.victim());
            Json.field(o, "thief", e.thief());
            Json.field(o, "outcome", e.outcome().name());
        });
        Json.array(sb, "tasks", tasks.peek(runs, MAX_TASKS), (o, e) -> {
            Json.field(o, "key", clip(e.key()));
            Json.field(o, "worker", e.worker());
            // a run logged after this sample's clock was read counts as ending now
            Json.field(o, "startAgoMs", Math.max(0, nanos - e.startNanos()) / 1e6);
            Json.field(o, "endAgoMs", Math.max(0, nanos - e.endNanos()) / 1e6);
            Json.key(o, "failed").append(e.failed()).append(',');
        });
        Json.close(sb, '}');
    }

    @Override
    void delivered() {
        steals.commit();
        tasks.commit();
    }
}
