/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

/**
 * An actor's behaviour: called once per message, one message at a time. A handler may keep
 * plain (non-volatile) state: the kit guarantees that each call sees the effects of the
 * previous calls of the same actor, whichever thread ran them.
 *
 * @param <M> the type of message handled
 */
@FunctionalInterface
public interface Handler<M> {

    /** Handles one message. It must not block; it may send messages and spawn actors. */
    void handle(M msg);
}
