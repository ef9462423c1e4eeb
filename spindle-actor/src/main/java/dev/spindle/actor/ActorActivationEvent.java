/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * An actor's activation (one run on a scheduler thread, up to its messages per activation) lasted
 * longer than the recording's threshold: a slow message holds the thread and delays the actor's
 * other messages. While no recording enables this event or {@link MailboxDepthEvent},
 * the cell's activation runnable calls the activation directly (the events' static {@code enabled()} is a
 * constant {@code false} then).
 */
@Name("dev.spindle.ActorActivation")
@Label("Long Actor Activation")
@Category({"Spindle", "Actor"})
@Description("An actor's activation ran longer than the threshold")
@StackTrace(false)
@Threshold("10 ms")
final class ActorActivationEvent extends Event {

    private static final ActorActivationEvent TYPE = new ActorActivationEvent();

    @Label("Actor")
    @Description("The actor's name")
    private String actor;

    @Label("Messages")
    @Description("Messages the activation took from the mailbox")
    private int messages;

    static boolean enabled() {
        return TYPE.isEnabled();
    }

    /** Runs one activation of {@code cell}, reporting it and its mailbox as recordings ask. */
    static void activate(ActorCell<?> cell) {
        MailboxDepthEvent.check(cell);
        if (!enabled()) {
            cell.activate();
            return;
        }
        ActorActivationEvent e = new ActorActivationEvent();
        e.begin();
        int n = cell.activate();
        e.end();
        if (e.shouldCommit()) {
            e.actor = cell.name;
            e.messages = n;
            e.commit();
        }
    }
}
