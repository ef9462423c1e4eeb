/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import java.util.concurrent.RejectedExecutionException;

/**
 * A message did not fit into an actor's bounded mailbox
 * ({@link ActorConfig.Builder#mailboxCapacity(int)}). {@link ActorRef#tell tell} throws it;
 * {@link ActorRef#ask ask} returns a future failed with it. The message was not enqueued: it is
 * neither processed nor counted as a dead letter. Once the actor's {@link ActorRef#stop() stop}
 * was requested, a message that finds the mailbox full is a dead letter instead.
 */
public class MailboxFullException extends RejectedExecutionException {

    private static final long serialVersionUID = 1L;

    /** The name of the actor whose mailbox was full. */
    private final String actorName;
    /** The capacity of that mailbox, in messages. */
    private final int capacity;

    /**
     * Creates an exception for an actor whose mailbox is full.
     *
     * @param actorName the actor's name
     * @param capacity the messages its mailbox holds
     */
    public MailboxFullException(String actorName, int capacity) {
        super("mailbox of actor '" + actorName + "' is full (capacity " + capacity + ")");
        this.actorName = actorName;
        this.capacity = capacity;
    }

    /** {@return the name of the actor whose mailbox was full} */
    public String actorName() {
        return actorName;
    }

    /** {@return the capacity of that mailbox, in messages} */
    public int capacity() {
        return capacity;
    }
}
