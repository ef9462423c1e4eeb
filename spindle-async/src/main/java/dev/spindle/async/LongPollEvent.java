/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
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
 *
 * <p>Off unless a recording asks for it ({@code @Enabled(false)}; {@code spindle.jfc} and
 * {@code RecordingStream.enable} turn it on): the stack walk per spawn makes a spawn about ten
 * times dearer, and a recording with the JDK's own {@code default} or {@code profile} settings,
 * which production JVMs often run continuously, would otherwise pay it for every task.
 */
@Name("dev.spindle.LongPoll")
@Enabled(false)
@Label("Long Poll")
@Category({"Spindle", "Async"})
@Description("An async task's poll ran longer than the threshold, holding its worker")
@StackTrace(false)
@Threshold("10 ms")
final class LongPollEvent extends Event {

    private static final LongPollEvent TYPE = new LongPollEvent();

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

    /** A started event, for {@link TaskInsight#poll} to end and maybe commit. */
    static LongPollEvent started() {
        LongPollEvent e = new LongPollEvent();
        e.begin();
        return e;
    }

    /** Fills in and commits this ended event about a poll of the task {@code insight} describes. */
    void commitFor(String runtime, int worker, TaskInsight insight, Class<?> taskClass) {
        this.runtime = runtime;
        this.worker = worker;
        this.taskId = insight.id;
        String site = insight.siteOrNull();
        this.spawnSite = site != null ? site
                : "unknown (spawned before the recording enabled dev.spindle.LongPoll or statistics were on)";
        this.taskClass = taskClass;
        commit();
    }
}
