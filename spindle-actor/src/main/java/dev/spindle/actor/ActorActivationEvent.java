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

    /**
     * Tests only: run by {@link #activate} just before it allocates the event, so that a test can
     * make that allocation fail (an {@code OutOfMemoryError}). Null otherwise; read only while a
     * recording enables the event.
     */
    static volatile Runnable recordingHook;

    @Label("Actor")
    @Description("The actor's name")
    private String actor;

    /** Default actor names are a sequence per system, so the actor's name alone can be another system's actor. */
    @Label("Actor System")
    @Description("The name of the actor's system")
    private String actorSystem;

    @Label("Messages")
    @Description("Messages the activation took from the mailbox")
    private int messages;

    static boolean enabled() {
        return TYPE.isEnabled();
    }

    /**
     * Runs one activation of {@code cell}, reporting it and its mailbox as recordings ask. Never
     * throws. The caller holds the actor's activation, which only {@link ActorCell#activate} gives
     * up: anything the recording throws before it (an {@code OutOfMemoryError} as the event is
     * allocated) escaped with the activation still held, and the actor never ran again, its later
     * messages waiting and its stop incomplete for good. So a failing recording costs this
     * activation's events only; what it threw goes to the failure handler, as a message's failure
     * would.
     */
    static void activate(ActorCell<?> cell) {
        try {
            MailboxDepthEvent.check(cell);
        } catch (Throwable recording) {
            cell.reportFailure(recording);
        }
        ActorActivationEvent e = null;
        if (enabled()) {
            try {
                Runnable hook = recordingHook;
                if (hook != null) {
                    hook.run();
                }
                e = new ActorActivationEvent();
                e.begin();
            } catch (Throwable recording) {
                e = null;
                cell.reportFailure(recording);
            }
        }
        int n = cell.activate();
        if (e == null) {
            return;
        }
        try {
            e.end();
            if (e.shouldCommit()) {
                e.actor = cell.name;
                e.actorSystem = cell.system.name();
                e.messages = n;
                e.commit();
            }
        } catch (Throwable recording) {
            cell.reportFailure(recording);  // the activation was given up; only the event is lost
        }
    }
}
