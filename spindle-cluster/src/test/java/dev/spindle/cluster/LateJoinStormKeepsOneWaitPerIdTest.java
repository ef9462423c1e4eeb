/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A process that joins late under one id and rejoins again and again (a crash loop, a worker
 * that never answers the probe) started a {@link Readiness#joinLate} wait per join. Its present
 * check asks whether the id has a member, which each new incarnation answers, so every earlier
 * wait went on until its timeout (a minute by default): their threads piled up, each probing all
 * workers every {@value Readiness#POLL_MILLIS} ms. A newer wait for the same id now ends the
 * earlier ones.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LateJoinStormKeepsOneWaitPerIdTest {

    private static final int JOINS = 20;

    @Test
    void aRejoinEndsTheEarlierWaitForTheSameId() throws Exception {
        ClusterCoordinator c = ClusterCoordinator.start(HandDriven.settings(1).build(), new RecordingTransport());
        AtomicBoolean present = new AtomicBoolean(true);
        try {
            AtomicInteger cutOff = new AtomicInteger();
            for (int i = 0; i < JOINS; i++) {
                Readiness.joinLate(c, 1, Duration.ofSeconds(40), present::get, () -> false,
                        cutOff::incrementAndGet);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (waits(1) > 1 && System.nanoTime() - deadline < 0) {
                Thread.sleep(20);
            }
            assertThat(waits(1)).as("late-join threads for worker 1 after %s joins", JOINS).isEqualTo(1);
            assertThat(cutOff).as("cut off (the last wait has not timed out)").hasValue(0);
        } finally {
            present.set(false);               // ends the last wait
            c.close();
        }
    }

    @Test
    void waitsForOtherIdsGoOn() throws Exception {
        ClusterCoordinator c = ClusterCoordinator.start(HandDriven.settings(1).build(), new RecordingTransport());
        AtomicBoolean present = new AtomicBoolean(true);
        try {
            Readiness.joinLate(c, 1, Duration.ofSeconds(40), present::get, () -> false, () -> { });
            Readiness.joinLate(c, 2, Duration.ofSeconds(40), present::get, () -> false, () -> { });
            Thread.sleep(4 * Readiness.POLL_MILLIS);
            assertThat(waits(1)).as("worker 1's wait").isEqualTo(1);
            assertThat(waits(2)).as("worker 2's wait").isEqualTo(1);
        } finally {
            present.set(false);
            c.close();
        }
    }

    /** The live late-join threads for worker {@code id}. */
    private static long waits(int id) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals("spindle-late-join-" + id))
                .count();
    }
}
