/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

/**
 * The address of an actor spawned by an {@link ActorKit}: what other actors (and the benchmark
 * thread) send messages to.
 *
 * @param <M> the type of message the actor handles
 */
public interface Addr<M> {

    /**
     * Sends {@code msg} without waiting. May be called from any thread, inside a handler or not.
     * Messages from one sender to one actor arrive in the order they were sent.
     */
    void tell(M msg);

    /**
     * Stops the actor, asynchronously; messages sent after this may be dropped. Workloads stop
     * every actor they spawned once a run is over, so a long-lived kit does not fill up.
     */
    void stop();
}
