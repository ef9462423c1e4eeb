/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import dev.spindle.internal.jfr.JfrGate;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the runtime knows about one task beyond its run state: an id, where it was spawned, and
 * its poll statistics. Hung on {@code TaskCell.insight}, which stays {@code null} for users who
 * neither enable {@link AsyncRuntime.Builder#taskStatistics task statistics} nor record
 * {@link LongPollEvent}, so the cell does not grow for them. The wake count is not here: it is
 * in the cell's state word already.
 *
 * <p>Who writes what. The id and spawn site are final. The poll statistics are written only by
 * the worker polling the task (a task's polls are ordered, see {@link TaskCell}), with opaque
 * stores, so the plain read-modify-write is the poller's alone and never loses an update; a
 * reader on another thread ({@link AsyncRuntime#busiestTasks}) reads them opaque and may see
 * numbers one poll stale, or a count and a total from different polls. The cell's reference to
 * its insight is set at spawn, or by the poller at the first poll that wants one (a task spawned
 * before statistics were enabled or a recording began: it has no spawn site), with a release
 * store that readers pair with an acquire load.
 *
 * <p>Cost when wanted. A spawn walks the stack to its first frame outside the runtime (a
 * {@link StackWalker} that stops there, a few frames), formatted only when someone reads it;
 * a poll reads {@link System#nanoTime()} twice and makes three opaque stores.
 */
final class TaskInsight {

    private static final AtomicLong IDS = new AtomicLong();
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    /** Frames of these classes are the runtime's, not the spawner's. */
    private static final Set<Class<?>> SPAWN_PATH =
            Set.of(TaskInsight.class, TaskCell.class, AsyncRuntime.class);
    private static final VarHandle POLLS;
    private static final VarHandle POLL_NANOS;
    private static final VarHandle LONGEST_NANOS;
    private static final VarHandle INSIGHT;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            POLLS = l.findVarHandle(TaskInsight.class, "polls", long.class);
            POLL_NANOS = l.findVarHandle(TaskInsight.class, "pollNanos", long.class);
            LONGEST_NANOS = l.findVarHandle(TaskInsight.class, "longestNanos", long.class);
            INSIGHT = l.findVarHandle(TaskCell.class, "insight", TaskInsight.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final long id = IDS.incrementAndGet();
    /** The spawner's frame, or {@code null} if the task was spawned before anyone wanted it. */
    private final StackWalker.StackFrame site;
    // Written by the poller only (opaque), read opaque by anyone.
    private long polls;
    private long pollNanos;
    private long longestNanos;

    private TaskInsight(StackWalker.StackFrame site) {
        this.site = site;
    }

    /** Whether polls of {@code rt}'s tasks are timed: statistics on, or a recording wants long polls. */
    static boolean wanted(AsyncRuntime rt) {
        return rt.taskStatistics || JfrGate.open() && LongPollEvent.enabled();
    }

    /**
     * The insight of a task being spawned now, with its spawn site, or {@code null} when nobody
     * wants the site (statistics alone make the insight at the first timed poll instead: the
     * stack walk costs several microseconds, about ten spawns).
     *
     * @param spawnSites whether the spawning runtime records spawn sites
     */
    static TaskInsight atSpawn(boolean spawnSites) {
        if (!spawnSites && (!JfrGate.open() || !LongPollEvent.enabled())) {
            return null;
        }
        return new TaskInsight(WALKER.walk(frames -> frames
                .filter(f -> !SPAWN_PATH.contains(f.getDeclaringClass()))
                .findFirst()
                .orElse(null)));
    }

    /** {@code c}'s insight as another thread may read it (acquire), or {@code null}. */
    static TaskInsight of(TaskCell<?> c) {
        return (TaskInsight) INSIGHT.getAcquire(c);
    }

    /** {@code c}'s insight, made now if it has none; on the polling worker only. */
    private static TaskInsight ensure(TaskCell<?> c) {
        TaskInsight in = c.insight;            // the poller's own write, or the spawn's
        if (in == null) {
            in = new TaskInsight(null);
            INSIGHT.setRelease(c, in);         // published for readers on other threads
        }
        return in;
    }

    /**
     * Polls {@code c}'s task, timed; call only when {@link #wanted}, on the polling worker.
     * Records the poll in the statistics if they are on, and commits a {@link LongPollEvent}
     * if a recording wants it and the poll was long enough.
     */
    static <T> Poll<T> poll(TaskCell<T> c, AsyncWorker w) {
        AsyncTask<T> task = c.task;
        LongPollEvent e = JfrGate.open() && LongPollEvent.enabled() ? LongPollEvent.started() : null;
        long start = System.nanoTime();
        try {
            return task.poll(c);
        } finally {
            long took = System.nanoTime() - start;
            if (c.runtime.taskStatistics) {
                ensure(c).record(took);
            }
            if (e != null) {
                e.end();
                if (e.shouldCommit()) {
                    e.commitFor(c.runtime.name, w.index, ensure(c), task.getClass());
                }
            }
        }
    }

    /** Adds one poll that took {@code nanos}; the poller only. */
    private void record(long nanos) {
        POLLS.setOpaque(this, polls + 1);
        POLL_NANOS.setOpaque(this, pollNanos + nanos);
        if (nanos > longestNanos) {
            LONGEST_NANOS.setOpaque(this, nanos);
        }
    }

    long polls() {
        return (long) POLLS.getOpaque(this);
    }

    long pollNanos() {
        return (long) POLL_NANOS.getOpaque(this);
    }

    long longestNanos() {
        return (long) LONGEST_NANOS.getOpaque(this);
    }

    /** A racy reading of a cell's statistics; {@code null} if it has none or is done. */
    static TaskStats statsOf(TaskCell<?> c) {
        TaskInsight in = of(c);
        AsyncTask<?> task = c.task;            // racy: null once done
        if (in == null || task == null) {
            return null;
        }
        TaskStats.State state = switch (c.state()) {
            // the word says SCHEDULED while the cell is polled too: polledBy tells them apart
            case TaskCell.SCHEDULED -> c.polledBy != 0 ? TaskStats.State.RUNNING : TaskStats.State.SCHEDULED;
            case TaskCell.IDLE -> TaskStats.State.IDLE;
            default -> null;
        };
        if (state == null) {
            return null;
        }
        return new TaskStats(in.id, task.getClass().getName(), in.siteOrNull(), state, in.polls(),
                in.pollNanos(), in.longestNanos(), c.wakeCount());
    }

    /** The spawner's frame as text, or {@code null} if it is not known. */
    String siteOrNull() {
        if (site == null) {
            return null;
        }
        return site.getClassName() + "." + site.getMethodName() + "(" + site.getFileName() + ":"
                + site.getLineNumber() + ")";
    }
}
