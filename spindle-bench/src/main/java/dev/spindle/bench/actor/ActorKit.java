/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import java.util.function.Function;

/**
 * The little actor API the actor workloads are written against, once, so that each runs on
 * every actor runtime through that runtime's own messaging: a kit maps {@link #spawn} to the
 * runtime's spawn and {@link Addr#tell} to its tell, and adds nothing else to the message path.
 *
 * <p>What a workload may rely on, and every kit must provide:
 * <ul>
 *   <li>one message at a time per actor, each handler call seeing the effects of the earlier
 *       ones (the actor's state needs no synchronisation);</li>
 *   <li>messages from one sender to one actor are handled in the order they were sent;</li>
 *   <li>{@code tell} and {@code spawn} may be called from any thread, handlers included;</li>
 *   <li>{@code tell} happens-before the handling of that message.</li>
 * </ul>
 *
 * <p>A kit is long-lived: the harness opens one per runtime variant and runs many workloads on
 * it; every workload stops the actors it spawned.
 */
public interface ActorKit extends AutoCloseable {

    /** The runtime variant's id ({@code pekko-t5}, {@code spindle-ws}, ...). */
    String id();

    /**
     * Spawns an actor. The kit calls {@code behaviour} once, with the new actor's own address,
     * before the actor handles its first message (on whichever thread suits the runtime), and
     * the handler it returns handles every message.
     *
     * @param <M> the type of message the actor handles
     */
    <M> Addr<M> spawn(Function<Addr<M>, Handler<M>> behaviour);

    /**
     * The first exception a handler threw, or {@code null}. A kit catches what a handler throws
     * (the message is lost) and keeps the first, so a workload waiting for its answer can fail
     * at once instead of timing out.
     */
    Throwable firstFailure();

    /** Stops the runtime and its threads. */
    @Override
    void close();
}
