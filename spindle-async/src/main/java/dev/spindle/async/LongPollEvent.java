/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * A task's poll ran longer than the recording's threshold: a task that blocks or computes
 * without yielding holds its worker, as tokio-console's long-poll warning flags. Names the task by
 * an id and by where it was spawned.
 *
 * <p>Cost. While no recording enables the event, {@link #enabled()} is a constant {@code false}
 * (a static final instance's {@code isEnabled()}, as in the JDK's own events): a spawn stores no
 * origin and a poll is called directly. While it is enabled, each spawn walks the stack to its
 * first frame outside the runtime (a {@link StackWalker} stopping there, a few frames) and keeps
 * that frame, formatted only if a poll of the task is committed; and each poll is timed, the
 * event being allocated per poll and committed only past the threshold. A task spawned before
 * the recording enabled the event gets its id at its first long poll and no spawn site.
 */
@Name("dev.spindle.LongPoll")
@Label("Long Poll")
@Category({"Spindle", "Async"})
@Description("An async task's poll ran longer than the threshold, holding its worker")
@StackTrace(false)
@Threshold("10 ms")
final class LongPollEvent extends Event {

    private static final LongPollEvent TYPE = new LongPollEvent();
    private static final AtomicLong IDS = new AtomicLong();
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    /** Frames of these classes are the runtime's, not the spawner's. */
    private static final Set<Class<?>> SPAWN_PATH = Set.of(LongPollEvent.class, TaskCell.class, AsyncRuntime.class);

    /** A task's id and spawn site: taken at spawn while the event is enabled, else at its first long poll. */
    static final class Origin {
        final long id = IDS.incrementAndGet();
        /** The spawner's frame, or {@code null} if the task was spawned before recording began. */
        final StackWalker.StackFrame site;

        Origin(StackWalker.StackFrame site) {
            this.site = site;
        }

        String site() {
            if (site == null) {
                return "unknown (spawned before the recording enabled dev.spindle.LongPoll)";
            }
            return site.getClassName() + "." + site.getMethodName() + "(" + site.getFileName() + ":"
                    + site.getLineNumber() + ")";
        }
    }

    @Label("Runtime")
    @Description("The async runtime's name")
    private String runtime;

    @Label("Worker")
    @Description("The index of the worker that polled the task")
    private int worker;

    @Label("Task Id")
    @Description("The task's id, the same in every event about it")
    private long taskId;

    @Label("Spawn Site")
    @Description("Where the task was spawned: the first frame outside the runtime")
    private String spawnSite;

    @Label("Task Class")
    private Class<?> taskClass;

    /** Whether a recording wants this event: the hot path's only test. */
    static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** The origin of a task being spawned now, or {@code null} when no recording wants it. */
    static Origin originAtSpawn() {
        if (!enabled()) {
            return null;
        }
        return new Origin(WALKER.walk(frames -> frames
                .filter(f -> !SPAWN_PATH.contains(f.getDeclaringClass()))
                .findFirst()
                .orElse(null)));
    }

    /** Polls {@code c}'s task, timed; call only when {@link #enabled()}, on the polling worker. */
    static <T> Poll<T> poll(TaskCell<T> c, AsyncWorker w) {
        AsyncTask<T> task = c.task;
        LongPollEvent e = new LongPollEvent();
        e.begin();
        try {
            return task.poll(c);
        } finally {
            e.end();
            if (e.shouldCommit()) {
                if (c.origin == null) {
                    c.origin = new Origin(null);   // the poller owns the cell: no race
                }
                e.runtime = c.runtime.name;
                e.worker = w.index;
                e.taskId = c.origin.id;
                e.spawnSite = c.origin.site();
                e.taskClass = task.getClass();
                e.commit();
            }
        }
    }
}
