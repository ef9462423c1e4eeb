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
import jdk.jfr.Threshold;
import jdk.jfr.Timespan;

/**
 * A worker slept: the event's start is the park, its end the return from it (an unpark, a
 * timeout, or a spurious return). Emitted by the idle protocol's thread parker, so every pool
 * and the async runtime report it.
 */
@Name("dev.spindle.WorkerPark")
@Label("Worker Park")
@Category({"Spindle", "Scheduler"})
@Description("A worker thread parked with nothing to run, for the event's duration")
@StackTrace(false)
@Threshold("1 ms")
public final class WorkerParkEvent extends Event {

    private static final WorkerParkEvent TYPE = new WorkerParkEvent();

    @Label("Scheduler")
    @Description("The pool's or async runtime's name")
    private String scheduler;

    @Label("Worker")
    @Description("The worker's index in its scheduler")
    private int worker;

    @Label("Timeout")
    @Description("The longest the worker would sleep; 0 for an untimed park")
    @Timespan(Timespan.NANOSECONDS)
    private long timeout;

    /** Whether a recording wants this event: the hot path's only test. */
    public static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** Starts timing a park; call only when {@link #enabled()}. */
    public static WorkerParkEvent begin(String scheduler, int worker, long timeoutNanos) {
        WorkerParkEvent e = new WorkerParkEvent();
        e.scheduler = scheduler;
        e.worker = worker;
        e.timeout = timeoutNanos;
        e.begin();
        return e;
    }

    /** Ends the park begun by {@link #begin}; commits it if it lasted past the threshold. */
    public void parked() {
        end();
        if (shouldCommit()) {
            commit();
        }
    }
}
