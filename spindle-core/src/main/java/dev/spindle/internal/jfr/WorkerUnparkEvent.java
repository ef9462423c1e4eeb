/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A thread woke a parked worker; the event's thread is the waker. One per wake-up, so off by
 * default (message passing wakes workers thousands of times a second).
 */
@Name("dev.spindle.WorkerUnpark")
@Label("Worker Unpark")
@Category({"Spindle", "Scheduler"})
@Description("A thread (the event's thread) woke a parked worker because work appeared")
@StackTrace(false)
@Enabled(false)
public final class WorkerUnparkEvent extends Event {

    private static final WorkerUnparkEvent TYPE = new WorkerUnparkEvent();

    @Label("Scheduler")
    @Description("The pool's or async runtime's name")
    private String scheduler;

    @Label("Worker")
    @Description("The index of the worker woken")
    private int worker;

    /** Whether a recording wants this event: the hot path's only test. */
    public static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** Records a wake-up of {@code worker}; call only when {@link #enabled()}. */
    public static void emit(String scheduler, int worker) {
        WorkerUnparkEvent e = new WorkerUnparkEvent();
        e.scheduler = scheduler;
        e.worker = worker;
        e.commit();
    }
}
