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
 * the event's thread (and stack trace) is the one that blocked. A spare the pool's starvation
 * watch starts (every worker waits where the pool cannot see it: a join, a latch) has
 * {@code starvation} set: no worker records it, so its thread is the watch's starter thread, whose
 * stack shows nothing of the waits (without the field a reader took that thread for the one that
 * blocked).
 */
@Name("dev.spindle.SpareStart")
@Label("Spare Worker Start")
@Category({"Spindle", "Scheduler"})
@Description("A spare worker was started to compensate for a worker blocked in a blocking section"
        + " (the event's thread), or, with Starvation set, for workers all waiting unseen (the event's"
        + " thread is then the starvation watch's)")
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

    @Label("Starvation")
    @Description("Started by the starvation watch because every worker waited where the pool cannot see"
            + " it; the event's thread is the watch's starter thread, not a worker")
    private boolean starvation;

    /** Whether a recording wants this event. */
    public static boolean enabled() {
        return TYPE.isEnabled();
    }

    /**
     * Records a spare's start; call only when {@link #enabled()}.
     *
     * @param starvation whether the starvation watch started it (on its own thread), not a
     *     worker entering a blocking section (on that worker's thread)
     */
    public static void emit(String scheduler, int worker, int live, int blocked, boolean starvation) {
        SpareStartEvent e = new SpareStartEvent();
        e.scheduler = scheduler;
        e.worker = worker;
        e.live = live;
        e.blocked = blocked;
        e.starvation = starvation;
        e.commit();
    }
}
