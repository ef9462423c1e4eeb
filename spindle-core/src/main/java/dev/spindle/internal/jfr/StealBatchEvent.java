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
 * A searching worker (the event's thread) stole tasks from a peer's deque, or the one task of its
 * LIFO slot (recorded here, though the pool's {@code steals} count leaves slot takes out).
 */
@Name("dev.spindle.StealBatch")
@Label("Steal Batch")
@Category({"Spindle", "Scheduler"})
@Description("A worker stole a batch of tasks from another worker's deque, or the task in its LIFO slot")
@StackTrace(false)
public final class StealBatchEvent extends Event {

    private static final StealBatchEvent TYPE = new StealBatchEvent();

    @Label("Scheduler")
    private String scheduler;

    @Label("Thief")
    @Description("The stealing worker's index")
    private int thief;

    @Label("Victim")
    @Description("The index of the worker stolen from")
    private int victim;

    @Label("Tasks")
    @Description("Tasks taken: the one run next plus those moved to the thief's deque")
    private int tasks;

    /** Whether a recording wants this event: the hot path's only test. */
    public static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** Records a steal; call only when {@link #enabled()}. */
    public static void emit(String scheduler, int thief, int victim, int tasks) {
        StealBatchEvent e = new StealBatchEvent();
        e.scheduler = scheduler;
        e.thief = thief;
        e.victim = victim;
        e.tasks = tasks;
        e.commit();
    }
}
