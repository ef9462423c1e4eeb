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

/**
 * A spare worker's thread ended: it retired (its pool had more unblocked workers than it needs),
 * or it ended with its pool; its own thread. Every spare that a {@code SpareStart} event reports
 * ends with one of these, so the starts less these are the spares running. The name is kept from
 * when only a retirement was recorded (recordings and their readers know it).
 */
@Name("dev.spindle.SpareRetire")
@Label("Spare Worker Retire")
@Category({"Spindle", "Scheduler"})
@Description("A spare worker ended: retired because its pool no longer needed it, or with its pool")
@StackTrace(false)
public final class SpareRetireEvent extends Event {

    private static final SpareRetireEvent TYPE = new SpareRetireEvent();

    @Label("Scheduler")
    private String scheduler;

    @Label("Worker")
    @Description("The spare's worker index")
    private int worker;

    /** {@code reason}: it retired, its pool having more unblocked workers than it needs. */
    public static final String RETIRED = "retired";
    /** {@code reason}: it ended with its pool, shut down gracefully. */
    public static final String SHUTDOWN = "shutdown";
    /** {@code reason}: it ended with its pool, stopped by {@code shutdownNow}. */
    public static final String STOPPED = "stopped";
    /** {@code reason}: its thread ended while its pool ran (an {@code Error} its loop did not survive). */
    public static final String FAILED = "failed";

    @Label("Reason")
    @Description("Why it ended: retired, shutdown, stopped (shutdownNow) or failed")
    private String reason;

    /** Whether a recording wants this event. */
    public static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** Records a spare's end and its {@code reason} (one of the constants); call only when {@link #enabled()}. */
    public static void emit(String scheduler, int worker, String reason) {
        SpareRetireEvent e = new SpareRetireEvent();
        e.scheduler = scheduler;
        e.worker = worker;
        e.reason = reason;
        e.commit();
    }
}
