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
 * A task was refused with a {@code RejectedExecutionException} because its scheduler is shut
 * down; the event's thread and stack trace are the submitter's.
 */
@Name("dev.spindle.RejectedSubmit")
@Label("Rejected Submit")
@Category({"Spindle", "Scheduler"})
@Description("A task was submitted to a scheduler that no longer accepts tasks")
public final class RejectedSubmitEvent extends Event {

    private static final RejectedSubmitEvent TYPE = new RejectedSubmitEvent();

    @Label("Scheduler")
    private String scheduler;

    @Label("Reason")
    @Description("The exception's message")
    private String reason;

    /** Whether a recording wants this event. */
    public static boolean enabled() {
        return TYPE.isEnabled();
    }

    /**
     * Records the rejection that {@code e} reports, if a recording wants it, and returns
     * {@code e} for the caller to throw.
     */
    public static <X extends RuntimeException> X record(String scheduler, X e) {
        if (enabled()) {
            RejectedSubmitEvent ev = new RejectedSubmitEvent();
            ev.scheduler = scheduler;
            ev.reason = e.getMessage();
            ev.commit();
        }
        return e;
    }
}
