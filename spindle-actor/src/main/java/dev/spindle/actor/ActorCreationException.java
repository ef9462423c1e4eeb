/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

/**
 * {@link ActorSystem#spawn spawn} could not create an actor: its factory threw (the
 * {@linkplain #getCause() cause}) or returned {@code null}. No actor was started; messages the
 * factory may have sent to its own reference are dead letters.
 */
public class ActorCreationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** The name the actor would have had. */
    private final String actorName;

    /**
     * Creates an exception for the actor named {@code actorName}.
     *
     * @param actorName the name the actor would have had
     * @param message what went wrong
     * @param cause what the actor's factory threw, or null
     */
    public ActorCreationException(String actorName, String message, Throwable cause) {
        super(message, cause);
        this.actorName = actorName;
    }

    /** {@return the name the actor would have had} */
    public String actorName() {
        return actorName;
    }
}
