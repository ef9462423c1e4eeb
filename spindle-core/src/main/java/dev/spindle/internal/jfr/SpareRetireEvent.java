/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A spare worker retired (its pool had more unblocked workers than it needs); its own thread. */
@Name("dev.spindle.SpareRetire")
@Label("Spare Worker Retire")
@Category({"Spindle", "Scheduler"})
@Description("A spare worker retired because its pool no longer needed it")
@StackTrace(false)
public final class SpareRetireEvent extends Event {

    private static final SpareRetireEvent TYPE = new SpareRetireEvent();

    @Label("Scheduler")
    private String scheduler;

    @Label("Worker")
    @Description("The spare's worker index")
    private int worker;

    /** Whether a recording wants this event. */
    public static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** Records a spare's retirement; call only when {@link #enabled()}. */
    public static void emit(String scheduler, int worker) {
        SpareRetireEvent e = new SpareRetireEvent();
        e.scheduler = scheduler;
        e.worker = worker;
        e.commit();
    }
}
