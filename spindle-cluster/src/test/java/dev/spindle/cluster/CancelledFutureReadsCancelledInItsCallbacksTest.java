/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ClusterFuture#cancel} completes the future, which runs the stages of its copies
 * ({@link ClusterFuture#toCompletableFuture()}) on the cancelling thread at once, and it marked the
 * future cancelled only after that: a stage that asked the future whether it was cancelled
 * ({@link ClusterFuture#isCancelled()}), to tell a cancel from a failure, was told no (a
 * {@link CompletableFuture} reads as cancelled in its own callbacks), and a stage that released the
 * future sent a plain release, so that the task ran. The marks are set before the completion now.
 * Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CancelledFutureReadsCancelledInItsCallbacksTest {

    @Test
    void aStageOfACopyRunByTheCancelSeesTheFutureCancelled() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("t", args -> 2).dependsOn("a").build()));
            ClusterFuture<Object> t = new ClusterFuture<>("t", fs.get(1), s);
            AtomicReference<Boolean> seen = new AtomicReference<>();
            t.toCompletableFuture().whenComplete((v, e) -> seen.set(t.isCancelled()));

            assertThat(t.cancel(false)).isTrue();
            assertThat(seen.get()).as("isCancelled() in a stage the cancel ran").isTrue();
            assertThat(t.isCancelled()).isTrue();
            t.release();
            assertThat(t.isCancelled()).as("once released too").isTrue();
        } finally {
            s.close();
        }
    }

    /**
     * The same stages, releasing the future they were told about (done with it): that release ran
     * the future's release action before the cancel had marked it as a cancel, so the scheduler
     * was told of a plain release, and the task, not yet sent to a worker, ran all the same.
     */
    @Test
    void aStageOfACopyThatReleasesTheFutureLeavesTheCancelInPlace() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("t", args -> 2).dependsOn("a").build()));
            ClusterFuture<Object> t = new ClusterFuture<>("t", fs.get(1), s);
            t.toCompletableFuture().whenComplete((v, e) -> t.release());

            assertThat(t.cancel(false)).isTrue();
            HandDriven.reply(s, new Message.TaskFinished(0, "a", wire.lastCompute("a").attempt(), 1, 8, 1000));
            assertThat(wire.lastCompute("t")).as("'t', cancelled before it was sent, sent once its input is in")
                    .isNull();
        } finally {
            s.close();
        }
    }
}
