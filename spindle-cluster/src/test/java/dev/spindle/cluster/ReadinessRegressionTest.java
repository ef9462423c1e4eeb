/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker process that rejoins after the start is admitted by {@link Readiness#joinLate} once
 * every worker answers; if it is lost between its answer and its admission, its transport reports
 * the loss while the scheduler's record of the id is still the lost predecessor's, so the
 * scheduler ignores it, then admits the id: a live record for a process that is gone, which
 * nobody reports lost again. Tasks placed there were sent to nobody and never ended.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReadinessRegressionTest {

    @Test
    void aWorkerLostWhileItIsAdmittedLateEndsLostInTheScheduler() throws Exception {
        RecordingTransport t = new RecordingTransport();
        ClusterCoordinator c = ClusterCoordinator.start(HandDriven.settings(2).build(), t);
        try {
            c.receive(new Message.WorkerLost(1));            // worker 1's first process is lost
            c.gone(1).get(10, TimeUnit.SECONDS);
            AtomicBoolean present = new AtomicBoolean(true);
            Readiness.joinLate(c, 1, Duration.ofSeconds(10), present::get, () -> {
                // its restarted process answers, then is lost before the scheduler admits it:
                // its transport reports the loss at once
                present.set(false);
                c.receive(new Message.WorkerLost(1));
                return true;
            }, () -> { });
            awaitLateJoin(1);
            c.stealEvents();                                  // a barrier: what was queued is handled

            assertThat(c.stats().workers().get(1).alive()).as("worker 1, whose process is gone").isFalse();
        } finally {
            c.close();
        }
    }

    /**
     * A late joiner whose probes fail for the whole join timeout was given up silently: proven but
     * never admitted, it idled for good and held its id. It is cut off now, unless the scheduler
     * admitted the id meanwhile (a second wait for the same process succeeded).
     */
    @Test
    void aLateJoinThatTimesOutCutsTheJoinerOffUnlessTheIdWasAdmitted() throws Exception {
        RecordingTransport t = new RecordingTransport();
        ClusterCoordinator c = ClusterCoordinator.start(HandDriven.settings(1).build(), t);
        try {
            AtomicInteger cutOff = new AtomicInteger();
            Readiness.joinLate(c, 0, Duration.ZERO, () -> true, () -> false, cutOff::incrementAndGet);
            awaitLateJoin(0);
            assertThat(cutOff).as("worker 0, admitted at the start").hasValue(0);

            Readiness.joinLate(c, 1, Duration.ZERO, () -> true, () -> false, cutOff::incrementAndGet);
            awaitLateJoin(1);
            assertThat(cutOff).as("worker 1, never ready").hasValue(1);
            assertThat(c.stats().workers()).as("admitted").hasSize(1);
        } finally {
            c.close();
        }
    }

    /**
     * {@link Readiness#admitProven} promises a NullPointerException for a null proof or a null
     * {@code joinLate}; a null proof was taken for a refusal and ignored, and a null
     * {@code joinLate} failed on the admission's own thread, where it was taken for the
     * coordinator closing: either way the worker was never admitted, and the caller never told.
     */
    @Test
    void aNullProofOrJoinLateIsRefusedAtOnce() {
        ClusterCoordinator c = ClusterCoordinator.start(HandDriven.settings(1).build(), new RecordingTransport());
        try {
            assertThatThrownBy(() -> Readiness.admitProven(c, null, 1, true, id -> { }))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("proof");
            assertThatThrownBy(() -> Readiness.admitProven(c, Incarnations.Proof.NEW, 1, true, null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("joinLate");
        } finally {
            c.close();
        }
    }

    /** Waits for {@link Readiness#joinLate}'s thread for worker {@code id} to end. */
    private static void awaitLateJoin(int id) throws InterruptedException {
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.getName().equals("spindle-late-join-" + id)) {
                thread.join(TimeUnit.SECONDS.toMillis(20));
            }
        }
    }
}
