/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.pool.WorkSharingPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An application that makes a pool per job (the default names are numbered), binds it, and
 * removes its meters from the registry when the job's pool closes, holds a bounded set of meters.
 * The binders' notes of which object each id reads stayed behind for every meter removed, one set
 * per pool for as long as the registry lived: memory that grew with every job.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NotesOfRemovedMetersTest {

    @Test
    void notesOfMetersTheApplicationRemovedDoNotAccumulate() {
        MeterRegistry registry = new SimpleMeterRegistry();
        int perPool = -1;
        for (int i = 0; i < 20; i++) {
            try (WorkSharingPool pool = WorkSharingPool.builder().workers(1).name("job-" + i).build()) {
                SchedulerMetrics.of(pool).bindTo(registry);
                if (perPool < 0) {
                    perPool = registry.getMeters().size();
                }
            }
            registry.getMeters().forEach(registry::remove);    // the job is over: its meters go
        }
        assertThat(registry.getMeters()).isEmpty();
        assertThat(Meters.notesOf(registry))
                .as("notes held for a registry whose meters were all removed (one pool has %d meters)", perPool)
                .isLessThanOrEqualTo(perPool);
    }
}
