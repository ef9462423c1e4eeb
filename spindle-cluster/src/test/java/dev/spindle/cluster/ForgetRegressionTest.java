/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduler's records with {@code forgetReleased} over many graphs, found in the session-28
 * review of retention: each test failed on the code before its fix
 * (review-before-after.txt). Driven by hand, so every order of events is the one written.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForgetRegressionTest {

    private static final int GRAPHS = 2_000;


    /**
     * A task whose future was released while it ran (the client gave up on it, or its cleaner ran)
     * and which then failed, kept its record for the life of the cluster, and so did its
     * dependencies and every dependent failed with it: nothing called {@code mayForget} once it
     * failed, and no release would come any more.
     */
    @Test
    void aTaskReleasedBeforeItFailsIsForgottenWithItsGraph() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).retries(0).forgetReleased(true).build(), t);
        try {
            for (int i = 0; i < GRAPHS; i++) {
                String in = "in-" + i;
                String bad = "bad-" + i;
                String after = "after-" + i;
                s.submit(List.of(TaskSpec.builder(in, args -> 1).build(),
                        TaskSpec.builder(bad, args -> 1).dependsOn(in).build(),
                        TaskSpec.builder(after, args -> 1).dependsOn(bad).build()));
                reply(s, new Message.TaskFinished(t.workerOfLastCompute(in), in, t.lastCompute(in).attempt(), 1, 4, 1000));
                s.releaseFuture(in);
                s.releaseFuture(bad);
                s.releaseFuture(after);       // all released while bad runs
                reply(s, new Message.TaskErred(t.workerOfLastCompute(bad), bad, t.lastCompute(bad).attempt(),
                        new IllegalStateException("boom"), 1000));
                synchronized (t) {
                    t.toWorkers.clear();          // keeps the look-ups of the next graph short
                }
            }
            assertThat(s.taskRecords()).as("records left after %d failed graphs whose futures were released", GRAPHS)
                    .isZero();
        } finally {
            s.close();
        }
    }
    /**
     * A result lost with its worker while nothing pending needed it stayed LOST, and a release of
     * its future then did nothing (only a result in memory was released): its record stayed for
     * the life of the cluster, one per value a crashed worker held.
     */
    @Test
    void aResultLostWithItsWorkerIsForgottenOnceReleased() {
        RecordingTransport t = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).forgetReleased(true).build(), t);
        try {
            for (int i = 0; i < GRAPHS; i++) {
                String key = "v-" + i;
                s.submit(List.of(TaskSpec.builder(key, args -> 1).build()));
                int worker = t.workerOfLastCompute(key);
                reply(s, new Message.TaskFinished(worker, key, t.lastCompute(key).attempt(), 1, 4, 1000));
                reply(s, new Message.WorkerLost(worker));     // its only copy: LOST
                s.join(worker, 1);                              // a fresh worker under the id
                s.releaseFuture(key);
                synchronized (t) {
                    t.toWorkers.clear();
                }
            }
            assertThat(s.taskRecords()).as("records left after %d lost results were released", GRAPHS).isZero();
        } finally {
            s.close();
        }
    }
}
