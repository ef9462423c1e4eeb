/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ClusterFuture#cancel} racing {@link ClusterFuture#release()} on the same future of a task
 * not yet sent to a worker: a cancel that returns {@code true} keeps the task from running, as a
 * {@link java.util.concurrent.Future}'s successful cancel of a task not started does; one that
 * returns {@code false} lost to the release, and the task runs as a released one does. Before, the
 * release's action read a flag the cancel set: run between the cancel's check and its flag, it
 * released the task plainly, and the cancel still returned {@code true} while the task ran (sent
 * to its worker, not counted as cancelled); run after the flag but before the cancel completed the
 * future, it had the scheduler forget the task and complete the future with its own exception
 * first, and the cancel returned {@code false} for a task that never ran. Driven by hand; the race
 * is run many times, each a new task, the side that won waiting longer the next time so that the
 * race stays close, and every outcome is checked.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CancelRacingReleaseTest {

    private static final int ROUNDS = 2_000;

    @RepeatedTest(3)                         // each a new scheduler: the race's timing differs
    void aCancelThatReturnsTrueKeepsItsTaskFromRunningWhateverARacingReleaseDid() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(1).build(), wire);
        AtomicInteger round = new AtomicInteger(-1);
        AtomicInteger go = new AtomicInteger(-1);
        // spins the releaser (positive) or the canceller (negative) waits before its call
        AtomicInteger delay = new AtomicInteger();
        List<ClusterFuture<Object>> victims = new ArrayList<>();
        Thread releaser = new Thread(() -> {
            for (int i = 0; i < ROUNDS; i++) {
                awaitAtLeast(round, i);       // the cancel's side done with the last round
                int d = delay.get();
                go.set(i);
                spin(d);
                victims.get(i).release();
            }
        }, "releaser");
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build()));
            List<TaskSpec<?>> specs = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                specs.add(TaskSpec.builder("t-" + i, args -> 2).dependsOn("a").build());
            }
            List<CompletableFuture<Object>> ts = s.submit(specs);
            for (int i = 0; i < ROUNDS; i++) {
                victims.add(new ClusterFuture<>("t-" + i, ts.get(i), s));
            }
            boolean[] cancelled = new boolean[ROUNDS];
            int d = 0;
            releaser.start();
            for (int i = 0; i < ROUNDS; i++) {
                delay.set(d);
                round.set(i);
                awaitAtLeast(go, i);          // a spin, not a park: both sides start together
                spin(-d);
                cancelled[i] = victims.get(i).cancel(false);
                // the side that won waits a little longer next round: the race stays close, and
                // on any machine some releases land in the cancel's window
                d += cancelled[i] ? -1 : 1;
            }
            releaser.join(TimeUnit.SECONDS.toMillis(60));
            assertThat(releaser.isAlive()).isFalse();

            reply(s, new Message.TaskFinished(0, "a", wire.lastCompute("a").attempt(), 1, 8, 1000));
            int trueCancels = 0;
            List<String> ranAfterATrueCancel = new ArrayList<>();
            for (int i = 0; i < ROUNDS; i++) {
                if (cancelled[i]) {
                    trueCancels++;
                    assertThat(victims.get(i).isCancelled()).isTrue();
                    if (wire.lastCompute("t-" + i) != null) {
                        ranAfterATrueCancel.add("t-" + i);
                    }
                } else {
                    assertThat(victims.get(i).isCancelled()).as("t-%d, released first", i).isFalse();
                    assertThat(wire.lastCompute("t-" + i)).as("t-%d: cancel returned false, so its release came "
                            + "first and the task runs", i).isNotNull();
                }
            }
            assertThat(ranAfterATrueCancel).as("tasks sent to their worker although cancel returned true "
                    + "(%d true cancels of %d)", trueCancels, ROUNDS).isEmpty();
            assertThat(s.stats().tasksCancelled()).as("the true cancels, each counted").isEqualTo(trueCancels);
            // completed on the scheduler's notifier thread, after the reply's barrier: waited for
            assertThat(fs.get(0)).succeedsWithin(Duration.ofSeconds(30)).isEqualTo(1);
        } finally {
            round.set(ROUNDS);
            releaser.join(TimeUnit.SECONDS.toMillis(60));
            s.close();
        }
    }

    private static void spin(int spins) {
        for (int k = 0; k < spins; k++) {
            Thread.onSpinWait();
        }
    }

    /** Spins until {@code n} reaches {@code value}; yields once it took long (the other thread descheduled). */
    private static void awaitAtLeast(AtomicInteger n, int value) {
        for (int spins = 0; n.get() < value; spins++) {
            if (spins < 1_000) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }
}
