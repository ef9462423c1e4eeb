/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.lang.ref.WeakReference;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/**
 * Registers the binders' meters one way: every meter reads its value from the monitored object
 * when the registry asks, through a function of that object. Micrometer holds the object weakly,
 * so a binder never keeps a closed scheduler alive; once it is collected its gauges read NaN and
 * its counters their last value.
 *
 * <p>The snapshot behind each reading is racy (see {@code dev.spindle.SchedulerStats}): each
 * meter takes its own, so two meters read at one scrape need not add up while work runs.
 *
 * <h2>One object per meter</h2>
 *
 * <p>Micrometer identifies a meter by its name and tags, and registering an id it already holds
 * returns the meter it holds, whatever object that one reads. Two schedulers with one name (a
 * user's choice: the defaults are numbered)
 * would so share the first one's meters, and a scheduler named like a collected one would get
 * that one's dead meters, which repeat their last reading for ever. So each registration notes,
 * per registry, which object its id reads (weakly), and before registering an id:
 *
 * <ul>
 *   <li>noted for the same object, or not noted: registers as Micrometer does (binding an object
 *       twice is harmless);</li>
 *   <li>noted for an object since collected: removes the dead meter and registers anew;</li>
 *   <li>noted for another live object whose meter is still registered: refuses with
 *       {@link IllegalArgumentException}, telling to name the two apart or tag them.</li>
 * </ul>
 *
 * <p>Binding is rare, so the notes sit behind one lock; reading a meter does not touch them.
 */
final class Meters {

    /** Per registry (weakly, by identity), which object each id registered here reads (weakly). */
    private static final Map<MeterRegistry, Map<Key, Note>> READS = new WeakHashMap<>();

    /** A meter's id as the binders build it: its name and all its tags. */
    private record Key(String name, Tags tags) {
    }

    /**
     * The object a registered meter reads, and the id the registry gave it (after its filters).
     * The id, not the meter: a meter may hold on to its registry, which would never leave the map.
     */
    private record Note(WeakReference<Object> target, Meter.Id id) {
    }

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
        Tags all = tags.and(extra);
        register(name, all, target, () -> FunctionCounter.builder(name, target, read)
                .description(description)
                .baseUnit(baseUnit)
                .tags(all)
                .register(registry));
    }

    /** A value that goes up and down (Micrometer {@link Gauge}). */
    <T> void gauge(String name, String description, T target, ToDoubleFunction<T> read) {
        gauge(name, description, null, target, read, Tags.empty());
    }

    /** A value that goes up and down, with a base unit and extra tags. */
    <T> void gauge(String name, String description, String baseUnit, T target, ToDoubleFunction<T> read,
            Tags extra) {
        Tags all = tags.and(extra);
        register(name, all, target, () -> Gauge.builder(name, target, read)
                .description(description)
                .baseUnit(baseUnit)
                .tags(all)
                .register(registry));
    }

    /** Registers a meter reading {@code target} unless another object's holds its id: see the class comment. */
    private void register(String name, Tags all, Object target, Supplier<Meter> registration) {
        Key key = new Key(name, all);
        synchronized (READS) {
            Map<Key, Note> notes = READS.computeIfAbsent(registry, r -> new HashMap<>());
            Note note = notes.get(key);
            Object other = note == null ? null : note.target.get();
            if (note != null && other != target) {
                boolean held = registry.find(name).meters().stream().anyMatch(m -> m.getId().equals(note.id));
                if (held && other != null) {
                    throw new IllegalArgumentException("meter " + name + all + " is already registered for "
                            + other + ", not " + target + ": give the two different names, or tell them"
                            + " apart with extra tags");
                }
                if (held) {
                    registry.remove(note.id);  // it read an object since collected, and would repeat its last value
                }
            }
            Meter meter = registration.get();
            notes.put(key, new Note(new WeakReference<>(target), meter.getId()));
        }
    }
}
