/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A work-stealing pool started a spare worker to stand in for one inside a blocking section;
 * the event's thread (and stack trace) is the one that blocked.
 */
@Name("dev.spindle.SpareStart")
@Label("Spare Worker Start")
@Category({"Spindle", "Scheduler"})
@Description("A spare worker was started to compensate for a worker blocked in a blocking section"
        + " (the event's thread)")
public final class SpareStartEvent extends Event {

    private static final SpareStartEvent TYPE = new SpareStartEvent();

    @Label("Scheduler")
    private String scheduler;

    @Label("Worker")
    @Description("The spare's worker index")
    private int worker;

    @Label("Live Workers")
    @Description("Workers alive with the spare, core ones included")
    private int live;

    @Label("Blocked Workers")
    @Description("Workers inside blocking sections")
    private int blocked;

    /** Whether a recording wants this event. */
    public static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** Records a spare's start; call only when {@link #enabled()}. */
    public static void emit(String scheduler, int worker, int live, int blocked) {
        SpareStartEvent e = new SpareStartEvent();
        e.scheduler = scheduler;
        e.worker = worker;
        e.live = live;
        e.blocked = blocked;
        e.commit();
    }
}
