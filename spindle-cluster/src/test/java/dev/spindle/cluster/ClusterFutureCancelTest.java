/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static dev.spindle.cluster.HandDriven.reply;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link ClusterFuture#cancel} as a {@link java.util.concurrent.Future}'s: true once, false for a
 * future already done, {@code get} throwing {@link CancellationException} afterwards, and the
 * future refused as a dependency; the task, not yet sent to a worker, does not run. Before, cancel
 * always returned false and the task always ran. Driven by hand.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClusterFutureCancelTest {

    @Test
    void aCancelledFutureReadsAsOneAndItsTaskDoesNotRun() throws Exception {
        RecordingTransport wire = new RecordingTransport();
        GraphScheduler s = new GraphScheduler(HandDriven.settings(2).build(), wire);
        try {
            List<CompletableFuture<Object>> fs = s.submit(List.of(
                    TaskSpec.builder("a", args -> 1).restrictions(Restrictions.strict(Set.of(0))).build(),
                    TaskSpec.builder("t", args -> 2).dependsOn("a").build()));
            ClusterFuture<Object> a = new ClusterFuture<>("a", fs.get(0), s);
            ClusterFuture<Object> t = new ClusterFuture<>("t", fs.get(1), s);
            CompletableFuture<Object> copy = t.toCompletableFuture();

            assertThat(t.cancel(false)).as("the first cancel").isTrue();
            assertThat(t.cancel(true)).as("a second cancel").isFalse();
            assertThat(t.isCancelled()).isTrue();
            assertThat(t.isDone()).isTrue();
            assertThatThrownBy(t::get).isInstanceOf(CancellationException.class);
            assertThatThrownBy(() -> t.get(1, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
            assertThat(copy).as("a copy made before").isCompletedExceptionally();
            assertThatThrownBy(() -> s.submit(List.of(TaskSpec.builder("u", args -> 3).dependsOn(t).build())))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'t' was cancelled");

            reply(s, new Message.TaskFinished(0, "a", wire.lastCompute("a").attempt(), 1, 8, 1000));
            assertThat(wire.lastCompute("t")).as("'t', cancelled before it was sent to a worker, runs").isNull();
            assertThat(a.get(10, TimeUnit.SECONDS)).as("its input, still held").isEqualTo(1);
            assertThat(a.cancel(false)).as("a future already done").isFalse();
            assertThat(a.isCancelled()).isFalse();

            t.release();                      // after the cancel: nothing more to release
            assertThat(t.isCancelled()).as("still reads as cancelled once released").isTrue();
            assertThat(s.retainedForTests()).containsEntry("processing", 0);
        } finally {
            s.close();
        }
    }
}
