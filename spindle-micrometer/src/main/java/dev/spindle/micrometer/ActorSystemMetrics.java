/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import dev.spindle.actor.ActorSystem;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.Objects;

/**
 * Meters for an {@link ActorSystem}, read from {@link ActorSystem#stats()} whenever the registry
 * asks, tagged {@code system=<its name>}: {@code spindle.actor.messages} (counter: messages
 * delivered to actors, those that threw included), {@code spindle.actor.dead.letters}
 * (counter: messages not delivered because their actor had stopped) and
 * {@code spindle.actor.live} (gauge: actors spawned and not yet stopped). Bind the system's
 * scheduler with {@link SchedulerMetrics} for its workers and queues.
 *
 * <pre>{@code
 * ActorSystemMetrics metrics = new ActorSystemMetrics(system);
 * metrics.bindTo(registry);
 * // ... once the system is closed and its final figures scraped:
 * metrics.close();                  // its meters go from every registry it was bound to
 * }</pre>
 *
 * <p>The system is held weakly by the meters, as Micrometer holds the objects of function-based
 * meters. A closed system's meters stay registered until the binder is {@linkplain #close()
 * closed}: see {@link SchedulerMetrics} ("Removing the meters") for why closing the system does
 * not remove them.
 */
public final class ActorSystemMetrics implements MeterBinder, AutoCloseable {

    private final ActorSystem system;
    private final Tags tags;
    /** The meters this binder's binds registered, per registry, for {@link #close()}. */
    private final Meters.Bound bound = new Meters.Bound();

    /**
     * Meters for {@code system}, tagged {@code system=<its name>}.
     *
     * @param system the actor system whose {@code stats()} the meters read
     * @throws NullPointerException if {@code system} is null
     */
    public ActorSystemMetrics(ActorSystem system) {
        this(system, Tags.empty());
    }

    /**
     * Meters for {@code system}, with extra tags on every meter.
     *
     * @param system the actor system whose {@code stats()} the meters read
     * @param tags added to every meter, after the object's own tag (Micrometer's {@code Tags.of(...)})
     * @throws NullPointerException if an argument is null
     */
    public ActorSystemMetrics(ActorSystem system, Iterable<Tag> tags) {
        this.system = Objects.requireNonNull(system, "system");
        this.tags = Tags.of("system", system.name()).and(Objects.requireNonNull(tags, "tags"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Meters m = new Meters(registry, tags, bound);
        m.counter("spindle.actor.messages", "Messages delivered to actors", system,
                s -> s.stats().messagesProcessed());
        m.counter("spindle.actor.dead.letters", "Messages not delivered because their actor had stopped", system,
                s -> s.stats().deadLetters());
        m.gauge("spindle.actor.live", "Actors spawned and not yet stopped", system, s -> s.stats().liveActors());
        m.register();
    }

    /**
     * Removes from every registry this binder was bound to the meters its binds registered there
     * and that registry still holds as registered, as {@link SchedulerMetrics#close()} does; a
     * closed system's meters stay until then (or until one of its name is bound in its place).
     * Closing again removes nothing more, and a later {@code bindTo} registers the meters again.
     *
     * @throws RuntimeException what a registry threw removing a meter (a listener of its own), once
     *     the other meters are removed
     */
    @Override
    public void close() {
        bound.close();
    }
}
