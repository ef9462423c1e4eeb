/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import dev.spindle.internal.jfr.CountThreshold;
import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.SettingDefinition;
import jdk.jfr.StackTrace;

/**
 * An actor started an activation with at least {@code depth} messages waiting (the setting, 1000
 * by default): its senders outpace it.
 *
 * <p>Measured at the start of each activation, so at most one event per activation. A bounded
 * mailbox keeps its size anyway, and the event reports it exactly. An unbounded one keeps no
 * count (a counter would cost every send an atomic add, recording or not), so the activation
 * counts the queue's links from its head, only while the event is enabled and never more than the
 * setting: the event then says that <em>at least</em> that many were waiting ({@code exact} false).
 */
@Name("dev.spindle.MailboxDepth")
@Label("Mailbox Depth")
@Category({"Spindle", "Actor"})
@Description("An actor's activation began with at least the setting 'depth' messages in its mailbox")
@StackTrace(false)
final class MailboxDepthEvent extends Event {

    private static final MailboxDepthEvent TYPE = new MailboxDepthEvent();

    @Label("Actor")
    @Description("The actor's name")
    private String actor;

    /** Default actor names are a sequence per system, so the actor's name alone can be another system's actor. */
    @Label("Actor System")
    @Description("The name of the actor's system")
    private String actorSystem;

    @Label("Depth")
    @Description("Messages waiting when the activation began")
    private long depth;

    @Label("Exact")
    @Description("False when the depth was counted only up to the setting (unbounded mailbox)")
    private boolean exact;

    @Label("Capacity")
    @Description("The mailbox's bound; -1 when unbounded")
    private int capacity;

    static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** Reports {@code cell}'s mailbox if it is at least the setting deep; the activation holder only. */
    static void check(ActorCell<?> cell) {
        if (!enabled()) {
            return;
        }
        long threshold = CountThreshold.current();
        boolean bounded = cell.capacity != ActorConfig.UNBOUNDED;
        long depth = cell.depth(threshold);
        if (depth < threshold) {
            return;
        }
        MailboxDepthEvent e = new MailboxDepthEvent();
        e.actor = cell.name;
        e.actorSystem = cell.system.name();
        e.depth = depth;
        e.exact = bounded;
        e.capacity = bounded ? cell.capacity : -1;
        e.commit();
    }

    /** The setting {@code depth}: commit only at or above it. */
    @Name("depth")
    @Label("Depth Threshold")
    @Description("The least number of waiting messages that is reported")
    @SettingDefinition
    boolean depth(CountThreshold setting) {
        return CountThreshold.reached(depth);
    }
}
