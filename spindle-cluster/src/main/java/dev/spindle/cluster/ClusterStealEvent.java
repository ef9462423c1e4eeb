/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A step in the life of a steal between cluster workers, as the scheduler logs it in its
 * {@link StealEvent} log: requested of the victim, then confirmed (the task moved), rejected (it
 * had started) or stale (a reply nobody waits for any more). Emitted on the scheduler's thread.
 */
@Name("dev.spindle.ClusterSteal")
@Label("Cluster Steal")
@Category({"Spindle", "Cluster"})
@Description("A cluster steal was requested, confirmed, rejected, or answered too late")
@StackTrace(false)
final class ClusterStealEvent extends Event {

    private static final ClusterStealEvent TYPE = new ClusterStealEvent();

    @Label("Steal Id")
    private long stealId;

    @Label("Task Key")
    private String key;

    @Label("Victim")
    @Description("The worker the task was assigned to")
    private int victim;

    @Label("Thief")
    @Description("The worker it was to move to; -1 if unknown (a STALE reply to a steal no longer tracked)")
    private int thief;

    @Label("Cost Level")
    @Description("The balancer's cost level of the move (transfer against duration, log2 scale); -1 if unknown")
    private int level;

    @Label("Outcome")
    @Description("REQUESTED, CONFIRMED, REJECTED or STALE")
    private String outcome;

    static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** Records {@code s}; call only when {@link #enabled()}. */
    static void emit(StealEvent s) {
        ClusterStealEvent e = new ClusterStealEvent();
        e.stealId = s.stealId();
        e.key = s.key();
        e.victim = s.victim();
        e.thief = s.thief();
        e.level = s.level();
        e.outcome = s.outcome().name();
        e.commit();
    }
}
