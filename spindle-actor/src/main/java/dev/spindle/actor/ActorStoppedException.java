/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

/**
 * The actor a message was sent to will not process it: it has stopped, its factory failed, or
 * its scheduler refused to run it. {@link ActorRef#ask ask} futures fail with this exception;
 * the {@linkplain #getCause() cause}, when present, says why the actor ended other than by
 * {@link ActorRef#stop()} (for example the scheduler's
 * {@link java.util.concurrent.RejectedExecutionException}).
 */
public class ActorStoppedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** The name of the actor that did not process the message. */
    private final String actorName;

    /**
     * Creates an exception for the actor named {@code actorName}, with an optional cause.
     *
     * @param actorName the name of the actor that did not process the message
     * @param message what happened
     * @param cause why the actor could not take the message (a scheduler's refusal), or null
     */
    public ActorStoppedException(String actorName, String message, Throwable cause) {
        super(message, cause);
        this.actorName = actorName;
    }

    /** {@return the name of the actor that did not process the message} */
    public String actorName() {
        return actorName;
    }
}
