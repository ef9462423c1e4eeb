/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A late join whose probe threw (a malformed reply, a codec or executor failure) ended the wait
 * as if the member had left or the coordinator were closing: the joiner was neither admitted nor
 * cut off, so it stayed proven, idled for good and held its id. A probe that throws counts as one
 * that got no answer now: the wait goes on, and once it times out the joiner is cut off.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LateJoinProbeThatThrowsTest {

    @Test
    void aLateJoinWhoseProbeThrowsEndsWithTheJoinerCutOff() throws Exception {
        ClusterCoordinator c = ClusterCoordinator.start(HandDriven.settings(1).build(), new RecordingTransport());
        try {
            AtomicInteger probes = new AtomicInteger();
            AtomicInteger cutOff = new AtomicInteger();
            Readiness.joinLate(c, 1, Duration.ofMillis(200), () -> true, () -> {
                probes.incrementAndGet();
                throw new IllegalArgumentException("a reply the codec could not read");
            }, cutOff::incrementAndGet);
            awaitLateJoin(1);

            assertThat(probes).as("probes").hasPositiveValue();
            assertThat(cutOff).as("the joiner, whose probe never succeeded").hasValue(1);
            assertThat(c.stats().workers()).as("admitted").hasSize(1);
        } finally {
            c.close();
        }
    }

    @Test
    void aProbeThatThrowsOnceIsAskedAgainAndTheJoinerAdmitted() throws Exception {
        ClusterCoordinator c = ClusterCoordinator.start(HandDriven.settings(1).build(), new RecordingTransport());
        try {
            AtomicInteger probes = new AtomicInteger();
            AtomicInteger cutOff = new AtomicInteger();
            Readiness.joinLate(c, 1, Duration.ofSeconds(20), () -> true, () -> {
                if (probes.incrementAndGet() == 1) {
                    throw new IllegalStateException("the executor refused the probe");
                }
                return true;
            }, cutOff::incrementAndGet);
            awaitLateJoin(1);

            assertThat(cutOff).as("cut off").hasValue(0);
            assertThat(c.stats().workers()).as("admitted").hasSize(2);
            assertThat(c.stats().workers().get(1).alive()).as("worker 1").isTrue();
        } finally {
            c.close();
        }
    }

    /** Waits for {@link Readiness#joinLate}'s thread for worker {@code id} to end. */
    private static void awaitLateJoin(int id) throws InterruptedException {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("spindle-late-join-" + id)) {
                thread.join(TimeUnit.SECONDS.toMillis(25));
            }
        }
    }
}
