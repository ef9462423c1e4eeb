/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The binders note, per registry, which object each id registered there reads, and refuse a
 * second live object of the same id (see {@code Meters}). The notes were kept per registry by the
 * registry's own {@code equals} and {@code hashCode}, which are the user's. A registry that called
 * itself equal to another shared that one's notes, and a bind to it dropped them (they name meters
 * it does not hold); a registry whose hash changed as meters were added found none of its notes
 * at its next bind. Either way a second pool of the same name bound to the first registry was not
 * refused: its bind returned and its meters were the first pool's, read under its name.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RegistriesThatCallThemselvesEqualTest {

    /** A registry equal to every other of its class (a wrapper comparing its configuration, say). */
    private static final class Alike extends SimpleMeterRegistry {
        @Override
        public boolean equals(Object o) {
            return o instanceof Alike;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** A registry whose hash follows its meters (a careless hashCode over its state). */
    private static final class Shifting extends SimpleMeterRegistry {
        @Override
        public boolean equals(Object o) {
            return o == this;
        }

        @Override
        public int hashCode() {
            return getMeters().size();
        }
    }

    @Test
    void aBindToARegistryThatCallsItselfEqualDoesNotDropAnotherRegistrysNotes() {
        MeterRegistry first = new Alike();
        MeterRegistry second = new Alike();
        try (WorkSharingPool bound = WorkSharingPool.builder().workers(1).name("p").build();
                WorkSharingPool elsewhere = WorkSharingPool.builder().workers(1).name("q").build();
                WorkSharingPool sameName = WorkSharingPool.builder().workers(3).name("p").build()) {
            SchedulerMetrics.of(bound).bindTo(first);
            SchedulerMetrics.of(elsewhere).bindTo(second);

            // accepted before: the bind to second had dropped first's notes as its own
            assertThatThrownBy(() -> SchedulerMetrics.of(sameName).bindTo(first))
                    .as("a second live pool named p bound to the registry that holds the first's meters")
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is already registered");
            assertThat(first.get("spindle.pool.parallelism").tag("pool", "p").gauge().value())
                    .as("p's parallelism gauge reads the pool bound first (1 worker, not 3)").isEqualTo(1.0);
        }
    }

    @Test
    void aRegistryWhoseHashChangesKeepsItsNotes() {
        MeterRegistry registry = new Shifting();
        try (WorkSharingPool bound = WorkSharingPool.builder().workers(1).name("p").build();
                WorkSharingPool sameName = WorkSharingPool.builder().workers(3).name("p").build()) {
            SchedulerMetrics.of(bound).bindTo(registry);
            int notes = Meters.notesOf(registry);

            // accepted before: looked up under its new hash, the registry had no notes
            assertThatThrownBy(() -> SchedulerMetrics.of(sameName).bindTo(registry))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is already registered");
            assertThat(notes).as("notes of the first bind, found again").isPositive()
                    .isEqualTo(registry.getMeters().size());
        }
    }

    /** What the notes' lookups and the composite walk ask of the map, by identity. */
    @Test
    void getAndForEachGoByIdentity() {
        WeakIdentityMap<MeterRegistry, String> map = new WeakIdentityMap<>();
        MeterRegistry a = new Alike();
        MeterRegistry b = new Alike();
        map.computeIfAbsent(a, () -> "a");

        assertThat(map.get(a)).isEqualTo("a");
        assertThat(map.get(b)).as("an equal registry of its own").isNull();
        map.computeIfAbsent(b, () -> "b");
        Map<MeterRegistry, String> seen = new IdentityHashMap<>();
        map.forEach(seen::put);
        assertThat(seen).hasSize(2).containsEntry(a, "a").containsEntry(b, "b");
    }
}
