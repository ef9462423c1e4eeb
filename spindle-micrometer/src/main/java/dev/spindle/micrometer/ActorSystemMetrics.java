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
 * new ActorSystemMetrics(system).bindTo(registry);
 * }</pre>
 *
 * <p>The system is held weakly, as Micrometer holds the objects of function-based meters.
 */
public final class ActorSystemMetrics implements MeterBinder {

    private final ActorSystem system;
    private final Tags tags;

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
        Meters m = new Meters(registry, tags);
        m.counter("spindle.actor.messages", "Messages delivered to actors", system,
                s -> s.stats().messagesProcessed());
        m.counter("spindle.actor.dead.letters", "Messages not delivered because their actor had stopped", system,
                s -> s.stats().deadLetters());
        m.gauge("spindle.actor.live", "Actors spawned and not yet stopped", system, s -> s.stats().liveActors());
        m.register();
    }
}
