/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.function.ToDoubleFunction;

/**
 * Registers the binders' meters one way: every meter reads its value from the monitored object
 * when the registry asks, through a function of that object. Micrometer holds the object weakly,
 * so a binder never keeps a closed scheduler alive; once it is collected the meters read NaN.
 *
 * <p>The snapshot behind each reading is racy (see {@code dev.spindle.SchedulerStats}): each
 * meter takes its own, so two meters read at one scrape need not add up while work runs.
 */
final class Meters {

    private final MeterRegistry registry;
    private final Tags tags;

    Meters(MeterRegistry registry, Tags tags) {
        this.registry = registry;
        this.tags = tags;
    }

    /** A monotonic count (Micrometer {@link FunctionCounter}). */
    <T> void counter(String name, String description, T target, ToDoubleFunction<T> read) {
        counter(name, description, null, target, read, Tags.empty());
    }

    /** A monotonic count with a base unit and extra tags. */
    <T> void counter(String name, String description, String baseUnit, T target, ToDoubleFunction<T> read,
            Tags extra) {
        FunctionCounter.builder(name, target, read)
                .description(description)
                .baseUnit(baseUnit)
                .tags(tags.and(extra))
                .register(registry);
    }

    /** A value that goes up and down (Micrometer {@link Gauge}). */
    <T> void gauge(String name, String description, T target, ToDoubleFunction<T> read) {
        gauge(name, description, null, target, read, Tags.empty());
    }

    /** A value that goes up and down, with a base unit and extra tags. */
    <T> void gauge(String name, String description, String baseUnit, T target, ToDoubleFunction<T> read,
            Tags extra) {
        Gauge.builder(name, target, read)
                .description(description)
                .baseUnit(baseUnit)
                .tags(tags.and(extra))
                .register(registry);
    }
}
